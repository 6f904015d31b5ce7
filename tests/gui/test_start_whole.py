"""The start, end to end: ``afdesk`` draws its first frame (the map's ground, the docks'
frames, the menu titles), then opens the file and builds the rest of the window. Once the
start is over the window must be whole and answer the GM: every dock on screen filled and
following the encounter (one behind another dock's tab is filled when raised), the menus
bound, a command that changes the encounter, and its undo; the cycle collector back on,
with what the start made frozen out of its walks. Each in a fresh process, as the GM
starts it (``cli.run``)."""

from __future__ import annotations

import json

from afdesk.paths import sample_encounter
from tests.gui.conftest import start_to_the_whole_window

AFTER_THE_START = """
import gc, json, os, sys, traceback
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox
import afdesk.gui.main_window as mw

said = []
QMessageBox.exec = lambda box: said.append(box.text()) or 0  # the GM reads, then OK
windows = []
complete = mw.MainWindow.complete
def completing(self):
    complete(self)
    windows.append(self)
    QTimer.singleShot(0, check)  # once the start is over: after what made the window whole

def check():
    try:
        facts()
    except BaseException:  # said, and out at once: no dialog left waiting for a GM
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(3)

def facts():
    from afdesk.gui.docks.history import on_screen

    w = windows[0]
    doc = w.doc
    docks = (w.reflex_dock, w.combatant_dock, w.log_dock, w.history_dock, w.reserves_dock)
    got = {
        "said": said,
        "completed": w.completed,
        "visible": w.isVisible() and w.isEnabled(),
        "characters": len(doc.encounter.combatants),
        "name": doc.encounter.meta.name,
        "map": w.map.doc is doc,
        "docks": [(d.widget() is not None, on_screen(d)) for d in docks],
        "panels": [p.doc is doc for p in (w.combatant_panel, w.log_panel)],
        "menus": {a.text(): len(a.menu().actions())
                  for a in w.menuBar().actions() if a.menu() is not None},
        "bound": [(a.isEnabled(), c.available(doc, "").enabled) for a, c in w._bound],
        "deal": w.act_deal.isEnabled(),
        "keyboard": w.map.hasFocus(),  # the GM's keys reach the map (digits, arrows, Q / E)
        # the collector is back, and what the start made is frozen out of its walks
        "collecting": gc.isenabled(),
        "frozen": gc.get_freeze_count() > 0
        and not any(o is w or o is doc.encounter for g in range(3) for o in gc.get_objects(g)),
    }
    for dock in docks:  # each tab raised in turn, as the GM clicks it (its panel made then)
        dock.raise_()
    got["raised"] = [
        d.widget() is not None and getattr(d.widget(), "doc", doc) is doc for d in docks
    ]
    w.combatant_dock.raise_()
    w.act_deal.trigger()  # Deal reflex (E2), as the GM picks it from the menu
    w.maybe_save = lambda: True  # quitting does not ask about the deal
    got["after_deal"] = [doc.undo_stack.count(), w.act_undo.isEnabled(), w.act_undo.text(),
                   w.log_panel.view.model().rowCount() > 0]
    print(json.dumps(got), flush=True)

mw.MainWindow.complete = completing
from afdesk.cli import run
sys.exit(run(sys.argv[1:]))
"""


def _start(tmp_path, *args: str) -> dict:
    done = start_to_the_whole_window(tmp_path, AFTER_THE_START, *args)
    return json.loads(done.stdout.splitlines()[-1])


def _assert_whole_and_interactive(facts: dict) -> None:
    assert facts["completed"] and facts["visible"]
    assert facts["map"]
    # every dock on screen is filled (the Character and Log docks are, on any screen);
    # one behind another's tab is filled once raised, and follows the encounter
    assert all(made for made, shown in facts["docks"] if shown)
    assert facts["docks"][1] == facts["docks"][2] == [True, True]  # JSON: lists
    assert facts["panels"] == [True, True]
    assert facts["raised"] == [True] * 5
    # every menu holds its entries (the Character menu fills when opened, for the selection)
    assert all(n > 0 for title, n in facts["menus"].items() if title != "&Character")
    assert {"&File", "&Edit", "&View", "E&ncounter", "&Table", "&Help"} <= set(facts["menus"])
    # each bound action is enabled exactly when its command is available
    assert facts["bound"] and all(shown == avail for shown, avail in facts["bound"])
    assert facts["deal"]
    assert facts["keyboard"]  # building the rest of the window did not move the focus
    assert facts["collecting"] and facts["frozen"]
    count, undo_enabled, undo_text, logged = facts["after_deal"]
    assert (count, undo_enabled, logged) == (1, True, True)
    assert undo_text.startswith("&Undo ") and undo_text != "&Undo "


def test_the_start_ends_in_a_whole_window_that_answers_the_gm(tmp_path):
    facts = _start(tmp_path)
    assert facts["said"] == []
    assert facts["characters"] == 8  # the bundled sample: nothing asked, nothing else open
    _assert_whole_and_interactive(facts)


def test_a_file_given_opens_in_the_whole_window(tmp_path):
    facts = _start(tmp_path, str(sample_encounter()))
    assert facts["said"] == []
    assert facts["characters"] == 8
    _assert_whole_and_interactive(facts)


def test_a_broken_file_is_said_with_its_place_and_the_window_is_whole_on_the_sample(tmp_path):
    broken = tmp_path / "broken.afenc"
    broken.write_text('{"schema_version": 1, "meta": ')  # cut short
    facts = _start(tmp_path, str(broken))
    assert len(facts["said"]) == 1
    assert "broken.afenc" in facts["said"][0]
    assert facts["characters"] == 8  # then the sample, as before the first frame moved
    _assert_whole_and_interactive(facts)


def test_quitting_builds_nothing_it_did_not_need(qtbot, tmp_path, doc):
    """Closing the window closes the campaign only if one was ever opened: the
    campaign's part is not built just to be closed (it cost the quit a few ms)."""
    from PySide6.QtCore import QSettings

    from afdesk.gui.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.set_document(doc)
    window.show()
    assert window.close()
    assert window._campaign is None
