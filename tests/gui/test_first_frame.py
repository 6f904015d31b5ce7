"""The window's first frame: ``MainWindow(defer=True)`` shows the map, the docks'
frames and the menu bar's titles; :meth:`MainWindow.complete` builds the rest once the
window is drawn, and the whole window it makes is the one built at once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.state import Mode
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.paths import chase_sample_encounter
from afdesk.storage import load
from tests.gui.conftest import start_to_the_whole_window, wait_exposed


def _menu_texts(window: MainWindow) -> list[tuple[str, list[str]]]:
    return [
        (a.text(), [b.text() for b in a.menu().actions()])
        for a in window.menuBar().actions()
        if a.menu() is not None
    ]


def _window(qtbot, tmp_path, name: str, *, defer: bool) -> MainWindow:
    window = MainWindow(
        QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat), defer=defer
    )
    window.maybe_save = lambda: True
    qtbot.addWidget(window)
    return window


def test_the_first_frame_shows_the_docks_frames_and_menus_titles_then_completes(
    qtbot, tmp_path, playing_doc
):
    late = _window(qtbot, tmp_path, "late", defer=True)
    late.set_document(playing_doc)
    assert not late.completed
    # the first frame: the map shows the encounter; the docks are placed, titled, empty
    assert late.map.doc is playing_doc
    assert [d.windowTitle() for d in (late.reflex_dock, late.combatant_dock, late.log_dock)] == [
        "Reflex",
        "Character",
        "Log",
    ]
    assert late.combatant_dock.widget() is None
    assert [a.text() for a in late.menuBar().actions()][:6] == [
        "&File",
        "&Edit",
        "&View",
        "E&ncounter",
        "&Character",
        "&Help",
    ]
    assert late.windowTitle().startswith(playing_doc.encounter.meta.name)
    assert late.turn_label.text()

    late.complete()
    late.complete()  # a second call builds nothing twice
    assert late.completed
    assert late.combatant_dock.widget() is late.combatant_panel
    assert late.combatant_panel.doc is playing_doc
    assert late.reflex_panel.doc is playing_doc
    assert late.reserves_panel.doc is playing_doc
    assert late.history._followed_stack is playing_doc.undo_stack  # shown when on screen
    # what complete() builds follows the document set before it
    assert late.zone_editor.palette.doc is playing_doc
    assert late.zone_editor.panel.doc is playing_doc
    assert late.mode_views.doc is playing_doc

    whole = _window(qtbot, tmp_path, "whole", defer=False)
    whole.set_document(EncounterDocument(playing_doc.encounter, journal_factory=lambda d: None))
    assert _menu_texts(late) == _menu_texts(whole)
    assert [(a.text(), a.isEnabled()) for a, _ in late._bound] == [
        (a.text(), a.isEnabled()) for a, _ in whole._bound
    ]
    assert late.act_undo.isEnabled() == whole.act_undo.isEnabled()
    # the docks show what the whole window's show: whose turn, the selected character
    assert playing_doc.selected
    assert late.combatant_panel.title.text() == whole.combatant_panel.title.text()
    assert late.reflex_panel.header.text() == whole.reflex_panel.header.text()


def test_a_window_closed_before_it_is_complete_closes_cleanly(qtbot, tmp_path, doc):
    window = _window(qtbot, tmp_path, "early", defer=True)
    window.set_document(doc)
    window.show()
    assert window.close()
    assert not window.completed


def test_a_chase_opened_at_start_completes_the_window_for_its_board(qtbot, tmp_path):
    window = _window(qtbot, tmp_path, "chase", defer=True)
    chase = load(chase_sample_encounter()).state
    from afdesk.encounter.model import Encounter

    doc = EncounterDocument(Encounter.from_state(chase), journal_factory=lambda d: None)
    assert doc.encounter.mode is Mode.CHASE
    window.set_document(doc)
    assert window.completed  # the first frame shows the chase board, not the map
    assert window.mode_views.stack.currentIndex() == 1


def test_the_app_completes_its_window_once_drawn(tmp_path):
    """``afdesk`` on the sample, to the complete window and out: exit 0, no error output."""
    code = (
        "import gc, sys\n"
        "import afdesk.gui.main_window as mw\n"
        "done = mw.MainWindow.complete\n"
        "def complete(self):\n"
        "    done(self)\n"
        "    print('complete', self.combatant_panel.doc is self.doc, flush=True)\n"
        "    print('collecting', gc.isenabled(), flush=True)\n"
        "mw.MainWindow.complete = complete\n"
        "from afdesk.cli import run\n"
        "status = run([])\n"
        "print('collecting', gc.isenabled(), flush=True)\n"
        "sys.exit(status)\n"
    )
    ran = start_to_the_whole_window(tmp_path, code)
    # the cycle collector waits out the start (cli.run), and is back on afterwards
    assert ran.stdout.splitlines() == ["complete True", "collecting False", "collecting True"]


def test_the_map_keeps_its_place_when_the_panels_arrive(qtbot, tmp_path, doc):
    """The docks keep the sizes the first frame drew (the chase board's stack, which
    takes the map's place, and the panels would otherwise widen them); the whole window
    has the layout of a window built at once."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    late = _window(qtbot, tmp_path, "place", defer=True)
    late.resize(1500, 900)
    late.set_document(doc)
    late.show()
    wait_exposed(qtbot, late)
    app.processEvents()
    first = late.map.mapTo(late, late.map.rect().topLeft()), late.map.size()
    late.complete()
    app.processEvents()
    assert (late.map.mapTo(late, late.map.rect().topLeft()), late.map.size()) == first
    assert late.centralWidget() is late.mode_views.stack

    whole = _window(qtbot, tmp_path, "place-whole", defer=False)
    whole.resize(1500, 900)
    whole.set_document(EncounterDocument(doc.encounter, journal_factory=lambda d: None))
    whole.show()
    wait_exposed(qtbot, whole)
    app.processEvents()
    assert whole.map.size() == late.map.size()


def test_the_collector_comes_back_once_the_window_is_drawn(qtbot):
    import gc

    from PySide6.QtWidgets import QWidget

    from afdesk.gui.app import after_first_frame

    widget = QWidget()
    qtbot.addWidget(widget)
    gc.disable()
    try:
        after_first_frame(widget, gc.enable)
        assert not gc.isenabled()
        widget.show()
        qtbot.waitUntil(gc.isenabled)
    finally:
        gc.enable()


def test_the_zone_editors_docks_come_back_where_the_gm_put_them(qtbot, tmp_path, doc):
    """The editor's docks are made by complete(), after the saved layout was read: they
    still take their saved place (the Prepare workspace's, :mod:`afdesk.gui.workspaces`),
    in a window built at once or after its first frame."""
    from PySide6.QtCore import Qt

    ini = QSettings(str(tmp_path / "editor.ini"), QSettings.Format.IniFormat)
    first = MainWindow(ini)
    first.maybe_save = lambda: True
    qtbot.addWidget(first)
    first.set_document(doc)
    first.show()
    first.zone_editor.action.setChecked(True)
    first.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, first.zone_editor.palette_dock)
    first.zone_editor.action.setChecked(False)
    assert first.close()  # the layout is saved
    for defer in (True, False):
        again = MainWindow(
            QSettings(str(tmp_path / "editor.ini"), QSettings.Format.IniFormat), defer=defer
        )
        again.maybe_save = lambda: True
        qtbot.addWidget(again)
        again.show()
        wait_exposed(qtbot, again)
        again.complete()
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        assert not again.zone_editor.palette_dock.isVisible()  # only while editing
        again.zone_editor.action.setChecked(True)  # the Prepare workspace, as the GM left it
        assert again.dockWidgetArea(again.zone_editor.palette_dock) == bottom, defer
        again.zone_editor.action.setChecked(False)


def test_a_failed_build_is_not_taken_for_a_whole_window(qtbot, tmp_path, doc, monkeypatch):
    window = _window(qtbot, tmp_path, "broken", defer=True)
    window.set_document(doc)

    def broken(self):
        raise RuntimeError("the menus could not be built")

    monkeypatch.setattr(MainWindow, "_build_menus", broken)
    with pytest.raises(RuntimeError, match="menus"):
        window.complete()
    assert not window.completed
    # the document still works and the window still closes
    import random

    from afdesk.encounter.ops.reflex import deal_hands

    assert doc.push(deal_hands(doc.encounter, random.Random(1))) == ""
    window.show()
    assert window.close()


def test_the_docks_behind_a_tab_and_the_campaign_are_made_when_first_shown(
    qtbot, tmp_path, playing_doc
):
    """The Reserves panel (behind the Character dock's tab) is made when its tab is raised,
    and then shows what a panel made with the window shows; the campaign's part of the
    window is made when first asked for."""
    window = _window(qtbot, tmp_path, "tabs", defer=True)
    window.set_document(playing_doc)
    window.resize(1280, 720)
    window.show()
    wait_exposed(qtbot, window)
    window.complete()
    assert window._reserves_panel is None and window.reserves_dock.widget() is None
    assert window._campaign is None
    window.reserves_dock.raise_()
    qtbot.waitUntil(lambda: window._reserves_panel is not None)
    panel = window.reserves_dock.widget()
    assert panel is window.reserves_panel and panel.doc is playing_doc
    from afdesk.gui.docks.reserves import ReservesPanel

    eager = ReservesPanel(window.ctx)
    qtbot.addWidget(eager)
    eager.set_document(playing_doc)
    assert panel.groups() == eager.groups()
    tree = [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]
    assert tree == [
        eager.tree.topLevelItem(i).text(0) for i in range(eager.tree.topLevelItemCount())
    ]
    other = EncounterDocument(playing_doc.encounter, journal_factory=lambda d: None)
    window.set_document(other)
    assert panel.doc is other  # once made, it follows the document shown
    assert window.campaign is window.campaign and window.campaign.doc is None


def test_the_chase_board_is_made_when_the_encounter_becomes_a_chase(qtbot, tmp_path):
    """A battle's window has no chase board; the encounter becoming a chase makes it,
    shows it and it shows what a board made with the window shows."""
    from afdesk.encounter.model import Encounter
    from afdesk.encounter.ops.meta import ChangeMode
    from afdesk.gui.chase.board import ChaseBoard

    chase = load(chase_sample_encounter()).state
    doc = EncounterDocument(Encounter.from_state(chase), journal_factory=lambda d: None)
    assert doc.push(ChangeMode(Mode.BATTLE, override=True)) == ""
    window = _window(qtbot, tmp_path, "battle", defer=True)
    window.set_document(doc)
    window.complete()
    assert window.mode_views.made(Mode.CHASE) is None
    assert window.mode_views.stack.currentIndex() == 0
    assert doc.push(ChangeMode(Mode.CHASE, override=True)) == ""
    board = window.mode_views.made(Mode.CHASE)
    assert board is not None and window.mode_views.stack.currentWidget() is board
    eager = ChaseBoard()
    qtbot.addWidget(eager)
    eager.set_document(doc)
    assert board.heading.text() == eager.heading.text()
    assert board.column.order == eager.column.order
    assert {p: lane.data for p, lane in board.column.lanes.items()} == {
        p: lane.data for p, lane in eager.column.lanes.items()
    }
    window.mode_views.flip()  # the map, one click away
    assert window.mode_views.stack.currentIndex() == 0


def test_the_zone_editors_parts_are_made_when_it_first_opens(qtbot, tmp_path, playing_doc):
    """A GM who never edited: no palette, panel or docks at the start; opening the editor
    makes them, following the document shown, and closing it hides them."""
    window = _window(qtbot, tmp_path, "editor-late", defer=True)
    window.set_document(playing_doc)
    window.show()
    wait_exposed(qtbot, window)
    window.complete()
    editor = window.zone_editor
    assert editor._parts is None and not editor.is_open()
    editor.action.setChecked(False)  # closing what never opened makes nothing
    assert editor._parts is None
    editor.action.setChecked(True)
    assert editor._parts is not None and editor.is_open()
    assert editor.palette.doc is playing_doc and editor.panel.doc is playing_doc
    assert editor.palette_dock.isVisible() and editor.panel_dock.isVisible()
    assert window.map.active_tool().name == "edit"
    editor.action.setChecked(False)
    assert not editor.palette_dock.isVisible() and window.map.active_tool().name == "move"


def test_a_window_completed_with_no_encounter_holds_the_map_in_its_stack(qtbot, tmp_path):
    """The first frame draws the map's empty ground; completed before any encounter is
    shown (the start page), the window's central stack holds the map view, not the
    ground, and an encounter opened then shows on it."""
    from afdesk.gui.map.view import MapView

    window = _window(qtbot, tmp_path, "no-encounter", defer=True)
    assert type(window.centralWidget()).__name__ == "BlankMap"
    window.complete()
    stack = window.mode_views.stack
    assert window.centralWidget() is stack
    assert isinstance(stack.widget(0), MapView) and stack.widget(0) is window.map
    window.open_sample()
    assert window.map.doc is window.doc and window.centralWidget() is stack
