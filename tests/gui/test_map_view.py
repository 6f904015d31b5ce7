"""The GM's map view driven by real mouse and key events: every drag or key press is one
undo step holding the right Op, refusals change nothing and say why in the status bar."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from afdesk.encounter.economy import ActionKind
from afdesk.encounter.geometry import straight_path
from afdesk.encounter.ops.economy import TakeAction
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import ExitCombatant, PlaceCombatant, SetFacing
from afdesk.encounter.ops.zone import ExtendZone
from afdesk.gui import actions, mapgeom
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.view import MapView
from afdesk.gui.token_menu import install as install_token_menu
from afdesk.storage import samples as sample

NO = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
LEFT = Qt.MouseButton.LeftButton


def start_turns(enc) -> None:
    """Deal and play the first cards (seeded): in the sample, Bandit Chief Gao acts first."""
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))


class Status(list):
    @property
    def last(self) -> str:
        return self[-1] if self else ""


def open_view(qtbot, enc, *, turns: bool = True, place=()):
    """A GM view of ``enc`` (placements done in setup, then turns started)."""
    for cid, area in place:
        enc.apply(PlaceCombatant(cid, area))
    if turns:
        start_turns(enc)
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    view = MapView(doc)
    install_token_menu(view)
    qtbot.addWidget(view)
    view.resize(1100, 760)
    with qtbot.waitExposed(view):
        view.show()
    view.status = Status()
    view.statusMessage.connect(view.status.append)
    return view, doc


def at(view: MapView, area) -> QPoint:
    """The viewport point at the centre of ``area``."""
    x, y = mapgeom.area_centre(area)
    return view.mapFromScene(QPointF(x, y))


def token_at(view: MapView, cid: str) -> QPoint:
    return view.mapFromScene(view.map_scene.tokens[cid].pos())


def drag(view: MapView, start: QPoint, areas, modifiers=NO, release_modifiers=None) -> None:
    """Press at ``start``, move through the centres of ``areas``, release on the last."""
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, modifiers, start)
    for area in areas:
        QTest.mouseMove(vp, at(view, area))
    mods = modifiers if release_modifiers is None else release_modifiers
    QTest.mouseRelease(vp, LEFT, mods, at(view, areas[-1]))


def ops(doc, index: int = -1):
    stack = doc.undo_stack
    return stack.command(stack.count() + index if index < 0 else index).ops


@pytest.fixture
def turn_view(qtbot):
    return open_view(qtbot, sample.build())


# -------------------------------------------------------------------------- dragging


def test_drag_is_one_undo_step_holding_one_move(turn_view):
    view, doc = turn_view
    enc = doc.encounter
    assert enc.actor == "gao" and enc.combatants["gao"].area == (8, 3)
    before = enc.state()
    drag(view, token_at(view, "gao"), [(8, 4), (9, 4), (9, 5), (8, 5)])
    assert doc.undo_stack.count() == 1
    [op] = ops(doc)
    assert isinstance(op, MoveCombatant) and op.id == "gao" and op.maneuver
    assert tuple(op.path[0]) == (8, 3) and tuple(op.path[-1]) == (8, 5) and len(op.path) == 3
    assert enc.combatants["gao"].area == (8, 5)
    assert view.map_scene.tokens["gao"].pos() == QPointF(*mapgeom.area_centre((8, 5)))
    assert not view.map_scene.reach.isVisible() and not view.map_scene.path.isVisible()
    doc.undo_stack.undo()
    assert enc.state() == before


def test_drag_preview_shades_reach_with_costs(turn_view):
    view, doc = turn_view
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, token_at(view, "gao"))
    QTest.mouseMove(vp, at(view, (8, 4)))
    QTest.mouseMove(vp, at(view, (8, 5)))
    cells = view.map_scene.reach.cells
    assert cells[(8, 4)].label == "1" and cells[(8, 5)].label == "2"
    assert (8, 3) not in cells and (8, 6) not in cells  # the start; deep water is 3 away
    assert view.map_scene.path.isVisible()
    assert doc.undo_stack.count() == 0  # nothing changes while dragging
    QTest.mouseRelease(vp, LEFT, NO, at(view, (8, 5)))
    assert doc.undo_stack.count() == 1


def test_drop_out_of_reach_changes_nothing_and_says_why(turn_view):
    view, doc = turn_view
    enc = doc.encounter
    before = enc.state()
    drag(view, token_at(view, "gao"), [(8, 4), (8, 5), (8, 6), (8, 7)])
    assert enc.state() == before
    assert doc.undo_stack.count() == 0
    path = tuple(straight_path((8, 3), (8, 7)))
    reason = doc.try_op(MoveCombatant("gao", path, 180.0, maneuver=True))
    assert reason and view.status.last.startswith(reason)
    assert "more" in view.status.last  # "can move 2 areas more; that path costs ..."


def test_drop_into_an_opponents_overlap_stops_there(qtbot):
    view, doc = open_view(qtbot, sample.build(), place=[("huang", (8, 5))])
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, token_at(view, "gao"))
    QTest.mouseMove(vp, at(view, (8, 4)))
    QTest.mouseMove(vp, at(view, (8, 5)))
    assert view.map_scene.reach.cells[(8, 5)].stops
    assert not view.map_scene.reach.cells[(8, 4)].stops
    QTest.mouseRelease(vp, LEFT, NO, at(view, (8, 5)))
    gao = doc.encounter.combatants["gao"]
    assert gao.area == (8, 5) and gao.economy.movement == 0
    assert (8, 5) in view.map_scene.overlaps


def test_dragging_someone_else_is_refused_and_shift_drag_places(turn_view):
    view, doc = turn_view
    enc = doc.encounter
    before = enc.state()
    drag(view, token_at(view, "huang"), [(7, 10), (6, 10)])
    assert enc.state() == before and doc.undo_stack.count() == 0
    assert "Gao's turn" in view.status.last and "Shift-drag" in view.status.last
    drag(view, token_at(view, "huang"), [(7, 10), (6, 10)], SHIFT)
    assert doc.undo_stack.count() == 1
    assert ops(doc) == [PlaceCombatant("huang", (6, 10))]
    assert enc.combatants["huang"].area == (6, 10)
    assert enc.log[-1].text.endswith("(GM override)")


def test_setup_drag_places_without_override_mark(qtbot):
    view, doc = open_view(qtbot, sample.build(), turns=False)
    drag(view, token_at(view, "lan"), [(5, 13), (4, 13)])
    assert ops(doc) == [PlaceCombatant("lan", (4, 13))]
    assert "override" not in doc.encounter.log[-1].text


def test_click_selects_and_empty_ground_clears(turn_view):
    view, doc = turn_view
    QTest.mouseClick(view.viewport(), LEFT, NO, token_at(view, "chen"))
    assert doc.selected == "chen" and view.map_scene.tokens["chen"].selected
    QTest.mouseClick(view.viewport(), LEFT, NO, at(view, (2, 2)))
    assert doc.selected == "" and doc.undo_stack.count() == 0


def test_escape_cancels_a_drag(turn_view):
    view, doc = turn_view
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, token_at(view, "gao"))
    QTest.mouseMove(vp, at(view, (8, 4)))
    QTest.mouseMove(vp, at(view, (8, 5)))
    QTest.keyClick(view, Qt.Key.Key_Escape)
    QTest.mouseRelease(vp, LEFT, NO, at(view, (8, 5)))
    assert doc.undo_stack.count() == 0 and not view.map_scene.reach.isVisible()


# ------------------------------------------------------------------------ zone edges


def test_extend_zone_drop_is_one_undo_step(qtbot):
    view, doc = open_view(qtbot, sample.build(), place=[("gao", (8, 1))])
    view.rng = random.Random(5)
    enc = doc.encounter
    before = enc.state()
    drag(view, token_at(view, "gao"), [(8, 0), (8, -1)])
    assert doc.undo_stack.count() == 0
    menu = view.edge_menu()
    keys = [a.data() for a in menu.actions()]
    assert keys == ["exit", "extend"]  # the north edge exits: that choice first
    next(a for a in menu.actions() if a.data() == "extend").trigger()
    assert doc.undo_stack.count() == 1
    extend, move = ops(doc)
    assert isinstance(extend, ExtendZone) and extend.edge.value == "north"
    assert isinstance(move, MoveCombatant) and tuple(move.path[-1]) == (8, -1)
    assert enc.zone.size() == (3, 4) and enc.combatants["gao"].area == (8, -1)
    assert len(view.map_scene.tiles) == 12
    doc.undo_stack.undo()
    assert enc.state() == before and len(view.map_scene.tiles) == 9


def test_exit_drop_moves_to_the_edge_and_leaves_in_one_step(qtbot):
    view, doc = open_view(qtbot, sample.build(), place=[("gao", (8, 1))])
    drag(view, token_at(view, "gao"), [(8, 0), (8, -2)])
    next(a for a in view.edge_menu().actions() if a.data() == "exit").trigger()
    assert doc.undo_stack.count() == 1
    move, leave = ops(doc)
    assert isinstance(move, MoveCombatant) and tuple(move.path[-1]) == (8, 0)
    assert isinstance(leave, ExitCombatant) and leave.id == "gao"
    assert doc.encounter.combatants["gao"].exited
    assert "gao" not in view.map_scene.tokens


def test_extend_out_of_reach_is_refused(turn_view):
    view, doc = turn_view
    before = doc.encounter.state()
    drag(view, token_at(view, "gao"), [(8, 2), (8, 1), (8, -1)])
    # Neither extending nor exiting is within reach: refused at once, no question asked.
    assert view.edge_menu() is None
    assert doc.encounter.state() == before and doc.undo_stack.count() == 0
    assert "more" in view.status.last


# --------------------------------------------------------------------------- facing


def test_keyboard_facing_turns_the_actor(turn_view):
    view, doc = turn_view
    enc = doc.encounter
    doc.select("gao")
    view.setFocus()
    lines = len(enc.log)
    QTest.keyClick(view, Qt.Key.Key_E)
    assert view.map_scene.tokens["gao"].facing == 195.0
    assert ops(doc) == [SetFacing("gao", 195.0)] and doc.undo_stack.count() == 1
    # A burst of presses is one facing change: one log line, one undo step.
    QTest.keyClick(view, Qt.Key.Key_Q)
    QTest.keyClick(view, Qt.Key.Key_Q)
    QTest.keyClick(view, Qt.Key.Key_Q)
    assert enc.combatants["gao"].facing == 150.0
    assert ops(doc) == [SetFacing("gao", 150.0)] and doc.undo_stack.count() == 1
    assert len(enc.log) == lines + 1 and "150°" in enc.log[-1].text
    QTest.keyClick(view, Qt.Key.Key_6)
    assert enc.combatants["gao"].facing == 90.0
    assert doc.undo_stack.count() == 2
    assert view.map_scene.tokens["gao"].facing == 90.0
    QTest.keyClick(view, Qt.Key.Key_E)  # after another step: a new burst
    assert doc.undo_stack.count() == 3 and enc.combatants["gao"].facing == 105.0
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert enc.combatants["gao"].facing == 180.0 and len(enc.log) == lines


def test_keyboard_facing_of_someone_else_needs_the_gm_override(turn_view):
    view, doc = turn_view
    doc.select("huang")
    before = doc.encounter.state()
    QTest.keyClick(view, Qt.Key.Key_E)
    assert doc.encounter.state() == before and doc.undo_stack.count() == 0
    assert "Gao's turn" in view.status.last and "Hold Shift" in view.status.last
    QTest.keyClick(view, Qt.Key.Key_E, SHIFT)
    assert ops(doc) == [SetFacing("huang", 15.0, override=True)]
    assert doc.encounter.log[-1].text.endswith("(GM override)")
    QTest.keyClick(view, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert doc.encounter.combatants["huang"].facing == 180.0


def test_dragging_the_facing_handle_is_one_step(turn_view):
    view, doc = turn_view
    doc.select("gao")
    handle = view.map_scene.handle
    assert handle.isVisible()
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, view.mapFromScene(handle.pos()))
    for area in ((9, 4), (9, 3), (10, 3)):
        QTest.mouseMove(vp, at(view, area))
    assert view.map_scene.tokens["gao"].facing == 90.0  # previewed
    assert doc.undo_stack.count() == 0
    QTest.mouseRelease(vp, LEFT, NO, at(view, (10, 3)))
    assert ops(doc) == [SetFacing("gao", 90.0)]
    assert doc.undo_stack.count() == 1


def test_arrow_key_moves_the_actor_one_area(turn_view):
    view, doc = turn_view
    doc.select("gao")
    QTest.keyClick(view, Qt.Key.Key_Down)
    [op] = ops(doc)
    assert isinstance(op, MoveCombatant) and [tuple(a) for a in op.path] == [(8, 3), (8, 4)]


def test_tab_selects_the_next_character(turn_view):
    view, doc = turn_view
    doc.select("huang")
    QTest.keyClick(view, Qt.Key.Key_Tab)
    assert doc.selected == "chen"
    QTest.keyClick(view, Qt.Key.Key_Backtab)
    assert doc.selected == "huang"


# ---------------------------------------------------------------------- context menu


def entry_actions(menu):
    """The menu's entries in order, those in its submenus (Checks >, Snaps >) included."""
    out = []
    for a in menu.actions():
        if a.menu() is not None:
            out += entry_actions(a.menu())
        elif a.data():
            out.append(a)
    return out


@pytest.mark.parametrize("cid", ["gao", "huang"])
def test_context_menu_reflects_the_model(turn_view, cid):
    view, doc = turn_view
    menu = view.context_menu(cid)
    expected = actions.entries(doc, cid)
    got = entry_actions(menu)
    assert [a.data() for a in got] == [e.key for e in expected]
    assert [a.text() for a in got] == [e.label for e in expected]
    assert [a.isEnabled() for a in got] == [e.enabled for e in expected]
    for a, e in zip(got, expected, strict=True):
        if e.reason:
            assert a.toolTip() == e.reason and a.statusTip() == e.reason
    assert any(not e.enabled and e.reason for e in expected)
    if cid == "huang":
        assert not any(a.isEnabled() for a in got if a.data() == "action:defend")


def test_context_menu_entries_push_or_ask(turn_view):
    view, doc = turn_view
    requested = []
    view.actionRequested.connect(lambda cid, key: requested.append((cid, key)))
    menu = view.context_menu("gao")
    next(a for a in entry_actions(menu) if a.data() == "hack").trigger()
    assert requested == [("gao", "hack")] and doc.undo_stack.count() == 0
    defend = next(a for a in entry_actions(menu) if a.data() == "action:defend")
    defend.trigger()
    assert ops(doc) == [TakeAction("gao", ActionKind.DEFEND)]
    menu = view.context_menu("gao")
    hack = next(a for a in entry_actions(menu) if a.data() == "hack")
    assert not hack.isEnabled() and "used" in hack.toolTip()


def test_right_click_opens_the_menu_for_that_token(turn_view):
    view, doc = turn_view
    pos = token_at(view, "chen")
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    assert doc.selected == "chen"
    menu = view._menu
    assert menu is not None and menu.isVisible()
    assert [a.data() for a in entry_actions(menu)] == [e.key for e in actions.entries(doc, "chen")]
    menu.close()


# ------------------------------------------------------------------------ zoom, arcs


def test_zoom_and_fit(turn_view):
    view, _ = turn_view
    fitted = view.zoom()
    view.zoom_in()
    assert view.zoom() == pytest.approx(fitted * 1.25)
    view.zoom_out()
    view.zoom_out()
    assert view.zoom() == pytest.approx(fitted / 1.25)
    view.fit_to_zone()
    assert view.zoom() == pytest.approx(fitted)
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.contains(view.map_scene.zone_rect())


def test_rear_arcs_toggle(turn_view):
    view, _ = turn_view
    assert not view.rear_arcs() and not view.map_scene.rears
    view.set_rear_arcs(True)
    assert view.rear_arcs() and set(view.map_scene.rears) == set(view.map_scene.tokens)
    view.set_rear_arcs(False)
    assert not view.map_scene.rears


def test_set_document_follows_the_new_one(turn_view):
    view, old = turn_view
    new = EncounterDocument(sample.build(), journal_factory=lambda d: None)
    view.set_document(new)
    assert view.map_scene.doc is new
    old.push(PlaceCombatant("huang", (1, 1), None))  # the old document no longer drives it
    assert view.map_scene.tokens["huang"].pos() == QPointF(*mapgeom.area_centre((7, 11)))


def test_refusal_hint_is_the_last_word(turn_view):
    view, doc = turn_view
    heard = []
    view.statusMessage.connect(heard.append)
    doc.select("huang")
    QTest.keyClick(view, Qt.Key.Key_E)
    assert heard[-1].endswith("Hold Shift to turn Green-Jade Huang anyway (GM override).")


def test_a_decoy_selects_its_owner_but_does_not_drag(qtbot):
    from afdesk.encounter.combatant import StateKind
    from afdesk.encounter.ops.roster import AddState, SetDecoys

    enc = sample.build()
    enc.apply(AddState("archer", StateKind.HIDDEN))
    enc.apply(SetDecoys("archer", ((11, 0), (12, 1))))
    view, doc = open_view(qtbot, enc, turns=False)
    before = enc.state()
    drag(view, at(view, (11, 0)), [(10, 1), (9, 2)], SHIFT)
    assert doc.selected == "archer"
    assert enc.state() == before and doc.undo_stack.count() == 0


def test_an_empty_encounter_shows(qtbot):
    from afdesk.encounter.model import Encounter

    view, doc = open_view(qtbot, Encounter(), turns=False)
    view.fit_to_zone()
    view.set_rear_arcs(True)
    QTest.mouseClick(view.viewport(), LEFT, NO, QPoint(10, 10))
    assert not view.map_scene.tokens and not view.map_scene.tiles and doc.selected == ""


def test_gm_override_past_the_edge_extends_and_places(turn_view):
    view, doc = turn_view
    view.rng = random.Random(2)
    drag(view, token_at(view, "lan"), [(5, 13), (5, 14), (5, 16)], SHIFT)
    keys = [a.data() for a in view.edge_menu().actions()]
    assert keys == ["exit", "extend"]
    next(a for a in view.edge_menu().actions() if a.data() == "extend").trigger()
    extend, place = ops(doc)
    assert isinstance(extend, ExtendZone) and extend.edge.value == "south"
    assert place == PlaceCombatant("lan", (5, 16))
    assert doc.undo_stack.count() == 1 and doc.encounter.zone.size() == (3, 4)
