"""Several characters at once (E11, E17): Ctrl+click gathers tokens on the map, and their
menu turns them, damages them or gives them a state, one undo step for all of them; a plain
click starts over with one character."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from test_map_view import LEFT, NO, at, open_view, token_at

from afdesk.encounter.combatant import StateKind
from afdesk.storage import samples as sample

CTRL = Qt.KeyboardModifier.ControlModifier


def _click(view, cid, mods=NO):
    QTest.mouseClick(view.viewport(), LEFT, mods, token_at(view, cid))


def _gathered(qtbot):
    view, doc = open_view(qtbot, sample.build())
    _click(view, "bandit-1")
    _click(view, "bandit-2", CTRL)
    _click(view, "archer", CTRL)
    return view, doc


def _entry(menu, path):
    for act in menu.actions():
        if act.text().replace("&", "") == path[0]:
            if len(path) == 1:
                return act
            return _entry(act.menu(), path[1:])
    raise AssertionError(f"no {path[0]!r} in {[a.text() for a in menu.actions()]}")


def test_ctrl_click_gathers_and_a_plain_click_starts_over(qtbot):
    view, doc = _gathered(qtbot)
    assert view.group.members() == ("bandit-1", "bandit-2", "archer")
    assert len(view.group._rings) == 3
    _click(view, "bandit-2", CTRL)  # Ctrl+click again takes it out
    assert view.group.members() == ("bandit-1", "archer")
    _click(view, "huang")
    assert view.group.members() == () and doc.selected == "huang"
    assert view.group._rings == []


def test_turn_damage_and_state_for_all_each_one_undo_step(qtbot):
    view, doc = _gathered(qtbot)
    enc = doc.encounter
    who = ("bandit-1", "bandit-2", "archer")
    before = enc.state()
    steps = doc.undo_stack.count()
    menu = view.group.menu()
    _entry(menu, ["Face", "W"]).trigger()
    assert all(enc.combatants[c].facing == 270.0 for c in who)
    assert doc.undo_stack.count() == steps + 1
    hits = {c: enc.combatants[c].hits for c in who}
    _entry(view.group.menu(), ["Damage", "2 hits each"]).trigger()
    assert all(enc.combatants[c].hits == hits[c] + 2 for c in who)
    _entry(view.group.menu(), ["Give a state", "Shaken"]).trigger()
    assert all(enc.combatants[c].has(StateKind.SHAKEN) for c in who)
    assert doc.undo_stack.count() == steps + 3
    for _ in range(3):
        doc.undo_stack.undo()
    assert enc.state() == before  # three steps undo everything, for all three


def test_a_refusal_for_one_refuses_the_step_for_all(qtbot):
    from afdesk.encounter.ops.roster import AdjustCounter

    view, doc = _gathered(qtbot)
    before = doc.encounter.state()
    ops = [AdjustCounter("bandit-1", "hits", 1), AdjustCounter("archer", "hits", -99)]
    reason = view.group.refusal(ops)
    assert reason
    assert not view.group.push(ops, "Damage")
    assert doc.encounter.state() == before
    assert view.refusal_text()


def _band(view, start, end, mods=NO):
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, mods, at(view, start))
    QTest.mouseMove(vp, at(view, ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)))
    QTest.mouseMove(vp, at(view, end))
    QTest.mouseRelease(vp, LEFT, mods, at(view, end))


def test_a_rubber_band_on_empty_ground_gathers_the_tokens_inside(qtbot):
    view, doc = open_view(qtbot, sample.build())
    before = doc.encounter.state()
    _band(view, (6, 2), (10, 5))  # around gao (8, 3), bandit-1 (7, 4), bandit-2 (9, 4)
    assert view.group.members() == ("gao", "bandit-1", "bandit-2")
    assert doc.selected == "gao" and len(view.group._rings) == 3
    assert doc.encounter.state() == before and doc.undo_stack.count() == 0  # nothing moved
    assert "3 characters selected" in view.status.last
    # the group's menu, as after Ctrl+click: one undo step for all three (E17)
    pos = token_at(view, "bandit-2")
    view.contextMenuEvent(_context(view, pos))  # right-click a gathered token
    assert view._menu.actions()[0].text().startswith("3 characters")
    _entry(view._menu, ["Give a state", "Shaken"]).trigger()
    assert all(doc.encounter.combatants[c].has(StateKind.SHAKEN) for c in view.group.members())
    assert doc.undo_stack.count() == 1


def test_ctrl_band_adds_a_plain_band_starts_over_and_a_click_clears(qtbot):
    view, doc = open_view(qtbot, sample.build())
    _click(view, "huang")
    _band(view, (6, 2), (8.4, 3.4), CTRL)  # gao only, added to huang
    assert view.group.members() == ("huang", "gao")
    _band(view, (11, -0.4), (13, 1))  # the archer alone: selected, no group
    assert view.group.members() == () and doc.selected == "archer"
    _band(view, (0, 6), (2, 8))  # nobody inside: nothing selected
    assert view.group.members() == () and doc.selected == ""
    _band(view, (6, 2), (10, 5))
    QTest.mouseClick(view.viewport(), LEFT, NO, at(view, (2, 2)))  # a click on empty ground
    assert view.group.members() == () and doc.selected == ""


def test_dragging_a_token_still_moves_it_and_alt_drag_pans(qtbot):
    from test_map_view import drag, ops

    from afdesk.encounter.ops.move import MoveCombatant

    view, doc = open_view(qtbot, sample.build())
    _band(view, (6, 2), (10, 5))  # a group first: a plain drag of a token starts over
    drag(view, token_at(view, "gao"), [(8, 4), (8, 5)])  # the actor, gao
    [op] = ops(doc)
    assert isinstance(op, MoveCombatant) and doc.encounter.combatants["gao"].area == (8, 5)
    assert view.group.members() == () and doc.selected == "gao"
    view.zoom_in()
    view.zoom_in()
    before = view.horizontalScrollBar().value()
    vp = view.viewport()
    alt = Qt.KeyboardModifier.AltModifier
    start = at(view, (2, 2))
    QTest.mousePress(vp, LEFT, alt, start)
    QTest.mouseMove(vp, start + QPoint(-40, 0))
    QTest.mouseRelease(vp, LEFT, alt, start + QPoint(-40, 0))
    assert view.horizontalScrollBar().value() == before + 40 and view.group.members() == ()


def _context(view, pos):
    from PySide6.QtGui import QContextMenuEvent

    return QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, view.mapToGlobal(pos))


def test_escape_drops_a_rubber_band_under_way(qtbot):
    view, doc = open_view(qtbot, sample.build())
    _click(view, "huang")
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, at(view, (6, 2)))
    QTest.mouseMove(vp, at(view, (8, 3.5)))
    QTest.mouseMove(vp, at(view, (10, 5)))
    assert view.tool("move")._rubber.isVisible()
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not view.tool("move")._rubber.isVisible()
    QTest.mouseRelease(vp, LEFT, NO, at(view, (10, 5)))
    assert view.group.members() == () and doc.selected == "huang"  # as before the band
