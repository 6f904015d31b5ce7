"""The odds the check flow shows, in every ruleset (issue 11: C3, C5)."""

from __future__ import annotations

from afdesk.encounter.contest import CheckKind, DefenseKind, Via, assemble
from afdesk.encounter.contest_flow import ContestFlow
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.rules import classic, odds
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
