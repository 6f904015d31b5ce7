"""Start-up imports only what the first frame needs: ``import afdesk.gui.app``
loads no model, storage, rules or dialogs; the first frame itself (the window, the map's
empty ground, the docks' frames, the menu titles) is drawn with Qt and afdesk.gui's frame
alone: no model, rules, loader or msgspec, which come with the file once it is drawn; and
the start to a drawn window on the sample loads no dialog, odds worker, command-line tool,
dock panel, GM command, chase board, zone editor or campaign (:meth:`MainWindow.complete`
builds those once the window is drawn). Each in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from afdesk.gui.modes import packages

IMPORT_APP = "import sys, json, afdesk.gui.app; print(json.dumps(sorted(sys.modules)))"

FIRST_FRAME = """
import sys, json
import afdesk.gui.app as app_module
from PySide6.QtCore import QSettings

app = app_module.make_app([])
from afdesk.gui.main_window import MainWindow

window = MainWindow(QSettings(), defer=True)  # as app.main makes it
window.show()
app_module.exit_after_first_frame(window)
app.exec()
assert window.doc is None, "the first frame is drawn before the file is opened"
at_first_frame = sorted(sys.modules)
app_module.start(window, None)  # then the file, as app.main opens it once drawn
assert window.doc.encounter.combatants, "the sample is shown"
print(json.dumps(at_first_frame))
print(json.dumps(sorted(sys.modules)))
"""


def _modules(code: str, tmp_path, line: int = -1, **more_env: str) -> set[str]:
    """The modules ``code`` printed (on its last line, or on ``line``)."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QT_LOGGING_RULES": "qt.qpa.*=false",
        "AFDESK_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        **more_env,
    }
    return set(json.loads(_output(code, env)[line]))


def _output(code: str, env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


FIRST_FRAME_OF_THE_COMMAND = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules))))
from afdesk.cli import run
sys.exit(run([]))
"""
"""``afdesk`` as the GM starts it, quitting once its first frame is drawn
(``AFDESK_EXIT_AFTER_FIRST_FRAME=1``: before the file is opened)."""

NOT_IN_THE_FIRST_FRAME = ("afdesk.encounter", "afdesk.storage", "afdesk.rules", "msgspec")
"""The model, the loader, the rules and msgspec: none is needed to draw the first frame."""


def _model_modules(loaded: set[str]) -> list[str]:
    return sorted(
        m for m in loaded if m in NOT_IN_THE_FIRST_FRAME or m.startswith(NOT_IN_THE_FIRST_FRAME)
    )


def test_the_commands_first_frame_imports_no_model_rules_loader_or_msgspec(tmp_path):
    loaded = _modules(FIRST_FRAME_OF_THE_COMMAND, tmp_path, AFDESK_EXIT_AFTER_FIRST_FRAME="1")
    assert "afdesk.gui.main_window" in loaded  # it did draw the window
    assert _model_modules(loaded) == []
    # nor the map's own modules (they draw the model): the first frame shows its ground
    assert not [
        m for m in loaded if m.startswith("afdesk.gui.map.") and m != "afdesk.gui.map.blank"
    ]
    assert "afdesk.gui.document" not in loaded


def test_the_apps_command_line():
    """What :func:`afdesk.gui.app.main` reads of its arguments (afdesk.cli has already
    refused any option but ``--version`` and a second file)."""
    from afdesk.gui.app import arguments

    assert arguments([]) == (None, [])
    assert arguments(["fight.afenc"]) == ("fight.afenc", [])
    assert arguments(["-reverse"]) == (None, ["-reverse"])
    assert arguments(["-reverse", "a.afenc"]) == ("a.afenc", ["-reverse"])
    assert arguments(["-"]) == ("-", [])


def test_the_app_says_its_version_before_it_starts_qt(capsys):
    from afdesk import __version__
    from afdesk.gui.app import main

    assert main(["fight.afenc", "--version"]) == 0
    assert capsys.readouterr().out == f"afdesk {__version__}\n"


def test_the_window_is_drawn_before_the_model_is_imported_then_shows_the_sample(tmp_path):
    """The window made as the app makes it: drawn with no model; then the file opens."""
    at_first_frame = _modules(FIRST_FRAME, tmp_path, line=-2)
    assert "afdesk.gui.main_window" in at_first_frame
    assert _model_modules(at_first_frame) == []
    after = _modules(FIRST_FRAME, tmp_path)  # the sample shown (asserted in the script)
    assert "afdesk.encounter.model" in after and "msgspec" in after


def test_importing_the_app_loads_nothing_of_the_model_storage_or_dialogs(tmp_path):
    loaded = _modules(IMPORT_APP, tmp_path)
    ours = {m for m in loaded if m.startswith("afdesk")}
    # feature_hook: PySide6's import hook spared (the window's icon, afdesk.gui.icons,
    # comes with the application); quick_enums: Qt's enums built quickly; quick_shiboken:
    # PySide6's runtime imported through afdesk's cache, found by afdesk.paths
    assert ours == {
        "afdesk",
        "afdesk.paths",
        "afdesk.gui",
        "afdesk.gui.app",
        "afdesk.gui.feature_hook",
        "afdesk.gui.platform_check",
        "afdesk.gui.quick_enums",
        "afdesk.gui.quick_shiboken",
    }, ours
    # nor the heavy helpers the first frame has no use for
    assert not loaded & {"msgspec", "ctypes", "ctypes.util", "subprocess"}


def test_the_first_frame_loads_no_dialog_or_tool(tmp_path):
    loaded = _modules(FIRST_FRAME, tmp_path)
    assert "afdesk.gui.main_window" in loaded  # it did start
    not_needed = [
        m
        for m in loaded
        if m.startswith(
            (
                "afdesk.gui.dialogs",  # recovery (no crash journal here), contest, cards, ...
                "afdesk.gui.odds_worker",
                "afdesk.gui.export",
                "afdesk.gui.selftest",
                "afdesk.gui.help_text",
                "afdesk.storage.check",
                "afdesk.storage.schema",
                "afdesk.fuzz",
                "afdesk.cli",
                # built by MainWindow.complete, after the first frame
                "afdesk.gui.docks",
                "afdesk.gui.commands",
                "afdesk.gui.actions",
                # a mode's folder registers what it shows (afdesk.gui.modes) and nothing
                # more: its board and extras are made when the mode is first on
                *(f"{package}." for package in packages()),
                "afdesk.gui.editor",
                "afdesk.gui.campaign",
                "afdesk.gui.table.install",
            )
        )
        or m in ("ctypes", "subprocess", "concurrent.futures")
    ]
    assert not_needed == []


WHOLE_WINDOW = FIRST_FRAME.replace(
    "print(json.dumps(sorted(sys.modules)))",
    "window.complete()\nprint(json.dumps(sorted(sys.modules)))",
)


def test_the_whole_window_loads_nothing_it_does_not_show(tmp_path):
    """Complete, on the sample (a battle; no campaign; the editor never opened; the
    Reserves behind their tab): the editor's palette and panel, the campaign's window
    parts, the Reserves panel and the other modes' extras are made, and imported, when
    first shown (tests/gui/test_late_window_parts.py: there once needed)."""
    loaded = _modules(WHOLE_WINDOW, tmp_path)
    assert "afdesk.gui.docks.log" in loaded  # it did complete
    assert not loaded & {
        "afdesk.gui.editor.palette",
        "afdesk.gui.editor.panel",
        "afdesk.gui.campaign.control",
        "afdesk.gui.docks.reserves",
        "afdesk.gui.docks.reflex",  # behind the Character dock's tab at this size
        "afdesk.gui.chase.board",  # a battle: no chase board
        # nor a mode's extras (made when the encounter is first in that mode)
        "afdesk.gui.chase.install",
        "afdesk.gui.chase.map_rows",
        "afdesk.gui.infiltration.install",
        "afdesk.gui.infiltration.panel",
        "afdesk.gui.infiltration.layer",
        "html",  # its entity table: afdesk.gui.text.escape does without it
        # the Table menu is built without the players' camera or the rolls' gate
        "afdesk.gui.table.camera",
        "afdesk.gui.table.rolls",
        "afdesk.gui.table.screen",  # the frame of what the TV shows: when it shows the map
    }


def test_the_first_frames_map_ground_is_the_maps_background(qtbot):
    """The empty ground the first frame draws is the GM's map's own background, and the
    side colours the first frame's style module keeps cover every side."""
    from PySide6.QtGui import QColor, QPalette

    from afdesk.encounter.combatant import Side
    from afdesk.gui.map.blank import GROUND, BlankMap
    from afdesk.gui.map.theme import GM
    from afdesk.gui.style import SIDE_COLOURS, side_colour

    assert QColor(GROUND) == GM.background
    blank = BlankMap()
    qtbot.addWidget(blank)
    assert blank.palette().color(QPalette.ColorRole.Window) == GM.background
    assert set(SIDE_COLOURS) == {side.value for side in Side}
    assert all(side_colour(side) == SIDE_COLOURS[side.value] for side in Side)
