"""The battle rules held exactly through the contest flow and the Ops: a Shift retries any
dice not yet retried (R10), the free retry of 6s for Momentum (R3), the ruleset's Momentum
marker size (R12, C3) and the odds of spending Will (C4), the odds against seeded Monte
Carlo runs of afdesk's own roll code (within 3 standard errors)."""

from __future__ import annotations

import math

import pytest

from afdesk.encounter.combatant import DEFAULT_FACETS, Facet, MomentumMarker
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble, pools
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.roster import AddMomentum
from afdesk.rules import odds
from afdesk.rules.contest import Role
from afdesk.rules.dice import Pool, RandomSource, ScriptedSource
from afdesk.rules.rulesets import ruleset_named
from tests.encounter.conftest import band, foe, make, start_round


def duel(ruleset: str = "af-2.5.4"):
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4), facing=180.0))
    if ruleset != "af-2.5.4":
        enc.apply(SetRuleset(ruleset))
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def hack(enc) -> ContestFlow:
    return ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))


def dodge(flow: ContestFlow):
    return next(d for d in flow.plan.defenses if d.kind is DefenseKind.DODGE and d.via is Via.GUARD)


def facets(**scores: int) -> tuple[Facet, ...]:
    return tuple(Facet(f.name, scores.get(f.name, f.score)) for f in DEFAULT_FACETS)


def within_3_se(samples: list[float], exact: float) -> None:
    n = len(samples)
    mean = math.fsum(samples) / n
    var = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
    se = math.sqrt(var / n)
    assert se > 0
    assert abs(mean - exact) <= 3 * se, (mean, exact, se)


# ---------------------------------------------------------------------------- R10


def losing_fours() -> ContestFlow:
    """Huang's attack shows 4,4; Gao's dodge 5,1: the 5 stops both 4s (R9)."""
    flow = hack(duel())
    flow.roll_attack(ScriptedSource([4, 4]))
    flow.choose_defense(dodge(flow))
    flow.roll_defense(ScriptedSource([5, 1]))
    assert flow.verdict_now().stopped
    assert flow.shift_exchange.turn is Role.ATTACKER
    return flow


def test_R10_a_shift_retries_a_losing_win():
    flow = losing_fours()
    assert flow.spend_refusal(Role.ATTACKER, "retry") == ""
    flow.spend(Role.ATTACKER, "retry", (0,), ScriptedSource([6]))
    assert flow.attack.check_faces == (6, 4)
    die = flow.attack.dice[0]
    assert die.retried_from == 4 and die.retry_reason == "shift" and not die.exploded
    assert len(flow.attack.dice) == 2  # the new 6 is frozen: no extra die (R3)
    assert not flow.verdict_now().stopped
    assert flow.spends[-1].indices == (0,)
    assert flow.retry_candidates(Role.ATTACKER) == (1,)


def test_R10_with_no_die_chosen_a_retry_takes_the_fails_or_the_dice_below():
    """No Fail: the dice below the other side's Result (4,4 against a 5: both 4s)."""
    flow = losing_fours()
    assert flow.default_retry(Role.ATTACKER) == (0, 1)
    flow.spend_on_turn("retry", ScriptedSource([6, 1]))
    assert flow.attack.check_faces == (6, 1) and flow.spends[-1].indices == (0, 1)
    # Before any defense there is nothing below to take: the spender must choose.
    flow = hack(duel())
    flow.roll_attack(ScriptedSource([4, 4]))
    with pytest.raises(IllegalOp, match="no Fail left to retry: choose the dice"):
        flow.spend(Role.ATTACKER, "retry", source=ScriptedSource([6]))
    assert flow.attack.check_faces == (4, 4) and not flow.spends
    assert "retry" not in flow.shift_choices(Role.ATTACKER)  # no odds for nothing


def test_R10_a_die_is_retried_once_and_never_interference():
    flow = hack(duel())
    flow.add_gm_modifier("rain", -1)
    flow.roll_attack(ScriptedSource([4, 2, 1]))
    assert flow.attack.dice[2].pool is Pool.INTERFERENCE
    with pytest.raises(IllegalOp, match="Interference"):
        flow.spend(Role.ATTACKER, "retry", (2,), ScriptedSource([5]))
    with pytest.raises(IllegalOp, match="no die number 7"):
        flow.spend(Role.ATTACKER, "retry", (7,), ScriptedSource([5]))
    assert not flow.spends
    flow.spend(Role.ATTACKER, "retry", (0, 1), ScriptedSource([1, 5]))
    assert flow.attack.check_faces == (1, 5)
    flow.pass_turn(Role.ATTACKER)


def test_R10_every_die_retried_leaves_nothing_to_retry():
    flow = hack(duel())
    flow.roll_attack(ScriptedSource([4, 4]))
    flow.spend(Role.ATTACKER, "retry", (0, 1), ScriptedSource([5, 5]))
    assert "already retried" in flow.spend_refusal(Role.ATTACKER, "retry")
    assert flow.spend_refusal(Role.ATTACKER, "add") == ""


def test_R10_quick_choices_all_fails_and_all_below_the_other_result():
    flow = hack(duel())
    flow.roll_attack(ScriptedSource([4, 2]))
    assert flow.retry_below(Role.ATTACKER) == ()  # no defense Result yet
    flow.choose_defense(dodge(flow))
    flow.roll_defense(ScriptedSource([5, 6, 1]))  # 5, and a 6 that exploded into a 1
    assert flow.retry_fails(Role.ATTACKER) == (1,)
    assert flow.retry_below(Role.ATTACKER) == (0, 1)  # the 4 and the 2 are below 6
    assert flow.retry_below(Role.DEFENDER) == (2,)  # below the attack's 4: the 1
    assert flow.retry_fails(Role.DEFENDER) == (2,)


def test_R10_the_odds_follow_the_chosen_retry():
    flow = losing_fours()
    attack = odds.CheckState.from_roll(flow.attack)
    defense = odds.CheckState.from_roll(flow.defense_roll)
    one = flow.shift_choices(Role.ATTACKER, retry=(0,))["retry"]
    both = flow.shift_choices(Role.ATTACKER, retry=(0, 1))["retry"]
    assert flow.shift_choices(Role.ATTACKER)["retry"] == both  # the default: both 4s
    assert one == odds.contest_odds(attack.with_retried([4]), defense)
    assert both == odds.contest_odds(attack.with_retried([4, 4]), defense)
    # A retried 4 lands on a 5 or a 6 (a full tie, 5 against 5, lets the attack stand:
    # Huang's card is the higher, R9); two retried land unless both show 4 or less.
    assert not flow.defense_wins_ties()
    assert abs(one.p_attack_lands - 1 / 3) < 1e-12
    assert abs(both.p_attack_lands - (1 - (4 / 6) ** 2)) < 1e-12


def test_R10_retry_odds_match_a_seeded_monte_carlo():
    """Before the defense rolls: retry a 5 and a Fail of 5,2,4 against a 3-die dodge (R9,
    R10), the exact odds against 20,000 seeded runs of afdesk's own retry and defense."""
    enc = make(band("huang", (5, 5), facets=facets(fight=3)), foe("gao", (5, 4), facing=180.0))
    start_round(enc, ["huang", "opponent:Foes"])
    flow = hack(enc)
    flow.roll_attack(ScriptedSource([5, 2, 4]))
    flow.choose_defense(dodge(flow))
    exact = flow.shift_choices(Role.ATTACKER, retry=(0, 1))["retry"]
    rules = flow.rules
    d_dice, d_intf = flow.defense_pools(0)
    source = RandomSource(20261126)
    lands, momentum = [], []
    for _ in range(20000):
        attack, _ = rules.spend(flow.attack, "retry", (0, 1), source)
        defense, _ = rules.roll_opposition(d_dice, d_intf, source=source)
        v = rules.verdict(attack, defense)
        lands.append(1.0 if v.lands else 0.0)
        momentum.append(float(v.attack.momentum) if v.succeeds else 0.0)
    within_3_se(lands, exact.p_attack_lands)
    within_3_se(momentum, exact.attacker_expected_momentum)


# ----------------------------------------------------------------------------- R3


def test_R3_retrying_a_6_trades_gain_for_momentum_for_free():
    flow = hack(duel())
    flow.roll_attack(ScriptedSource([6, 6, 5, 1]))  # 6 -> 6 -> 5, then a 1 (R2)
    before = flow.verdict_now().attack
    assert (before.result, before.gain, before.momentum) == (6, 2, 0)
    assert flow.attack.six_indices() == (0, 1)
    exact = flow.six_retry_query(Role.ATTACKER, (1,))()
    assert exact == odds.contest_odds(
        odds.CheckState.from_roll(flow.attack).with_retried([6]), None
    )
    shifts = flow.shifts_left(Role.ATTACKER)
    flow.retry_sixes(Role.ATTACKER, (1,), ScriptedSource([5]))
    after = flow.verdict_now().attack
    assert (after.result, after.gain, after.momentum) == (6, 1, 1)
    assert len(flow.attack.dice) == 4  # no new die: the retried face never explodes
    # The 6 keeps the die it exploded into (retries come after explosions, R3).
    assert flow.attack.dice[1].retry_reason == "six" and flow.attack.check_faces == (6, 5, 5, 1)
    assert flow.shifts_left(Role.ATTACKER) == shifts and not flow.spends  # free (R3)
    with pytest.raises(IllegalOp, match="not a 6"):
        flow.retry_sixes(Role.ATTACKER, (2,), ScriptedSource([5]))
    with pytest.raises(IllegalOp, match="not a 6"):
        flow.retry_sixes(Role.ATTACKER, (1,), ScriptedSource([5]))  # retried once
    enc = flow.enc
    flow.use_momentum(Role.ATTACKER, "marker", "huang", 2)
    enc.apply(flow.op())
    assert enc.combatant("huang").momentum[-1].dice == 2


def test_R3_the_odds_of_retrying_6s_match_a_seeded_monte_carlo():
    flow = hack(duel())
    flow.roll_attack(ScriptedSource([6, 4, 6, 3]))
    flow.choose_defense(dodge(flow))
    exact = flow.six_retry_query(Role.ATTACKER, (0, 2))()
    rules = flow.rules
    d_dice, d_intf = flow.defense_pools(0)
    source = RandomSource(3)
    lands, momentum = [], []
    for _ in range(20000):
        attack = rules.retry_sixes(flow.attack, (0, 2), source)
        defense, _ = rules.roll_opposition(d_dice, d_intf, source=source)
        v = rules.verdict(attack, defense)
        lands.append(1.0 if v.lands else 0.0)
        momentum.append(float(v.attack.momentum) if v.succeeds else 0.0)
    within_3_se(lands, exact.p_attack_lands)
    within_3_se(momentum, exact.attacker_expected_momentum)


def test_R3_is_af254s_only():
    flow = hack(duel("af-classic"))
    flow.roll_attack(ScriptedSource([6, 4, 2]))
    assert "R3" in flow.six_retry_refusal(Role.ATTACKER)
    with pytest.raises(IllegalOp, match="R3"):
        flow.retry_sixes(Role.ATTACKER, (0,), ScriptedSource([5]))


# ---------------------------------------------------------------------- R12, C3


@pytest.mark.parametrize("ruleset, size, rule", [("af-2.5.4", 2, "R12"), ("af-classic", 1, "C3")])
def test_R12_C3_the_marker_size_is_the_rulesets(ruleset, size, rule):
    enc = duel(ruleset)
    assert ruleset_named(ruleset).momentum_marker == size
    wrong = 3 - size
    with pytest.raises(IllegalOp, match=rf"\+{size} or -{size} \({rule}\), not \+{wrong}"):
        enc.apply(AddMomentum("huang", wrong))
    enc.apply(AddMomentum("huang", size, "a stunt"))
    enc.apply(AddMomentum("gao", -size))
    assert enc.combatant("huang").momentum == (MomentumMarker(size, "a stunt"),)
    flow = hack(enc)
    mine = [m for m in flow.modifiers if m.marker is not None]
    assert [(m.label, m.dice, m.rule) for m in mine] == [("Momentum", size, "R12")]
    assert flow.attack_pools() == (2 + size, 0)


def test_C3_af_classic_spends_momentum_on_a_one_die_marker():
    enc = duel("af-classic")
    flow = hack(enc)
    flow.roll_attack(ScriptedSource([5, 5]))  # a pair of 5s: 1 Momentum (C3)
    assert flow.momentum(Role.ATTACKER) == 1
    with pytest.raises(IllegalOp, match=r"\+1 or -1 \(C3\)"):
        flow.use_momentum(Role.ATTACKER, "marker", "gao", -2)
    flow.use_momentum(Role.ATTACKER, "marker", "gao", -1)
    flow.pass_turn(Role.ATTACKER)
    enc.apply(flow.op())
    marker = enc.combatant("gao").momentum[-1]
    assert marker.dice == -1 and "distraction" not in marker.source
    plan = assemble(enc, "gao", CheckKind.HACK, "huang")  # Gao's next check
    m = next(m for m in plan.modifiers if m.marker is not None)
    assert (m.label, m.dice, m.rule) == ("Interference", -1, "R12")  # not Distract's (E5)
    assert pools(plan.dice, plan.modifiers)[1] == 1


# ----------------------------------------------------------------------------- C4


def will_flow() -> ContestFlow:
    """af-classic: attack 4,1 with Interference 5,6,4 (the 6 exploded into the 4), against a
    3-die dodge; Huang may spend Will before the opposition rolls (C4)."""
    enc = make(
        band("huang", (5, 5)),
        foe("gao", (5, 4), facing=180.0, facets=facets(move=3)),
    )
    enc.apply(SetRuleset("af-classic"))
    start_round(enc, ["huang", "opponent:Foes"])
    flow = hack(enc)
    flow.add_gm_modifier("rain", -2)
    flow.roll_attack(ScriptedSource([4, 1, 5, 6, 4]))
    assert (flow.attack.check_faces, flow.attack.interference_faces) == ((4, 1), (5, 6, 4))
    flow.choose_defense(dodge(flow))
    assert flow.defense_pools(0) == (3, 0)
    return flow


def test_C4_will_odds_count_the_will_dice_exploding():
    flow = will_flow()
    exact = flow.shift_choices(Role.ATTACKER)["will"]
    assert abs(exact.p_attack_lands - 0.07502786351165977) < 1e-12
    plain = odds.classic_contest_odds(
        odds.CheckState.from_roll(flow.attack).with_added_dice(2), odds.PoolSpec(3)
    )
    assert abs(plain.p_attack_lands - 0.016075102880658432) < 1e-12  # what was shown


def test_C4_will_odds_match_a_seeded_monte_carlo_of_the_will_code():
    flow = will_flow()
    exact = flow.shift_choices(Role.ATTACKER)["will"]
    rules = flow.rules
    source = RandomSource(44)
    lands, momentum, d_momentum = [], [], []
    for _ in range(40000):
        attack, _ = rules.spend(flow.attack, "will", (), source)
        defense, _ = rules.roll_opposition(3, 0, source=source)
        v = rules.verdict(attack, defense)
        lands.append(1.0 if v.lands else 0.0)
        momentum.append(float(v.attack.momentum) if v.succeeds else 0.0)
        d_momentum.append(float(v.defense.momentum) if v.defense is not None else 0.0)
    within_3_se(lands, exact.p_attack_lands)
    within_3_se(momentum, exact.attacker_expected_momentum)
    within_3_se(d_momentum, exact.defender_expected_momentum)
