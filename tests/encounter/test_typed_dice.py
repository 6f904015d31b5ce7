"""Physical dice: typed faces feed the ruleset's own roll, with its own
validation (R2 explosions, R3/R4 retries, D1 d20 faces), and the log marks them."""

from __future__ import annotations

import pytest

from afdesk.encounter.contest.assembly import CheckKind, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.typed import TypedDice, parse_faces, roll_typed
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from afdesk.rules.errors import RulesError
from tests.encounter.conftest import band, foe, make, start_round


def flow_of(ruleset: str = "") -> ContestFlow:
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4), facing=180.0))
    if ruleset:
        enc.apply(SetRuleset(ruleset))
    start_round(enc, ["huang", "opponent:Foes"])
    return ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))


def test_typed_faces_with_an_explosion_make_the_roll_and_are_logged():
    f = flow_of()
    assert f.attack_pools() == (2, 0)
    roll_typed(f, "attack", (6, 3, 5), f.roll_attack)  # the 6 explodes into a 3 (R2)
    assert f.attack is not None and f.attack.check_faces == (6, 3, 5)
    assert f.attack.dice[0].exploded and f.attack.dice[1].from_explosion
    assert f.record().physical == ("attack",)
    f.enc.apply(f.op())
    assert "physical dice (attack)" in f.enc.log[-1].text


def test_too_few_faces_ask_for_the_explosion_die_and_roll_nothing():
    f = flow_of()
    with pytest.raises(IllegalOp, match=r"2 faces typed, but this roll needs more.*6's extra"):
        roll_typed(f, "attack", (6, 5), f.roll_attack)
    assert not f.rolled and f.physical == []


def test_too_many_faces_are_refused_with_the_count():
    f = flow_of()
    with pytest.raises(IllegalOp, match="3 faces typed, but the roll used 2; remove the 1 extra"):
        roll_typed(f, "attack", (4, 5, 1), f.roll_attack)
    assert not f.rolled


def test_a_face_out_of_range_names_the_face():
    f = flow_of()
    with pytest.raises(IllegalOp, match="face 1 is 7: a d6 shows 1 to 6"):
        roll_typed(f, "attack", (7, 1), f.roll_attack)
    with pytest.raises(IllegalOp, match=r"face 2 \('x'\) is not a number"):
        parse_faces("6 x")
    assert parse_faces("6, 2 4") == (6, 2, 4)


def test_the_defense_and_a_shift_take_typed_faces_too():
    f = flow_of()
    roll_typed(f, "attack", (5, 4), f.roll_attack)
    dodge = next(d for d in f.plan.defenses if d.allowed and d.kind.value == "dodge")
    f.choose_defense(dodge)
    roll_typed(f, "defense", (6, 1, 2), f.roll_defense)
    assert f.defense_roll is not None and f.defense_roll.check_faces == (6, 1, 2)
    turn = f.shift_exchange.turn
    assert turn is Role.ATTACKER  # her 5 is beaten by his 6: she answers
    with pytest.raises(IllegalOp, match="1 face typed, but this roll needs more"):
        roll_typed(f, "Shift", (6,), lambda src: f.spend(turn, "add", source=src))
    assert f.spends == []  # nothing spent by the refused entry
    roll_typed(f, "Shift", (6, 6), lambda src: f.spend(turn, "add", source=src))  # no explosion
    assert f.attack is not None and f.attack.check_faces[-2:] == (6, 6)
    assert f.record().physical == ("attack", "defense", "Shift")


def test_a_d20_ruleset_asks_for_one_d20_face():
    f = flow_of("d20-degrees")
    with pytest.raises(IllegalOp, match="face 1 is 21: a d20 shows 1 to 20"):
        roll_typed(f, "attack", (21,), f.roll_attack)
    with pytest.raises(IllegalOp, match=r"one d20"):
        roll_typed(f, "attack", (), f.roll_attack)
    roll_typed(f, "attack", (20,), f.roll_attack)
    assert f.d20 is not None and f.d20.die == 20


def test_typed_dice_is_a_dice_source_like_the_scripted_one():
    typed, scripted = TypedDice((3, 6)), ScriptedSource((3, 6))
    assert [typed.d6(), typed.d6()] == [scripted.d6(), scripted.d6()]
    with pytest.raises(RulesError, match="2 faces typed"):
        typed.d6()


def test_advantage_asks_for_the_retried_interference_six_r4():
    f = flow_of()
    f.add_gm_modifier("Mud", -1)  # one Interference die
    f.set_advantage(True, False)
    # Check 5, 4; Interference 6 exploding into a 2; Advantage retries the 6 (R4): a 3.
    with pytest.raises(IllegalOp, match="4 faces typed, but this roll needs more"):
        roll_typed(f, "attack", (5, 4, 6, 2), f.roll_attack)
    roll_typed(f, "attack", (5, 4, 6, 2, 3), f.roll_attack)
    assert f.attack is not None
    retried = [d for d in f.attack.dice if d.retried]
    assert [(d.retried_from, d.face, d.retry_reason) for d in retried] == [(6, 3, "advantage")]
