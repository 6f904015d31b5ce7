"""Map tools and the typed selection in a real view, and key-turn bursts merging into one
undo step through the document's merge key (no timer)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from test_map_view import LEFT, NO, SHIFT, at, open_view, ops, token_at

from afdesk.encounter.ops.roster import SetFacing
from afdesk.encounter.zone import Edge
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map import selection
from afdesk.gui.map.tools import FacingTool, MoveTool, PanTool
from afdesk.gui.map.view import MapView
from afdesk.storage import samples as sample

MIDDLE = Qt.MouseButton.MiddleButton


def test_the_view_starts_with_the_move_tool_and_switches(qtbot):
    view, doc = open_view(qtbot, sample.build())
    assert isinstance(view.active_tool(), MoveTool)
    assert isinstance(view.tool("facing"), FacingTool) and isinstance(view.tool("pan"), PanTool)
    view.set_tool("pan")
    assert view.active_tool() is view.tool("pan")
    player = MapView(doc, player=True)
    qtbot.addWidget(player)
    assert isinstance(player.active_tool(), PanTool)
    player.set_tool("move")
    assert isinstance(player.active_tool(), PanTool)  # the table's view stays read-only


def test_the_facing_tool_turns_the_selection_towards_a_press_anywhere(qtbot):
    view, doc = open_view(qtbot, sample.build())
    doc.select("gao")  # at (8, 3)
    view.set_tool("facing")
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, at(view, (12, 3)))
    QTest.mouseMove(vp, at(view, (12, 3)))
    assert view.map_scene.tokens["gao"].facing == 90.0 and doc.undo_stack.count() == 0
    QTest.mouseMove(vp, at(view, (4, 3)))
    QTest.mouseRelease(vp, LEFT, NO, at(view, (4, 3)))
    assert ops(doc) == [SetFacing("gao", 270.0)]
    assert doc.selected == "gao"  # the facing tool does not select


def test_escape_puts_a_turn_back(qtbot):
    view, doc = open_view(qtbot, sample.build())
    doc.select("gao")
    view.set_tool("facing")
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, at(view, (12, 3)))
    QTest.mouseMove(vp, at(view, (12, 3)))
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert view.map_scene.tokens["gao"].facing == 180.0 and doc.selected == "gao"
    QTest.mouseRelease(vp, LEFT, NO, at(view, (12, 3)))
    assert doc.undo_stack.count() == 0


def test_the_pan_tool_pans_over_tokens_and_never_selects(qtbot):
    view, doc = open_view(qtbot, sample.build())
    view.set_tool("pan")
    view.zoom_in()
    view.zoom_in()
    before = view.horizontalScrollBar().value()
    vp = view.viewport()
    start = token_at(view, "huang")
    QTest.mousePress(vp, LEFT, NO, start)
    QTest.mouseMove(vp, start + QPoint(-40, 0))
    QTest.mouseRelease(vp, LEFT, NO, start + QPoint(-40, 0))
    assert view.horizontalScrollBar().value() == before + 40
    assert doc.selected == "" and doc.undo_stack.count() == 0


def test_the_middle_button_pans_with_any_tool(qtbot):
    view, doc = open_view(qtbot, sample.build())
    doc.select("gao")
    view.set_tool("facing")
    view.zoom_in()
    view.zoom_in()
    before = view.verticalScrollBar().value()
    vp = view.viewport()
    start = at(view, (6, 6))
    QTest.mousePress(vp, MIDDLE, NO, start)
    QTest.mouseMove(vp, start + QPoint(0, -30))
    QTest.mouseRelease(vp, MIDDLE, NO, start + QPoint(0, -30))
    assert view.verticalScrollBar().value() == before + 30
    assert doc.undo_stack.count() == 0 and doc.selected == "gao"


# ------------------------------------------------------------------------- selection


def test_clicks_emit_the_typed_selection(qtbot):
    view, doc = open_view(qtbot, sample.build())
    heard = []
    view.selectionChanged.connect(heard.append)
    QTest.mouseClick(view.viewport(), LEFT, NO, token_at(view, "chen"))
    assert view.selection() == selection.Character("chen") and doc.selected == "chen"
    QTest.mouseClick(view.viewport(), LEFT, NO, at(view, (2, 2)))
    assert view.selection() is selection.NOTHING and doc.selected == ""
    assert heard == [selection.Character("chen"), selection.NOTHING]


def test_the_selection_follows_the_documents_character(qtbot):
    view, doc = open_view(qtbot, sample.build())
    heard = []
    view.selectionChanged.connect(heard.append)
    doc.select("huang")  # a dock, or the turn passing
    assert view.selection() == selection.Character("huang")
    view.select(selection.Area((3, 4)))
    assert doc.selected == "" and view.selection() == selection.Area((3, 4))
    view.select(selection.Edge(Edge.NORTH))
    doc.select("")  # nothing for the map: an area or edge selection stays
    assert view.selection() == selection.Edge(Edge.NORTH)
    view.select(selection.Character("gao"))
    assert doc.selected == "gao" and view.map_scene.tokens["gao"].selected
    doc.select("")
    assert view.selection() is selection.NOTHING
    assert heard == [
        selection.Character("huang"),
        selection.Area((3, 4)),
        selection.Edge(Edge.NORTH),
        selection.Character("gao"),
        selection.NOTHING,
    ]


def test_selection_at_finds_each_kind(qtbot):
    view, _doc = open_view(qtbot, sample.build())
    pos = view.map_scene.tokens["huang"].pos()
    assert view.selection_at(pos, selection.Character) == selection.Character("huang")
    assert view.selection_at(pos, selection.Area) == selection.Area((7, 11))
    assert view.selection_at(pos, selection.Tile) == selection.Tile((1, 2))


# ------------------------------------------------------------------------ key bursts


def test_a_key_burst_is_one_undo_step_and_one_log_line(qtbot):
    view, doc = open_view(qtbot, sample.build())
    enc = doc.encounter
    doc.select("gao")
    before, lines = enc.state(), len(enc.log)
    for _ in range(4):
        QTest.keyClick(view, Qt.Key.Key_E)
    assert enc.combatants["gao"].facing == 240.0
    assert doc.undo_stack.count() == 1 and len(enc.log) == lines + 1
    assert ops(doc) == [SetFacing("gao", 240.0)]
    doc.undo_stack.undo()
    assert enc.state() == before
    doc.undo_stack.redo()
    assert enc.combatants["gao"].facing == 240.0 and len(enc.log) == lines + 1


def test_an_override_once_is_an_override_for_the_burst(qtbot):
    view, doc = open_view(qtbot, sample.build())
    doc.select("huang")  # not the actor
    QTest.keyClick(view, Qt.Key.Key_E, SHIFT)
    QTest.keyClick(view, Qt.Key.Key_E)
    assert ops(doc) == [SetFacing("huang", 30.0, override=True)]
    assert doc.undo_stack.count() == 1


def test_bursts_of_two_characters_are_two_steps(qtbot):
    view, doc = open_view(qtbot, sample.build())
    doc.select("gao")
    QTest.keyClick(view, Qt.Key.Key_E)
    doc.select("huang")
    QTest.keyClick(view, Qt.Key.Key_Q, SHIFT)
    doc.select("gao")
    QTest.keyClick(view, Qt.Key.Key_E)
    assert doc.undo_stack.count() == 3


# ------------------------------------------------------------ the document's merge key


def test_merge_key_merges_consecutive_pushes_only(playing_doc):
    doc = playing_doc
    enc = doc.encounter
    cid = enc.actor
    key = f"facing:{cid}"
    assert doc.push(SetFacing(cid, 10.0), merge_key=key) == ""
    assert doc.push(SetFacing(cid, 20.0), merge_key=key) == ""
    assert doc.undo_stack.count() == 1 and enc.combatants[cid].facing == 20.0
    assert doc.push(SetFacing(cid, 30.0)) == ""  # no key: its own step
    assert doc.push(SetFacing(cid, 40.0), merge_key=key) == ""  # not right after the burst
    assert doc.undo_stack.count() == 3
    doc.undo_stack.undo()
    assert enc.combatants[cid].facing == 30.0


def test_a_refused_merge_keeps_the_step_before(playing_doc):
    doc = playing_doc
    enc = doc.encounter
    cid = enc.actor
    key = f"facing:{cid}"
    other = next(c for c in enc.order if c != cid and enc.combatants[c].on_map)
    doc.push(SetFacing(cid, 10.0), merge_key=key)
    state = enc.state()
    assert doc.push(SetFacing(other, 20.0), merge_key=key) != ""  # not the actor: refused
    assert enc.state() == state and doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert enc.combatants[cid].facing != 10.0


def test_a_saved_step_is_not_merged_into(playing_doc, tmp_path):
    doc = playing_doc
    cid = doc.encounter.actor
    doc.push(SetFacing(cid, 10.0), merge_key="k")
    doc.mark_saved(tmp_path / "x.afenc")
    doc.push(SetFacing(cid, 20.0), merge_key="k")
    assert doc.undo_stack.count() == 2 and doc.is_modified()
    doc.undo_stack.undo()
    assert not doc.is_modified() and doc.encounter.combatants[cid].facing == 10.0


def test_the_journal_follows_a_merged_burst():
    """A burst merged into one step, then undone: what the crash journal recovers is what
    the GM saw at each point (it follows the history's merged step, not the key presses)."""
    from afdesk.storage.recovery import discard, pending_journals, recover

    def recovered():
        doc._journal.close(clean=False)  # as if afdesk died here
        doc._journal = None
        (pending,) = pending_journals()
        state = recover(pending)
        discard(pending)
        doc.start_journal()
        return state

    enc = sample.build()
    doc = EncounterDocument(enc)  # the real crash journal, in the test's data folder
    doc.start_journal()
    for facing in (15.0, 30.0, 45.0):
        assert doc.push(SetFacing("gao", facing), merge_key="facing:gao") == ""
    assert doc.undo_stack.count() == 1
    assert recovered() == enc.state()
    doc.undo_stack.undo()
    assert recovered() == enc.state()
    doc.close(clean=True)
