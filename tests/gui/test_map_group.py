"""Several characters at once (E11, E17): Ctrl+click gathers tokens on the map, and their
menu turns them, damages them or gives them a state, one undo step for all of them; a plain
click starts over with one character."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from test_map_view import LEFT, NO, open_view, token_at

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
