"""The zone editor's keys win while it is open (R turns the selected tile, Shift+R turns it
back, M mirrors it), the window's R (shade rear arcs) and M (keyboard to the map) wait,
and no key is ever ambiguous: every enabled action's shortcut, walked per context (play,
zone editor), belongs to one action only (E9's tile editing)."""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtTest import QTest

from afdesk.encounter.zone import turn_local
from afdesk.gui.main_window import MainWindow
from afdesk.storage.tilesets import tileset
from tests.gui.test_prepare_encounter import click, shown, slot_centre
from tests.gui.test_zone_editor_gui import editor_window


def active(qtbot, w: MainWindow) -> MainWindow:
    """Window shortcuts fire only in the active window."""
    w.windowHandle().requestActivate()
    qtbot.waitUntil(w.isActiveWindow, timeout=3000)
    return w


def clashes(w: MainWindow) -> dict[str, list[str]]:
    """Every key bound to two or more enabled actions or shortcuts of the window."""
    by_key: dict[str, list[str]] = defaultdict(list)
    for act in w.findChildren(QAction):
        if act.isEnabled():
            for seq in act.shortcuts():
                by_key[seq.toString(QKeySequence.SequenceFormat.PortableText)].append(act.text())
    for sc in w.findChildren(QShortcut):
        if sc.isEnabled() and not sc.key().isEmpty():
            by_key[sc.key().toString(QKeySequence.SequenceFormat.PortableText)].append(
                sc.objectName() or "a QShortcut"
            )
    return {key: names for key, names in by_key.items() if len(names) > 1}


def watch_ambiguity(w: MainWindow) -> list[str]:
    fired: list[str] = []
    for sc in w.findChildren(QShortcut):
        sc.activatedAmbiguously.connect(lambda s=sc: fired.append(s.key().toString()))
    return fired


def test_no_key_is_bound_twice_in_play_or_in_the_zone_editor(qtbot):
    w = shown(qtbot, MainWindow(QSettings()))
    ed = w.zone_editor
    assert clashes(w) == {}, "play"
    ed.action.setChecked(True)
    assert clashes(w) == {}, "zone editor"
    assert {a.shortcut().toString() for a in ed.keys} == {"R", "Shift+R", "M"}
    assert all(a.isEnabled() for a in ed.keys)
    assert not w.act_rear.isEnabled() and not w.act_focus_map.isEnabled()
    ed.action.setChecked(False)
    assert clashes(w) == {}, "play again"
    assert w.act_rear.isEnabled() and w.act_focus_map.isEnabled()
    assert not any(a.isEnabled() for a in ed.keys)


def test_r_and_m_turn_and_mirror_in_the_editor_and_keep_their_play_meaning(qtbot, qtlog):
    w = active(qtbot, editor_window(qtbot))
    fired = watch_ambiguity(w)
    doc, view = w.doc, w.map
    ford = tileset("wilderness").kind("ford")
    assert view.tool("edit").place((1, 1), ford)
    click(view, slot_centre((1, 1)))
    seg = ford.segments[0].areas
    w.zone_editor.palette.tiles.setFocus()  # the editor's keys work wherever the focus is
    QTest.keyClick(w.zone_editor.palette.tiles, Qt.Key.Key_R)
    assert doc.encounter.zone.tile_at(1, 1).segments[0].areas == tuple(
        turn_local(a, 1, False) for a in seg
    )
    assert doc.undo_stack.undoText() == "Turn 90° Ford at (1, 1)"
    QTest.keyClick(view, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    assert doc.encounter.zone.tile_at(1, 1).segments[0].areas == seg
    QTest.keyClick(view, Qt.Key.Key_M)
    assert doc.undo_stack.undoText() == "Mirror Ford at (1, 1)"
    assert not w.act_rear.isChecked()  # R did not shade the rear arcs
    steps = doc.undo_stack.count()
    name = w.zone_editor.panel.segment_name
    name.setFocus()
    QTest.keyClicks(name, "Rim")  # typing a name: letters, never a turn
    assert name.text() == "Rim" and doc.undo_stack.count() == steps
    w.zone_editor.action.setChecked(False)  # play: R and M mean what they meant
    QTest.keyClick(view, Qt.Key.Key_R)
    assert w.act_rear.isChecked()
    assert doc.undo_stack.count() == steps
    assert fired == []
    assert not [r for r in qtlog.records if "mbiguous" in r.message]
