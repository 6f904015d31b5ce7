"""Parts of the GM's window made when first needed, not at the start (each not made in a
battle's whole window, and there and working once needed): a mode's extras (the
infiltration's dock and map layer, the chase's fallen rows on the map, E16) when the
encounter is first in that mode; the frame on the GM's map of what the players' screen
shows when that screen first shows the map; the Undo history's list when its dock is first
on screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDockWidget

from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.state import Mode
from afdesk.gui.main_window import MainWindow
from tests.gui.conftest import wait_exposed


def _window(qtbot, tmp_path, doc=None) -> MainWindow:
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    if doc is not None:
        w.set_document(doc)
    return w


def _infiltration_dock(w: MainWindow) -> QDockWidget | None:
    return w.findChild(QDockWidget, "infiltrationDock")


def test_a_battle_builds_no_modes_extras(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path, doc)
    assert w.completed
    extras = w.mode_views.extras
    assert not extras.installed(Mode.INFILTRATION)
    assert not extras.installed(Mode.CHASE)
    assert _infiltration_dock(w) is None
    with pytest.raises(KeyError):
        extras[Mode.BATTLE]  # no extras of its own


def test_the_infiltrations_dock_and_layer_come_when_the_encounter_becomes_one(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path, doc)
    assert doc.push(ChangeMode(Mode.INFILTRATION)) == ""
    extras = w.mode_views.extras
    assert extras.installed(Mode.INFILTRATION)
    layer, panel = extras[Mode.INFILTRATION]
    assert layer.doc is doc and panel.doc is doc  # following the encounter shown
    dock = _infiltration_dock(w)
    assert dock is not None and dock.widget() is panel
    assert dock.isVisible()  # it shows itself while the encounter is an infiltration
    assert doc.push(ChangeMode(Mode.BATTLE)) == ""
    assert not dock.isVisible()
    assert extras[Mode.INFILTRATION] == (layer, panel)  # made once
    assert not extras.installed(Mode.CHASE)


def test_the_chases_fallen_rows_come_when_the_encounter_becomes_a_chase(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path, doc)
    assert doc.push(ChangeMode(Mode.CHASE)) == ""
    rows = w.mode_views.extras[Mode.CHASE]
    assert w.mode_views.extras.installed(Mode.CHASE)
    assert rows.doc is doc


def test_an_encounter_opened_in_a_mode_has_its_extras(qtbot, tmp_path, doc):
    assert doc.push(ChangeMode(Mode.INFILTRATION)) == ""
    w = _window(qtbot, tmp_path, doc)
    assert w.mode_views.extras.installed(Mode.INFILTRATION)
    assert _infiltration_dock(w).isVisible()


def test_a_saved_layout_placing_the_infiltration_dock_has_it_made_at_the_start(
    qtbot, tmp_path, doc
):
    """A layout saved with the dock in it places the dock again: it is made while the
    window is completed (a dock made later would not find its place)."""
    w = _window(qtbot, tmp_path, doc)
    assert doc.push(ChangeMode(Mode.INFILTRATION)) == ""
    assert doc.push(ChangeMode(Mode.BATTLE)) == ""
    w.close()  # saves the layout, the infiltration's dock in it
    again = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    assert again.mode_views.extras.installed(Mode.INFILTRATION)
    assert _infiltration_dock(again) is not None


def test_the_frame_of_the_players_screen_comes_when_that_screen_shows_the_map(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path, doc)
    screen = w.table.screen
    assert screen.frame is None  # no players' screen yet: nothing to frame
    screen.push()  # opens the players' screen on what the GM's map shows
    qtbot.addWidget(w.player_window)
    frame = screen.frame
    assert frame is not None and frame.scene() is w.map.map_scene
    assert frame.isVisible() and frame.polygon() == w.player_window.camera.shown()
    screen.hold("black")
    assert not frame.isVisible()


def test_the_undo_history_list_comes_when_its_dock_is_first_on_screen(qtbot, tmp_path, doc):
    """The Undo history starts behind another dock's tab: its list is made when the GM
    raises it, and shows the encounter's undo stack from then on."""
    from afdesk.encounter.ops.meta import Rename
    from afdesk.gui.docks.history import on_screen

    w = _window(qtbot, tmp_path, doc)
    assert not on_screen(w.history_dock)
    in_front = next(d for d in w.tabifiedDockWidgets(w.history_dock) if on_screen(d))
    assert w._history_view is None and w.history_dock.widget() is None
    assert doc.push(Rename("The ford at dusk")) == ""
    w.history_dock.raise_()
    qtbot.waitUntil(lambda: w._history_view is not None)
    view = w.history
    assert w.history_dock.widget() is view
    qtbot.waitUntil(lambda: view.stack() is doc.undo_stack)
    assert view.model().rowCount() == 2  # "Opened" and the rename
    in_front.raise_()
    qtbot.waitUntil(lambda: view.stack() is None)  # behind its tab: it follows no stack
