"""The command line's habits: an unknown option or command is a usage error (exit 2, on
stderr, no window), a file that is not there is said so without a window, ``afdesk help``
prints the help, and with no display ``afdesk`` and ``afdesk --self-test`` say so (exit 2)
instead of letting Qt abort the process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from afdesk import cli
from afdesk.paths import sample_encounter

NO_DISPLAY = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")


def _run(args: list[str], tmp_path, *, display: bool = True) -> tuple[int, bool, str, str]:
    """``cli.run(args)`` in a fresh process: (status, whether Qt was imported, out, err)."""
    code = (
        "import sys, json; from afdesk import cli\n"
        f"rc = cli.run({args!r})\n"
        "print(json.dumps([rc, 'PySide6.QtWidgets' in sys.modules]))"
    )
    env = {
        **os.environ,
        "AFDESK_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        # a window, were one to open, would quit at once instead of waiting for the GM
        "AFDESK_EXIT_AFTER_FIRST_FRAME": "1",
    }
    if display:
        env["QT_QPA_PLATFORM"] = "offscreen"
    else:
        for name in NO_DISPLAY:
            env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    *out, last = done.stdout.splitlines() or [""]
    rc, qt = json.loads(last)
    return rc, qt, "\n".join(out), done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--frobnicate"], "afdesk: unknown option --frobnicate"),
        (["-x", str(sample_encounter())], "afdesk: unknown option -x"),
        (["chek", "foo"], "afdesk: unknown command 'chek' (did you mean 'check'?)"),
        (["chek"], "afdesk: unknown command 'chek' (did you mean 'check'?)"),
        (["frobnicate"], "afdesk: unknown command 'frobnicate'; the commands are check,"),
        (["a.afenc", "b.afenc"], "afdesk: afdesk opens one file at a time (got 2"),
        (["-platform", "offscreen"], "afdesk: unknown option -platform"),
    ],
)
def test_an_unknown_option_or_command_is_a_usage_error_without_a_window(tmp_path, args, said):
    rc, qt, out, err = _run(args, tmp_path)
    assert (rc, qt, out) == (2, False, "")
    assert err.startswith(said), err
    assert "usage: afdesk [FILE]" in err and "afdesk --help" in err
    assert "Traceback" not in err


def test_a_file_that_is_not_there_is_said_without_a_window(tmp_path):
    missing = tmp_path / "no-such-encounter.afenc"
    rc, qt, out, err = _run([str(missing)], tmp_path)
    assert (rc, qt, out) == (2, False, "")
    assert err.splitlines()[0] == f"afdesk: {missing}: no such file"
    folder = tmp_path / "a-folder.afenc"
    folder.mkdir()
    rc, qt, _, err = _run([str(folder)], tmp_path)
    assert (rc, qt) == (2, False)
    assert err.splitlines()[0] == f"afdesk: {folder}: not a file (afdesk opens an encounter file)"


def test_help_as_a_command_prints_the_help(tmp_path):
    rc, qt, out, err = _run(["help"], tmp_path)
    assert (rc, qt, err) == (0, False, "")
    assert out.startswith("usage: afdesk") and "--self-test" in out
    rc, _, out2, _ = _run([str(sample_encounter()), "--help"], tmp_path)
    assert rc == 0 and out2 == out


def test_an_existing_file_passes():
    file = str(sample_encounter())
    assert cli.app_arguments([]) is None
    assert cli.app_arguments([file]) == file
    assert cli.app_arguments(["--version", file]) == file


@pytest.mark.parametrize("args", [[], ["--self-test"], [str(sample_encounter())]])
def test_no_display_is_said_with_how_to_run_with_one(tmp_path, args):
    rc, qt, out, err = _run(args, tmp_path, display=False)
    assert (rc, qt, out) == (2, False, "")
    lines = err.splitlines()
    assert lines[0].startswith("afdesk: no display found:")
    assert "DISPLAY" in lines[0] and "WAYLAND_DISPLAY" in lines[0]
    assert "ssh -X" in err and "DISPLAY=:0 afdesk" in err
    assert "QT_QPA_PLATFORM=offscreen afdesk --self-test" in err
    assert "xcb-cursor" not in err and "Traceback" not in err


def test_without_a_display_the_tools_still_run(tmp_path):
    rc, qt, out, err = _run(["check", str(sample_encounter())], tmp_path, display=False)
    assert (rc, qt, err) == (0, False, "")
    assert out == f"{sample_encounter()}: ok"


def test_the_platform_asked_for_may_bring_its_display(tmp_path):
    """``QT_QPA_PLATFORM=offscreen`` is a display of its own, even with no DISPLAY."""
    code = (
        "import os, sys; from afdesk import cli\n"
        "os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
        f"sys.exit(cli.run({[str(sample_encounter())]!r}))"
    )
    env = {k: v for k, v in os.environ.items() if k not in NO_DISPLAY}
    env |= {
        "AFDESK_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "AFDESK_EXIT_AFTER_FIRST_FRAME": "1",  # the window opens, then quits
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "no display" not in done.stderr
    rc, _, out, err = _run(["--self-test", "--help"], tmp_path, display=False)
    assert (rc, err) == (0, "")
    assert out.startswith("``afdesk --self-test``")
