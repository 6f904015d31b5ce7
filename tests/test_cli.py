"""``afdesk --help``, ``--version`` and ``--self-test``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from afdesk import cli, paths
from afdesk.gui import selftest


def _afdesk(*args: str, data: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AFDESK_DATA_DIR": data, **env}
    return subprocess.run(
        [sys.executable, "-m", "afdesk", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
        check=False,
    )


def test_help_lists_every_subcommand_on_one_line_without_qt(tmp_path):
    code = (
        "import sys, io, contextlib; from afdesk import cli\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out): rc = cli.run(['--help'])\n"
        "print(rc, 'PySide6' in sys.modules); print(out.getvalue())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    first, *text = done.stdout.splitlines()
    assert first == "0 False"  # no Qt to print the help
    for word in ("check FILE", "export-png FILE OUT.png", "--self-test"):
        lines = [line for line in text if line.strip().startswith(word)]
        assert len(lines) == 1, word
        assert len(lines[0].split(maxsplit=len(word.split()))[-1]) > 10  # a one-line summary
    assert "usage: afdesk" in text[0]


def test_version_and_short_help():
    assert cli.help_text() == cli.help_text()
    done = subprocess.run(
        [sys.executable, "-m", "afdesk", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.strip().startswith("afdesk ")
    short = subprocess.run(
        [sys.executable, "-m", "afdesk", "-h"], capture_output=True, text=True, timeout=60
    )
    assert short.returncode == 0 and "--self-test" in short.stdout


def test_self_test_passes_on_this_installation(tmp_path):
    done = _afdesk("--self-test", data=str(tmp_path / "data"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    for name in ("msgspec", "bundled resources", "data folder", "crash journal", "Qt"):
        assert f"ok  {name}:" in done.stdout
    assert "all checks passed" in done.stdout
    # the journal's round trip cleaned up after itself: no journal is left to recover
    # (afdesk.gui.quick_shiboken's cache is beside afdesk's code, this checkout's)
    assert list((tmp_path / "data").iterdir()) == []


def test_self_test_lists_what_is_missing(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the data folder should be")
    done = _afdesk("--self-test", data=str(blocked / "data"), QT_QPA_PLATFORM="nosuchplatform")
    assert done.returncode == 1
    problems = done.stderr.splitlines()
    assert problems[0] == "afdesk self-test: 3 problem(s):"
    assert problems[1].startswith("  - data folder: ") and str(blocked) in problems[1]
    assert problems[2].startswith("  - crash journal: ")
    assert "'nosuchplatform' is not in" in problems[3]
    assert "Traceback" not in done.stderr + done.stdout
    assert "ok  bundled resources" in done.stdout


def test_missing_resources_are_named(tmp_path, monkeypatch):
    (tmp_path / "encounters").mkdir()
    (tmp_path / "icons").mkdir()
    monkeypatch.setattr(paths, "resource_dir", lambda: tmp_path)
    with pytest.raises(selftest.Missing) as err:
        selftest.check_resources()
    assert "encounters/*.afenc" in str(err.value)
    assert "tilesets/*.json" in str(err.value)
    assert "icons/afdesk.svg" in str(err.value)


def test_a_check_that_breaks_is_reported_not_raised(monkeypatch):
    def broken() -> str:
        raise RuntimeError("the plugin folder\nis gone")

    monkeypatch.setattr(
        selftest, "CHECKS", (("broken", broken), ("msgspec", selftest.check_msgspec))
    )
    results = selftest.run_checks()
    assert [(r.name, r.ok) for r in results] == [("broken", False), ("msgspec", True)]
    assert results[0].detail == "RuntimeError: the plugin folder is gone"
