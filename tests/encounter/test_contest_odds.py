"""The odds the check flow shows, in every ruleset (R9, C3, C5)."""

from __future__ import annotations

import pytest

from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.rules import af254, classic, odds
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from tests.encounter.conftest import band, foe, make, start_round
from tests.rules import oracle


def classic_duel(gao_facing=180.0):
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4), facing=gao_facing))
    enc.apply(SetRuleset("af-classic"))
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def dodge(plan):
    return next(d for d in plan.defenses if d.kind is DefenseKind.DODGE and d.via is Via.GUARD)


def test_C3_a_penalty_and_three_tokens_have_odds():
    """C3: 1-3 tokens are legal whatever the Interference (R8's limit is af-2.5.4's)."""
    enc = classic_duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    flow.add_gm_modifier("rain", -2)
    flow.set_ventures(3)
    o = flow.odds()
    dice, intf = flow.attack_pools()
    assert intf == 2
    expected = odds.classic_check_odds(
        odds.CheckState(odds.PoolState(exploding=dice), odds.PoolState(exploding=5), 3)
    )
    assert abs(o.p_attacker_succeeds - expected.p_success) < 1e-12
    assert abs(o.attacker_expected_momentum - expected.expected_momentum) < 1e-12


def test_C5_odds_after_an_attack_with_advantage_keep_the_oppositions_6s_from_exploding():
    """C5: against a check with Advantage the opposition's 6s do not explode, before and
    after the attack is rolled: the odds shown count the defense as it will be rolled."""
    enc = classic_duel(gao_facing=0.0)  # Huang is behind Gao's flank: dodge -2 (E8)
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.set_advantage(True, False)
    dice, intf = flow.attack_pools()
    assert intf == 0
    flow.roll_attack(ScriptedSource([4] + [1] * (dice - 1)))
    flow.choose_defense(dodge(plan))
    d_dice, d_intf = flow.defense_pools(0)
    # The attack stands on one 4: any opposition success left stops it (C2). Enumerate the
    # defense: check dice that do not explode (C5), its own Interference exploding.
    assert (d_dice, d_intf) == (2, 2)
    depth = 6
    dist = oracle.enumerate_pool(
        [oracle.plain()] * d_dice,
        [oracle.exploding(depth)] * d_intf,
        lambda c, i, v: classic.evaluate(c, i, ventures=v),
    )
    attack = classic.outcome_of(flow.attack)
    stopped = float(sum(p for d, p in dist.items() if not classic.oppose(attack, d).success))
    tol = oracle.bound(d_intf, depth) * 8
    assert abs(flow.odds().p_stopped - stopped) <= tol, (flow.odds().p_stopped, stopped)


def _tie_flow(order):
    """Huang's hack on Gao rolled 5, 2 (Result 5, Gain 1); Gao dodges (R9)."""
    from afdesk.encounter.ops.flow import NextTurn

    enc = make(band("huang", (5, 5)), foe("gao", (5, 4), facing=180.0))
    start_round(enc, order)
    if enc.actor != "huang":
        enc.apply(NextTurn())
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 2]))
    flow.choose_defense(dodge(plan))
    return flow


def _p_beats_or_ties(flow, depth=6):
    """Enumerate Gao's dodge: P(it stops Result 5, Gain 1), and P(a full tie)."""
    d_dice, d_intf = flow.defense_pools(0)
    dist = oracle.enumerate_pool(
        [oracle.exploding(depth)] * d_dice,
        [oracle.exploding(depth)] * d_intf,
        af254._evaluate,
    )
    attack = af254.outcome_of(flow.attack)
    beats = float(sum(p for d, p in dist.items() if af254.stops(attack, d)))
    ties = float(sum(p for d, p in dist.items() if d.success and (d.result, d.gain) == (5, 1)))
    return beats, ties, oracle.bound(d_dice + d_intf, depth) * 8


def test_R9_the_odds_shown_give_a_full_tie_to_the_higher_reflex_card():
    """R9 (amended): Gao's reflex card is the higher, so a full tie stops the hack; the odds
    the flow shows (and the dialog computes off the UI thread) count it, as the verdict
    does."""
    flow = _tie_flow(["opponent:Foes", "huang"])
    assert flow.defense_wins_ties()
    beats, ties, tol = _p_beats_or_ties(flow)
    assert ties > 0.01
    shown = flow.odds()
    assert abs(shown.p_stopped - (beats + ties)) <= tol, (shown, beats, ties)
    assert abs(flow.odds_query()().p_stopped - shown.p_stopped) < 1e-15
    # Before the roll the same tie rule holds: the defense's spec against the attack's.
    before = flow.rules.contest_odds(
        flow.attack_spec(), flow.defense_spec(), defense_wins_ties=True
    )
    plain = flow.rules.contest_odds(flow.attack_spec(), flow.defense_spec())
    assert before.p_stopped > plain.p_stopped


def test_R9_with_the_attackers_card_higher_the_odds_shown_let_a_full_tie_stand():
    flow = _tie_flow(["huang", "opponent:Foes"])
    assert not flow.defense_wins_ties()
    beats, _ties, tol = _p_beats_or_ties(flow)
    assert abs(flow.odds().p_stopped - beats) <= tol


def test_R9_the_odds_of_each_shift_take_the_same_tie_rule():
    """R9, R10: after the defense is rolled, the odds of each of the attacker's Shifts count
    a full tie for the defense with the higher card: the tie stands unless the two added
    dice raise the Gain or the Result."""
    flow = _tie_flow(["opponent:Foes", "huang"])
    flow.roll_defense(ScriptedSource([5, 1]))
    assert flow.verdict_now().stopped and flow.shift_exchange.turn is Role.ATTACKER
    state = odds.CheckState.from_roll(flow.attack)
    d_state = odds.CheckState.from_roll(flow.defense_roll)
    added = flow.shift_choices(Role.ATTACKER)["add"]
    want = odds.contest_odds(state.with_added_dice(2), d_state, defense_wins_ties=True)
    assert added == want
    # The tie stays when neither added die shows a 5 or a 6: (4/6)^2.
    assert abs(added.p_stopped - 4 / 9) < 1e-12
    assert odds.contest_odds(state.with_added_dice(2), d_state).p_stopped == 0.0


def test_R10_E14_other_opponents_in_the_overlap_spend_shifts_on_their_own_rolls():
    """E14, R10: y contests a's move check beside x; after y's roll the Shifts start again
    (a new result), and the defender side may spend on y's roll (from the referee's pool),
    with the odds of each choice: two added dice turn y's 4 into a 6 that stops a's 5."""
    from afdesk.encounter.contest.flow import leave_overlap_flow
    from afdesk.encounter.economy import ActionKind
    from afdesk.encounter.errors import IllegalOp
    from afdesk.encounter.ops.economy import TakeAction

    enc = make(
        band("a", (6, 5), facing=0.0),
        foe("x", (6, 5), facing=0.0),
        foe("y", (6, 5), facing=90.0),
    )
    start_round(enc, ["a", "opponent:Foes"])
    enc.apply(TakeAction("a", ActionKind.MANEUVER))
    flow = leave_overlap_flow(enc, "a", "x")
    flow.roll_attack(ScriptedSource([5, 2]))
    parry = next(d for d in flow.plan.defenses if d.kind is DefenseKind.PARRY)
    flow.choose_defense(parry)
    flow.roll_defense(ScriptedSource([4, 1, 1]))
    flow.pass_turn(Role.DEFENDER)
    flow.pass_turn(Role.ATTACKER)
    assert flow.shift_exchange.done
    y_dodge = next(
        d
        for d in flow.other_plan("y").defenses
        if d.kind is DefenseKind.DODGE and d.defender == "y"
    )
    flow.contest_also(y_dodge, ScriptedSource([4, 1]))
    assert not flow.verdict_now().stopped
    # y's roll is a new result: the losing side (the defenders) answers first.
    assert flow.shift_exchange.turn is Role.DEFENDER and not flow.shift_exchange.done
    assert flow.payer(Role.DEFENDER, 1) == "referee" and flow.party(Role.DEFENDER, 1) == "y"
    assert flow.spend_refusal(Role.DEFENDER, "add", 1) == ""
    assert "own check" in flow.spend_refusal(Role.ATTACKER, "add", 1)
    with pytest.raises(IllegalOp, match="no defense 2"):
        flow.spend(Role.DEFENDER, "add", defense=2)
    y_before = odds.CheckState.from_roll(flow.also[0].roll)
    choices = flow.shift_choices(Role.DEFENDER, 1)
    attack = odds.CheckState.from_roll(flow.attack)
    assert choices["add"] == odds.contest_odds(attack, y_before.with_added_dice(2))
    # Two added dice stop a's 5 (Gain 1) with a 6, or with two 5s: 11/36 + 1/36.
    assert abs(choices["add"].p_stopped - 12 / 36) < 1e-12
    shifts = enc.meta.referee_shifts
    flow.spend(Role.DEFENDER, "add", source=ScriptedSource([6, 1]), defense=1)
    assert flow.also[0].roll.check_faces.count(6) == 1
    assert flow.verdict_now().stopped
    assert flow.spends[-1].payer == "referee" and flow.spends[-1].roll == "1"
    record = flow.record()
    assert [d.defender for d in record.defenses] == ["x", "y"]
    assert record.defenses[1].roll == flow.also[0].roll
    enc.apply(flow.op())
    assert enc.meta.referee_shifts == shifts - 1
    # Only y's defense won: the one step allowed is in front of y (east, E14).
    assert set(enc.combatants["a"].economy.exit_to) == {(6, 4), (6, 6), (7, 4), (7, 5), (7, 6)}
