"""Regressions for what a GM hit and what the code review found."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter import persevere
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.contest.ops import Persevere, PersevereResult, persevere_passed
from afdesk.encounter.economy import SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import UseSnap
from afdesk.encounter.ops.flow import EndEncounter, NextTurn
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AddMomentum, AddState, PlaceCombatant, SetDecoys
from afdesk.encounter.ops.zone import ExtendZone
from afdesk.encounter.state import Phase
from afdesk.encounter.zone import Edge
from afdesk.rules import d20
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from afdesk.storage import samples as sample
from tests.encounter.conftest import band, foe, make, start_round


def duel():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def test_ops_built_from_plain_strings_are_made_whole():
    """Combo boxes hand enums back as str: the model takes the real types, or says why."""
    enc = duel()
    enc.apply(AddState("huang", "bleeding", 2))  # a str, as QComboBox.currentData() gives
    st = enc.combatants["huang"].state(StateKind.BLEEDING)
    assert st is not None and st.kind is StateKind.BLEEDING and st.label() == "Bleeding 2"
    assert enc.log[-1].op.kind is StateKind.BLEEDING
    with pytest.raises(IllegalOp, match="AddState is malformed"):
        enc.apply(AddState("huang", "sleepy"))


def test_a_landed_attack_deals_its_damage_and_momentum_damage():
    enc = duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    flow.set_ventures(1)
    flow.roll_attack(ScriptedSource([5, 4, 1, 1]))  # 5 with a 4 and a Venture: 1 Momentum
    flow.hits = 2
    flow.use_momentum(Role.ATTACKER, "damage", dice=1)
    with pytest.raises(IllegalOp, match="no Momentum left"):
        flow.use_momentum(Role.ATTACKER, "damage", dice=1)
    enc.apply(flow.op())
    assert enc.combatants["gao"].hits == 3
    assert "Bandit" not in enc.log[-1].text and "takes 3 hits" in enc.log[-1].text


def test_no_damage_when_the_attack_is_stopped():
    enc = duel()
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 1]))
    flow.hits = 4
    dodge = next(d for d in plan.defenses if d.kind is DefenseKind.DODGE and d.via is Via.GUARD)
    flow.choose_defense(dodge)
    flow.roll_defense(ScriptedSource([6, 2, 1]))
    enc.apply(flow.op())
    assert enc.combatants["gao"].hits == 0


def test_hustle_is_a_check_with_its_modifiers():
    """Prepared counts on the Hustle's move check and is used up by it (E5)."""
    enc = duel()
    enc.apply(AddMomentum("huang", 2, "a friend's shout"))
    plan = assemble(enc, "huang", CheckKind.HUSTLE)
    assert plan.allowed and any(m.key == "momentum-0" for m in plan.modifiers)
    flow = ContestFlow(enc, plan)
    assert flow.attack_pools() == (4, 0)
    flow.roll_attack(ScriptedSource([5, 1, 1, 1]))
    enc.apply(flow.op())
    huang = enc.combatants["huang"]
    assert huang.economy.movement > 0 and huang.momentum == ()
    assert huang.economy.snaps == 0


def test_creep_is_a_check_that_can_lose_a_decoy():
    enc = duel()
    enc.apply(AddState("huang", StateKind.HIDDEN))
    enc.apply(SetDecoys("huang", ((4, 5), (6, 5))))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.CREEP))
    flow.decoy = (6, 5)
    flow.roll_attack(ScriptedSource([1, 2]))
    enc.apply(flow.op())
    assert enc.combatants["huang"].decoys == ((4, 5),)


def test_decoys_go_in_two_areas():
    enc = duel()
    enc.apply(AddState("huang", StateKind.HIDDEN))
    with pytest.raises(IllegalOp, match="two different areas"):
        enc.apply(SetDecoys("huang", ((4, 5), (4, 5))))


def test_momentum_markers_are_two_either_way():
    enc = duel()
    with pytest.raises(IllegalOp, match=r"\+2 or -2 \(R12\), not \+1"):
        enc.apply(AddMomentum("huang", 1))


def test_distract_interference_cites_its_own_rule():
    enc = duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.DISTRACT, "gao"))
    flow.roll_attack(ScriptedSource([5, 4]))
    enc.apply(flow.op())
    enc.apply(NextTurn())
    plan = assemble(enc, "gao", CheckKind.HACK, "huang")
    marker = next(m for m in plan.modifiers if m.key == "momentum-0")
    assert marker.label == "Distracted" and marker.rule == "E5" and marker.dice == -1


def test_a_refused_shift_changes_nothing():
    enc = make(band("huang", (5, 5), will=2), foe("gao", (5, 4)))
    start_round(enc, ["huang", "opponent:Foes"])
    enc.apply(SetRuleset("af-classic"))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 4]))
    dodge = next(d for d in plan.defenses if d.kind is DefenseKind.DODGE and d.via is Via.GUARD)
    flow.choose_defense(dodge)
    flow.roll_defense(ScriptedSource([2, 1]))
    flow.pass_turn(Role.DEFENDER)  # the losing side had the first say (R10)
    before = (flow.shift_exchange, flow.attack, list(flow.spends))
    assert "before the opposition" in flow.spend_refusal(Role.ATTACKER, "will")
    with pytest.raises(IllegalOp):
        flow.spend(Role.ATTACKER, "will")
    assert (flow.shift_exchange, flow.attack, list(flow.spends)) == before


def test_venture_limit_comes_from_the_rules():
    enc = duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    assert flow.max_ventures() == 3  # 0, 2, 4 Interference when declared (R8)
    flow.add_gm_modifier("Mud", -2)
    assert flow.max_ventures() == 2
    flow.set_ventures(2)
    assert flow.interference_total() == 6


def test_the_trim_proposal_keeps_tiles_holding_a_decoy():
    enc = make(band("huang", (5, 0)))
    enc.apply(ExtendZone(Edge.NORTH, ("meadow",) * 3))
    enc.apply(AddState("huang", StateKind.HIDDEN))
    assert enc.trim_proposal() == [Edge.NORTH]
    enc.apply(PlaceCombatant("huang", (5, 0)))
    enc.apply(SetDecoys("huang", ((5, -1), (6, 0))))
    assert enc.trim_proposal() == [Edge.SOUTH]  # the north row holds a decoy now


def played(enc, exchanges: int):
    for n in range(exchanges):
        enc.apply(deal_hands(enc, random.Random(n)))
        while enc.turn.phase is not Phase.EXCHANGE_END:
            if enc.turn.phase is Phase.CARDS:
                enc.apply(play_cards(enc, rng=random.Random(n * 10 + enc.turn.round)))
            else:
                enc.apply(NextTurn())
    enc.apply(EndEncounter())


def test_persevere_needs_exactly_the_characters_still_there():
    enc = sample.build()
    played(enc, 2)
    op = persevere.roll(enc, ScriptedSource([5] * 40))
    with pytest.raises(IllegalOp, match="missing: Green-Jade Huang"):
        enc.apply(Persevere(tuple(r for r in op.results if r.id != "huang")))
    enc.apply(op)


def test_d20_persevere_margin_must_exceed_the_days():
    enc = sample.build()
    enc.apply(SetRuleset("d20-degrees"))
    played(enc, 2)
    check = d20.D20Check(die=12, bonus=0, tn=10, fortification=0)  # 12 vs TN 10, F 0
    assert check.degree is d20.Degree.SUCCESS
    assert persevere_passed(enc, PersevereResult("huang", d20=check, days=0)) == (True, 0)
    assert persevere_passed(enc, PersevereResult("huang", d20=check, days=1)) == (False, 0)
    plan = {p.id: p for p in persevere.plan(enc)}
    assert 0 < plan["huang"].p_pass < 1


def test_nobody_left_means_no_persevere():
    enc = make(band("huang", (5, 0)))
    played(enc, 2)
    assert persevere.due(enc)
    from afdesk.encounter.ops.roster import ExitCombatant

    enc2 = make(band("huang", (5, 0)))
    enc2.apply(deal_hands(enc2, random.Random(0)))
    enc2.apply(play_cards(enc2, rng=random.Random(1)))
    enc2.apply(ExitCombatant("huang", Edge.NORTH))
    assert not persevere.due(enc2)


def test_a_prepared_snap_still_works_after_the_refactor():
    enc = duel()
    enc.apply(UseSnap("huang", SnapKind.PREPARE))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    m = next(m for m in plan.modifiers if m.key == "prepared")
    # used up by the check that counts it (E5): its row says so, no marker sentinel
    assert m.one_shot and m.marker is None and m.dice == 2
