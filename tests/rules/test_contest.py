"""Contest verdicts for the three rulesets, and the Shift exchange (R9, R10, C2, D2)."""

from __future__ import annotations

import pytest

from afdesk.rules import RulesError, d20
from afdesk.rules.contest import Role, ShiftExchange, verdict
from afdesk.rules.dice import build_roll


def test_af254_kick_is_stopped():
    v = verdict("af-2.5.4", build_roll((2, 4, 5)), build_roll((1, 6, 2)))
    assert v.succeeds and v.stopped and not v.lands
    assert v.explain() == "6 beats 5, stopped"


def test_classic_kick_lands():
    v = verdict("af-classic", build_roll((2, 4, 5)), build_roll((1, 6, 2)))
    assert v.succeeds and not v.stopped and v.lands
    assert v.attack.wins == (5,)


def test_failed_attack_is_not_opposed():
    v = verdict("af-2.5.4", build_roll((1, 2)), build_roll((6,)))
    assert not v.succeeds and not v.stopped and v.defense is None
    assert v.explain() == "failed"


def test_plain_check_without_opposition():
    v = verdict("af-2.5.4", build_roll((5, 5)))
    assert v.lands and v.explain() == "5x2, succeeds"


def test_d20_verdict():
    check = d20.D20Check(die=15, bonus=2, tn=14, fortification=3)
    v = verdict("d20-degrees", check)
    assert v.degree is d20.Degree.SUCCESS and v.lands


def test_unknown_ruleset():
    with pytest.raises(RulesError, match="no dice pools"):
        verdict("d20-degrees", build_roll((5,)))


def test_shift_exchange_alternates_until_both_pass():
    ex = ShiftExchange(turn=Role.ATTACKER)
    ex = ex.spend(Role.ATTACKER).spend(Role.ATTACKER)
    ex = ex.pass_turn(Role.ATTACKER)
    assert ex.turn is Role.DEFENDER and not ex.done
    ex = ex.spend(Role.DEFENDER)  # the GM changes the outcome: the player may answer
    ex = ex.pass_turn(Role.DEFENDER)
    assert ex.turn is Role.ATTACKER and not ex.done
    ex = ex.pass_turn(Role.ATTACKER)  # satisfied with the GM's change: two passes in a row
    assert ex.done
    with pytest.raises(RulesError, match="satisfied"):
        ex.spend(Role.ATTACKER)


def test_shift_exchange_refuses_out_of_turn():
    with pytest.raises(RulesError, match="attacker's turn"):
        ShiftExchange(turn=Role.ATTACKER).spend(Role.DEFENDER)
