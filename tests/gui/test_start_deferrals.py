"""What the start leaves out until it is needed, end to end: ``afdesk`` on the bundled
battle, to the whole window (``AFDESK_EXIT_AFTER_FIRST_FRAME=complete``), in a fresh
process as the GM starts it.

- No mode's Ops: the chase's, the dispute's and the infiltration's Op modules are loaded
  when a file names one of their Ops or the mode is in play (E16; the pure side is
  ``tests/encounter/test_mode_ops_lazy.py``).
- No widget Qt made for itself meets Python: PySide6, handed one whose class it does not
  know (a scroll area's own viewport, a tool bar's extension button), first makes Python
  classes for every widget class it knows (about 6 ms each time it starts over). A widget
  class the start never uses (a calendar) has no Python class once the window is whole.
- The classes of what the GM only sees when asking (a message box, a file dialog, the
  desktop's folders) are made then: PySide6 makes a class, with its enums, when a module
  first imports it.
- No dataclass: importing ``dataclasses`` and defining one cost more than a millisecond
  (records are Structs, or plain classes before the first frame).
- The map builds the first document's scene once (it is made for that document, and
  follows the ones shown after).
- The zone editor's map tool is made when the editor first opens; what a drag means
  (``afdesk.encounter.drag``) is imported when a token is first dragged or stepped.
- The decisions bar's tool bar is made when something first waits (nothing does on the
  sample).
- The window's icon is PNG renderings of the SVG (afdesk.gui.icons): Qt's SVG library and
  its icon plugin are not loaded.
- The Character dock's groups (turn economy, counters, states, buttons) are made when a
  character is first shown: with nobody selected the dock says how to show one."""

from __future__ import annotations

import json

from tests.gui.conftest import start_to_the_whole_window

WHOLE_START = """
import json, sys
from PySide6.QtCore import QTimer
from PySide6 import QtCore, QtWidgets
import afdesk.gui.main_window as mw

windows = []
complete = mw.MainWindow.complete
def completing(self):
    complete(self)
    windows.append(self)
    QTimer.singleShot(0, facts)  # once the start is over

scenes = []
def facts():
    w = windows[0]
    modes = ("chase", "dispute", "infiltration")
    print(json.dumps({
        "characters": len(w.doc.encounter.combatants),
        "completed": w.completed,
        "mode_ops": sorted(
            m for m in sys.modules
            if m.startswith(tuple(f"afdesk.encounter.{x}." for x in modes))
            and m.rsplit(".", 1)[1] not in ("mode", "state", "order", "watch")
        ),
        "modes": sorted(m for m in sys.modules if m.rsplit(".", 1)[-1] == "mode"
                        and m.startswith("afdesk.encounter.")),
        "calendar": "QCalendarWidget" in QtWidgets.__dict__,
        "dataclasses": "dataclasses" in sys.modules,
        "fractions": "fractions" in sys.modules,
        "heapq": "heapq" in sys.modules,
        "edit_tool": "afdesk.gui.map.tools.editor" in sys.modules,
        "drag": "afdesk.encounter.drag" in sys.modules,
        "asked_only": sorted(
            name for module, names in ((QtWidgets, ("QMessageBox", "QFileDialog")),
                                       (QtCore, ("QStandardPaths",)))
            for name in names if name in module.__dict__
        ),
        "widget_classes": len([k for k in QtWidgets.__dict__ if k.startswith("Q")]),
        "scenes": len(scenes),
        "scene_shown": w.map.map_scene is scenes[-1] if scenes else False,
        "decisions_tool_bar": w.decisions.parentWidget() is not None,
        "svg_library": sys.platform.startswith("linux")
        and any("libQt6Svg" in line for line in open("/proc/self/maps")),
        "window_icon": sorted(s.width() for s in w.windowIcon().availableSizes()),
        "selected": w.doc.selected,
        "character_groups": w.combatant_panel.__dict__.get("details") is not None,
        "character_modules": sorted(
            m for m in ("afdesk.gui.docks.harm_flag", "afdesk.gui.docks.states",
                        "afdesk.gui.actions") if m in sys.modules
        ),
    }), flush=True)

mw.MainWindow.complete = completing
import afdesk.gui.map.scene as scene_module
made = scene_module.MapScene.__init__
def counting(self, *args, **kwargs):
    scenes.append(self)
    made(self, *args, **kwargs)
scene_module.MapScene.__init__ = counting
from afdesk.cli import run
sys.exit(run(sys.argv[1:]))
"""


def test_the_start_to_the_whole_window_leaves_out_what_waits(tmp_path):
    done = start_to_the_whole_window(tmp_path, WHOLE_START)
    facts = json.loads(done.stdout.splitlines()[-1])
    assert facts["characters"] == 8 and facts["completed"]  # the bundled battle, whole
    # the modes are declared (their values, parts, bounds), their Ops are not loaded
    assert facts["modes"] == [
        "afdesk.encounter.chase.mode",
        "afdesk.encounter.dispute.mode",
        "afdesk.encounter.infiltration.mode",
    ]
    assert facts["mode_ops"] == []
    assert not facts["calendar"], f"{facts['widget_classes']} widget classes made"
    # a message box, a file dialog and the desktop's folders: their classes (and their
    # enums) are made when first asked for, not imported with the window's modules
    assert facts["asked_only"] == []
    assert not facts["dataclasses"]  # records at the start: plain classes and Structs
    assert not facts["fractions"]  # movement's areas as fractions: when a move is shown
    assert not facts["heapq"]  # the cheapest paths: when a reach is first asked for
    assert not facts["edit_tool"]  # the zone editor's tool comes with the editor
    assert not facts["drag"]  # what a drag means (the model's): when a token is first moved
    assert facts["scenes"] == 1 and facts["scene_shown"]
    assert not facts["decisions_tool_bar"]
    # the window's icon is PNGs (afdesk.gui.icons): Qt's SVG library is not loaded
    assert facts["window_icon"] == [16, 32, 48, 64, 128, 256]
    assert not facts["svg_library"]
    # nobody is selected in the sample's setup: the Character dock's groups (and what
    # they import) are made when a character is first shown
    assert facts["selected"] == ""
    assert not facts["character_groups"] and facts["character_modules"] == []


DRAWN_WHOLE = """
import json
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication
import afdesk.gui.main_window as mw

painted = []
while_completing = []

class Paints(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and watched.isWidgetType():
            completed = bool(getattr(watched.window(), "completed", False))
            if type(watched.parent()).__name__ == "MapView":
                painted.append(completed)
            if not completed:
                while_completing.append(type(watched).__name__)
        return False

paints = Paints()
complete = mw.MainWindow.complete
def completing(self):
    QApplication.instance().installEventFilter(paints)
    complete(self)
mw.MainWindow.complete = completing

from afdesk.cli import run
status = run([])
import sys
print(json.dumps({
    "status": status,
    "painted": painted,
    "while_completing": while_completing,
    "typing_extensions": "typing_extensions" in sys.modules,
}))
"""


def test_the_whole_window_is_drawn_map_and_all_before_the_start_is_over(tmp_path):
    """``AFDESK_EXIT_AFTER_FIRST_FRAME=complete`` (the start-up benchmark, the packaging
    check) quits once the whole window is drawn as the GM then sees it: the map's viewport
    painted after the window was completed (quitting before that paint left the map, a
    fifth of the start, out of the measure)."""
    done = start_to_the_whole_window(tmp_path, DRAWN_WHOLE)
    facts = json.loads(done.stdout.splitlines()[-1])
    assert facts["status"] == 0
    assert True in facts["painted"], facts
    # nothing is drawn while the docks take back the sizes the first frame drew (their
    # panels drawn at the sizes they had before, then again: 15M instructions)
    assert facts["while_completing"] == [], facts
    # msgspec came with the model, through afdesk.msgspec_first (no map module before it)
    assert facts["typing_extensions"] is False
