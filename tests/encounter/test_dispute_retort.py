"""P5, E4, R11: a Retort on another's behalf. A third character in the dispute, on a side
other than the attacker's, with its guard up (or its Quip's extra retort), may answer a
social check aimed at someone else: its insight check cooperates with the target's own
insight (R11), or contests alone; it spends that character's guard. Refusals name their
rule and change nothing."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.checks import CheckKind, DefenseKind, Via
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import DefenseOption, DefenseUse, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.dispute.ops import MoveDisputant
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import SetEconomy
from afdesk.encounter.ops.roster import AddState
from afdesk.rules.dice import ScriptedSource
from afdesk.rules.odds import Cooperation, PoolSpec
from afdesk.rules.rulesets import ruleset_named
from tests.encounter.test_dispute_checks import playing


def for_lan(enc, who: str = "bao", via: str = "guard") -> DefenseOption:
    plan = assemble(enc, "huang", CheckKind.TAUNT, "lan")
    return next(
        o
        for o in plan.defenses
        if o.defender == who and o.kind is DefenseKind.RETORT and o.via.value == via
    )


def own_insight(flow: ContestFlow) -> DefenseOption:
    return next(
        o
        for o in flow.plan.usable_defenses()
        if o.defender == "lan" and o.kind is DefenseKind.INSIGHT and o.via is Via.GUARD
    )


def taunt_rolled(enc, faces=(5, 5, 1, 1)) -> ContestFlow:
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.TAUNT, "lan"))
    flow.hits = 1
    flow.roll_attack(ScriptedSource(faces))
    assert flow.attack_succeeded()
    return flow


def test_p5_the_plan_lists_a_retort_by_each_character_on_another_side():
    enc = playing()  # Huang (magistrate) taunts Widow Lan (bridge); Elder Bao (mill)
    plan = assemble(enc, "huang", CheckKind.TAUNT, "lan")
    others = [o for o in plan.defenses if o.defender != "lan"]
    assert [(o.defender, o.kind, o.via, o.allowed) for o in others] == [
        ("bao", DefenseKind.RETORT, Via.GUARD, True)
    ]
    bao = enc.combatant("bao")
    assert others[0].facet == "influence" and others[0].dice == bao.facet("influence")
    # a Convince at a personality and a Distract are social too (P5)
    distract = assemble(enc, "huang", CheckKind.DISTRACT, "lan")
    assert any(o.defender == "bao" for o in distract.defenses)
    # nobody retorts for the neutral audience, which makes no defence (P4a)
    assert assemble(enc, "huang", CheckKind.CONVINCE, "").defenses == ()


def test_p5_nobody_on_the_attackers_side_is_offered_and_a_used_guard_says_why():
    enc = playing()
    enc.apply(MoveDisputant("bao", "magistrate"))  # Bao now stands with Huang
    plan = assemble(enc, "huang", CheckKind.TAUNT, "lan")
    assert not [o for o in plan.defenses if o.defender == "bao"]
    enc = playing()
    e = enc.combatant("bao").economy
    enc.apply(SetEconomy("bao", msgspec.structs.replace(e, guards=0)))
    option = for_lan(enc)
    assert not option.allowed and "(E4)" in option.reason and "guard is used" in option.reason


def test_p5_r11_the_retort_cooperates_with_the_targets_insight_with_exact_odds():
    enc = playing()
    flow = taunt_rolled(enc)
    flow.choose_defense(for_lan(enc), own_insight(flow))
    assert [o.defender for o in flow.defense] == ["lan", "bao"]  # the target's leads
    rules = ruleset_named(enc.ruleset)
    lead, helper = PoolSpec(*flow.defense_pools(0)), PoolSpec(*flow.defense_pools(1))
    assert flow.defense_spec() == rules.opposition_spec(lead, helper)
    assert isinstance(flow.defense_spec(), Cooperation)  # R11 counted in the odds
    with_help = flow.odds().p_attack_lands
    alone = ContestFlow(enc, flow.plan)
    alone.attack = flow.attack
    alone.choose_defense(own_insight(flow))
    assert with_help < alone.odds().p_attack_lands  # two defenders stop it more often
    # Bao's retort 4, 4, 2 (Interference 1, R11): Gain 2 buys Lan two retries of her
    # Fails 1, 1: 6 and 3; her 6 beats Huang's 5 (R9)
    flow.roll_defense(ScriptedSource([4, 4, 2, 1, 1, 1, 6, 3]))
    assert flow.verdict_now().stopped
    enc.apply(flow.op())
    assert enc.combatant("bao").economy.guards == 0  # Bao's guard is spent (E4)
    assert enc.combatant("lan").economy.guards == 0
    assert enc.dispute.entry("lan").grit == 1  # stopped: no grit lost
    line = enc.log[-1].text
    assert "Widow Lan uses insight with Elder Bao's retort (P5)" in line


def test_p5_a_retort_alone_answers_for_the_target_and_undo_is_exact():
    enc = playing()
    before = enc.state()
    flow = taunt_rolled(enc)
    flow.choose_defense(for_lan(enc))
    flow.roll_defense(ScriptedSource([6, 3, 1, 1]))  # Bao: 6 (+3), 1, 1: 6 beats 5
    op = flow.op()
    inverse = enc.apply(op)
    assert enc.combatant("bao").economy.guards == 0
    assert enc.combatant("lan").economy.guards == 1  # Lan spent nothing
    assert enc.dispute.entry("lan").grit == 1
    assert "Elder Bao retorts for Widow Lan (P5)" in enc.log[-1].text
    enc.apply(inverse)
    assert enc.state() == msgspec.structs.replace(before, log=enc.state().log)


def test_p5_quips_extra_retort_belongs_to_the_retorting_character():
    enc = playing()
    e = enc.combatant("bao").economy
    enc.apply(SetEconomy("bao", msgspec.structs.replace(e, guards=0)))
    enc.apply(AddState("bao", StateKind.QUIPPING))
    quip = for_lan(enc, via="quip")
    assert quip.allowed  # the quip's retort needs no guard (P5, E5)
    flow = taunt_rolled(enc)
    flow.choose_defense(quip)
    flow.roll_defense(ScriptedSource([6, 3, 1, 1]))
    enc.apply(flow.op())
    assert enc.combatant("bao").economy.guards == 0 and enc.dispute.entry("lan").grit == 1


def _crafted(flow: ContestFlow, d: DefenseUse):
    return msgspec.structs.replace(
        flow.op(), record=msgspec.structs.replace(flow.record(), defenses=(d,))
    )


def test_p5_refusals_name_their_rule_and_change_nothing():
    enc = playing()
    flow = taunt_rolled(enc)
    flow.choose_defense(for_lan(enc))
    flow.roll_defense(ScriptedSource([6, 3, 1, 1]))
    [use] = flow.record().defenses
    before = enc.state()
    cases = {
        "(E8)": msgspec.structs.replace(use, kind=DefenseKind.INSIGHT),  # insight: only oneself
        "(P5)": msgspec.structs.replace(use, defender="huang"),  # the attacker itself
    }
    for rule, d in cases.items():
        with pytest.raises(IllegalOp, match=rf"\{rule[:-1]}\)"):
            enc.apply(_crafted(flow, d))
        assert enc.state() == before
    helped = taunt_rolled(playing())
    enc2 = helped.enc
    helped.choose_defense(for_lan(enc2), own_insight(helped))
    helped.roll_defense(ScriptedSource([4, 4, 2, 1, 1, 1, 6, 3]))
    [lead] = helped.record().defenses
    assert lead.helper is not None and lead.helper.defender == "bao"
    insight_helper = msgspec.structs.replace(lead.helper, kind=DefenseKind.INSIGHT)
    before2 = enc2.state()
    with pytest.raises(IllegalOp, match=r"only a retort answers for another \(P5\)"):
        enc2.apply(_crafted(helped, msgspec.structs.replace(lead, helper=insight_helper)))
    assert enc2.state() == before2
    enc.apply(MoveDisputant("bao", "magistrate"))  # now on the attacker's side
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"another side.*\(P5\)"):
        enc.apply(flow.op())
    assert enc.state() == before
