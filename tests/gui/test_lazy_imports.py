"""Start-up imports only what the first frame needs: ``import afdesk.gui.app``
loads no model, storage, rules or dialogs, and the start to a drawn window on the sample
loads no dialog, odds worker, command-line tool, dock panel, GM command, chase board, zone
editor or campaign (:meth:`MainWindow.complete` builds those once the window is drawn).
Each in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from afdesk.gui.modes import PACKAGES

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
app_module.start(window, None)  # then the file, as app.main opens it once drawn
assert window.doc.encounter.combatants, "the sample is shown"
print(json.dumps(sorted(sys.modules)))
"""


def _modules(code: str, tmp_path) -> set[str]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QT_LOGGING_RULES": "qt.qpa.*=false",
        "AFDESK_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_app_loads_nothing_of_the_model_storage_or_dialogs(tmp_path):
    loaded = _modules(IMPORT_APP, tmp_path)
    ours = {m for m in loaded if m.startswith("afdesk")}
    # afdesk.paths: the window's icon; feature_hook: PySide6's import hook spared
    assert ours == {
        "afdesk",
        "afdesk.gui",
        "afdesk.gui.app",
        "afdesk.gui.feature_hook",
        "afdesk.gui.platform_check",
        "afdesk.paths",
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
                *(f"{package}." for package in PACKAGES),
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
    parts and the Reserves panel are made, and imported, when first shown."""
    loaded = _modules(WHOLE_WINDOW, tmp_path)
    assert "afdesk.gui.docks.log" in loaded  # it did complete
    assert not loaded & {
        "afdesk.gui.editor.palette",
        "afdesk.gui.editor.panel",
        "afdesk.gui.campaign.control",
        "afdesk.gui.docks.reserves",
    }
