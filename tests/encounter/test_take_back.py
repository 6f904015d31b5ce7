"""Taking back a Defend, Screen or Hesitate whole (E6, E7): the Character dock's toggles
switched off give the action back and take the extra guard away, or are refused with the
rule id and change nothing."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import Screen, SetEconomy, TakeAction, TakeBack
from afdesk.encounter.ops.flow import NextTurn
from tests.encounter.conftest import band, foe, make, start_round


def three():
    enc = make(band("huang", (5, 5)), band("chen", (6, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    return enc


def test_defend_taken_back_restores_the_turn_exactly():
    enc = three()
    before = enc.state()
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    enc.apply(TakeBack("huang", "defend"))
    after = enc.state()
    assert after.combatants == before.combatants  # the action back, the extra guard gone
    # ... and the action can be spent again (E6).
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    assert enc.combatants["huang"].economy.guards == 2


def test_defend_cannot_be_taken_back_once_the_guard_is_used():
    enc = three()
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    e = enc.combatants["huang"].economy
    enc.apply(SetEconomy("huang", msgspec.structs.replace(e, guards=0)))
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"cannot be taken back whole \(E4, E6\)"):
        enc.apply(TakeBack("huang", "defend"))
    assert enc.state() == before


def test_defend_cannot_be_taken_back_after_the_turn():
    enc = three()
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    enc.apply(NextTurn())
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"only on Huang's own turn \(E6\)"):
        enc.apply(TakeBack("huang", "defend"))
    assert enc.state() == before


def test_own_turn_screen_taken_back_gives_the_action_back():
    enc = three()
    before = enc.state()
    enc.apply(Screen("huang"))
    assert not enc.combatants["huang"].economy.action
    enc.apply(TakeBack("huang", "screen"))
    assert enc.state().combatants == before.combatants


def test_off_turn_screen_taken_back_keeps_the_next_action():
    enc = three()
    before = enc.combatants["chen"]
    enc.apply(Screen("chen"))
    assert enc.combatants["chen"].economy.lose_next_action
    enc.apply(TakeBack("chen", "screen"))
    assert enc.combatants["chen"] == before
    enc.apply(NextTurn())  # Chen's turn: the action is there (E7 no longer applies)
    assert enc.combatants["chen"].economy.action


def test_screen_that_took_the_action_at_turn_start_cannot_be_taken_back():
    enc = three()
    enc.apply(Screen("chen"))
    enc.apply(NextTurn())  # Chen's turn: the Screen took its action (E7)
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"cannot be taken back whole \(E7\)"):
        enc.apply(TakeBack("chen", "screen"))
    assert enc.state() == before


def test_hesitate_taken_back_on_own_turn():
    enc = three()
    before = enc.state()
    enc.apply(TakeAction("huang", ActionKind.HESITATE))
    enc.apply(TakeBack("huang", "hesitate"))
    assert enc.state().combatants == before.combatants


def test_nothing_to_take_back_is_refused():
    enc = three()
    with pytest.raises(IllegalOp, match="no Defend to take back"):
        enc.apply(TakeBack("huang", "defend"))
    with pytest.raises(ValueError, match="only defend, screen, hesitate"):
        TakeBack("huang", "attack")


def test_screen_log_says_what_happened():
    enc = three()
    enc.apply(Screen("huang"))  # own turn: this action goes (E7)
    assert "this turn's action goes to the Screen" in enc.log[-1].text
    enc.apply(Screen("chen"))  # not its turn: the next action is lost
    assert "the next action is lost (E7)" in enc.log[-1].text
    assert enc.combatants["chen"].economy.lose_next_action


def test_undo_of_take_back_is_exact():
    enc = three()
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    mid = enc.state()
    inverse = enc.apply(TakeBack("huang", "defend"))
    enc.apply(inverse)
    assert enc.state().combatants == mid.combatants
