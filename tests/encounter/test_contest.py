"""Contested checks: assembly from the map (E4-E8, E12-E14, E17, R12), the flow with Shifts
(R9-R11), and what the resolved Op does."""

from __future__ import annotations

import pytest

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble, combinable
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import TakeAction, UseSnap
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.roster import AddMomentum, AddState, PlaceCombatant
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from tests.encounter.conftest import band, foe, make, start_round


def duel(huang_at=(5, 5), gao_at=(5, 4), gao_facing=180.0, **kw):
    enc = make(band("huang", huang_at, **kw), foe("gao", gao_at, facing=gao_facing))
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def option(plan, kind, via=Via.GUARD):
    return next(d for d in plan.defenses if d.kind is kind and d.via is via)


def test_attack_from_in_front_allows_dodge_and_parry():
    enc = duel()
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert plan.allowed and not plan.behind
    assert option(plan, DefenseKind.DODGE).allowed
    assert option(plan, DefenseKind.PARRY).allowed
    assert not any(m.key == "flank" for m in option(plan, DefenseKind.DODGE).modifiers)


def test_attack_from_behind_the_flank_dodge_minus_two_and_no_parry():
    enc = duel(gao_facing=0.0)  # Gao faces north, away from Huang in the south
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert plan.behind
    dodge = option(plan, DefenseKind.DODGE)
    flank = next(m for m in dodge.modifiers if m.key == "flank")
    assert flank.dice == -2 and flank.rule == "E8" and "behind" in flank.reason
    parry = option(plan, DefenseKind.PARRY)
    assert not parry.allowed and "behind Gao's flank: no parry (E8)" in parry.reason
    assert not option(plan, DefenseKind.COUNTER).allowed


def test_out_of_reach():
    enc = duel(gao_at=(5, 2))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert not plan.allowed and "reach is 1 (E12)" in plan.reason
    with pytest.raises(IllegalOp, match="reach"):
        ContestFlow(enc, plan)


def test_reach_weapon_only_in_front():
    enc = duel(gao_at=(5, 3), reach=2)
    assert assemble(enc, "huang", CheckKind.HACK, "gao").allowed
    enc2 = duel(gao_at=(5, 7), reach=2)
    plan = assemble(enc2, "huang", CheckKind.HACK, "gao")
    assert not plan.allowed and "in front of Huang's flank" in plan.reason


def test_parry_needs_the_attacker_within_the_defenders_reach():
    enc = duel(gao_at=(5, 3), reach=2)
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    parry = option(plan, DefenseKind.PARRY)
    assert not parry.allowed and "outside Gao's reach" in parry.reason


def test_cover_on_the_line():
    # Meadow boulders at (6, 6) in tile (1, 1): Huang (7, 7) shooting at (5, 5) crosses them.
    enc = duel(huang_at=(7, 7), gao_at=(5, 5), weapon_range=6)
    plan = assemble(enc, "huang", CheckKind.AIM, "gao")
    cover = next(m for m in plan.modifiers if m.key == "cover")
    assert cover.dice == -2 and cover.rule == "E13" and "(6, 6)" in cover.reason


def test_range_penalty_and_limit():
    enc = duel(huang_at=(5, 12), gao_at=(5, 5), weapon_range=4)
    plan = assemble(enc, "huang", CheckKind.AIM, "gao")
    assert any(m.key == "range" and m.dice == -2 for m in plan.modifiers)
    far = duel(huang_at=(5, 14), gao_at=(5, 5), weapon_range=4)
    assert not assemble(far, "huang", CheckKind.AIM, "gao").allowed


def test_state_modifiers_with_reasons():
    enc = duel()
    enc.apply(UseSnap("huang", SnapKind.PREPARE))
    enc.apply(AddMomentum("huang", 2, "Chen's kick"))
    enc.apply(AddState("huang", StateKind.STALL))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    keys = {m.key: m for m in plan.modifiers}
    assert keys["prepared"].dice == 2 and keys["prepared"].rule == "E5"
    assert keys["momentum-0"].dice == 2 and keys["momentum-0"].rule == "R12"
    assert keys["stall"].dice == -2
    enc.apply(AddState("gao", StateKind.DOWN))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert any(m.key == "down" for m in option(plan, DefenseKind.DODGE).modifiers)


def test_social_attacks_are_answered_by_insight_only():
    enc = duel()
    plan = assemble(enc, "huang", CheckKind.TAUNT, "gao")
    assert not option(plan, DefenseKind.DODGE).allowed
    assert not option(plan, DefenseKind.PARRY).allowed
    assert option(plan, DefenseKind.INSIGHT).allowed


def test_surprise_attack_cannot_be_dodged():
    enc = duel()
    enc.apply(AddState("huang", StateKind.HIDDEN))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert plan.surprise and not option(plan, DefenseKind.DODGE).allowed


def test_guard_used_is_not_available():
    enc = duel()
    gao = enc.combatants["gao"]
    import msgspec

    from afdesk.encounter.ops.economy import SetEconomy

    enc.apply(SetEconomy("gao", msgspec.structs.replace(gao.economy, guards=0)))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    dodge = option(plan, DefenseKind.DODGE)
    assert not dodge.allowed and "returns on Gao's next turn (E4)" in dodge.reason


def test_defend_adds_defenses_and_guard_may_combine_with_another_type():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    start_round(enc, ["opponent:Foes", "huang"])
    enc.apply(TakeAction("gao", ActionKind.DEFEND))
    enc.apply(NextTurn())
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    guard = option(plan, DefenseKind.DODGE, Via.GUARD)
    defense = option(plan, DefenseKind.PARRY, Via.DEFENSE)
    same = option(plan, DefenseKind.DODGE, Via.DEFENSE)
    assert combinable(guard, defense) == ""
    assert "different types" in combinable(guard, same)
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 4]))
    flow.choose_defense(guard, defense)
    # Guard dodge helps (1 Interference per other cooperator), parry leads (R11, E4).
    flow.roll_defense(ScriptedSource([5, 2, 1, 2, 6, 3, 4]))
    assert flow.helper_roll is not None
    v = flow.verdict_now()
    assert v.stopped
    enc.apply(flow.op())
    gao = enc.combatants["gao"]
    assert gao.economy.guards == 1  # one of two guards used (Defend gave an extra)


def test_flow_resolves_into_one_op_with_its_effects():
    enc = duel()
    enc.apply(UseSnap("huang", SnapKind.PREPARE))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    assert flow.attack_pools() == (4, 0)  # fight 2 + Prepared 2
    before_odds = flow.odds()
    assert 0 < before_odds.p_attack_lands < 1
    flow.roll_attack(ScriptedSource([5, 4, 2, 1]))
    flow.choose_defense(option(plan, DefenseKind.DODGE))
    flow.roll_defense(ScriptedSource([6, 1, 3]))
    assert flow.verdict_now().stopped
    choices = flow.shift_choices(Role.ATTACKER)
    assert set(choices) == {"add", "retry"}
    flow.spend(Role.ATTACKER, "add", source=ScriptedSource([6, 6]))
    assert not flow.verdict_now().stopped
    assert flow.shift_choices(Role.DEFENDER)["add"].p_stopped > 0
    flow.pass_turn(Role.ATTACKER)
    flow.spend(Role.DEFENDER, "add", source=ScriptedSource([6, 6]))  # referee pays
    flow.pass_turn(Role.DEFENDER)
    flow.pass_turn(Role.ATTACKER)
    assert flow.shift_exchange.done
    n_log = len(enc.log)
    enc.apply(flow.op())
    huang, gao = enc.combatants["huang"], enc.combatants["gao"]
    assert not huang.economy.action and huang.shifts == 2
    assert not huang.has(StateKind.PREPARED)  # used by this check (E5)
    assert gao.economy.guards == 0
    assert enc.meta.referee_shifts == 2
    assert len(enc.log) == n_log + 1 and "Gao dodges" in enc.log[-1].text


def test_momentum_markers_placed_after_the_check():
    enc = duel()
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 4]))
    assert flow.momentum(Role.ATTACKER) == 0
    with pytest.raises(IllegalOp, match="no Momentum left"):
        flow.use_momentum(Role.ATTACKER, "marker", "huang", 2)
    enc2 = duel()
    flow2 = ContestFlow(enc2, assemble(enc2, "huang", CheckKind.HACK, "gao"))
    flow2.set_ventures(1)
    flow2.roll_attack(ScriptedSource([5, 4, 1, 1]))
    assert flow2.momentum(Role.ATTACKER) == 1
    flow2.use_momentum(Role.ATTACKER, "marker", "gao", -2)
    enc2.apply(flow2.op())
    assert enc2.combatants["gao"].momentum[0].dice == -2


def test_gm_switches_a_modifier_off_and_adds_one():
    enc = duel(gao_facing=0.0)
    enc.apply(UseSnap("huang", SnapKind.PREPARE))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    flow.set_enabled("prepared", False)
    flow.add_gm_modifier("Slippery rocks", -1)
    assert flow.attack_pools() == (2, 1)
    flow.roll_attack(ScriptedSource([5, 4, 1]))
    with pytest.raises(IllegalOp, match="can no longer change"):
        flow.set_enabled("prepared", True)
    enc.apply(flow.op())
    assert enc.combatants["huang"].has(StateKind.PREPARED)  # switched off: not used


def test_no_action_left_refuses_the_attack_and_changes_nothing():
    enc = duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    flow.roll_attack(ScriptedSource([5, 4]))
    enc.apply(TakeAction("huang", ActionKind.DEFEND))  # the action goes elsewhere meanwhile
    before = enc.state()
    with pytest.raises(IllegalOp, match="already used the action"):
        enc.apply(flow.op())
    assert enc.state() == before
    # Planned now, the check is refused before any die is rolled.
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert not plan.allowed and "already used the action" in plan.reason
    with pytest.raises(IllegalOp, match="already used the action"):
        ContestFlow(enc, plan)


def test_out_of_turn_checks_are_refused_before_rolling():
    enc = duel()
    plan = assemble(enc, "gao", CheckKind.HACK, "huang")
    assert not plan.allowed and "it is Huang's turn" in plan.reason
    assert assemble(enc, "gao", CheckKind.CHECK, facet="strength").allowed  # free


def test_defense_not_rolled_against_a_failed_attack():
    enc = duel()
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([1, 2]))
    flow.choose_defense(option(plan, DefenseKind.DODGE))
    with pytest.raises(IllegalOp, match="nothing to oppose"):
        flow.roll_defense(ScriptedSource([6, 6, 6]))


def test_classic_ruleset_contest():
    enc = duel()
    enc.apply(SetRuleset("af-classic"))
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([4, 5]))
    flow.choose_defense(option(plan, DefenseKind.DODGE))
    flow.roll_defense(ScriptedSource([6, 1, 2]))
    v = flow.verdict_now()
    assert v.succeeds and not v.stopped  # his 6 takes her 4, her 5 stands (C2)
    enc.apply(flow.op())


def test_d20_ruleset_check():
    enc = duel()
    enc.apply(SetRuleset("d20-degrees"))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    assert flow.d20_numbers() == (2, 10, 0)
    flow.roll_attack(ScriptedSource([9]))
    v = flow.verdict_now()
    assert v.degree is not None and v.lands  # 11 vs TN 10: F = 0, so Success
    enc.apply(flow.op())
    assert "Success" in enc.log[-1].text


def test_leave_overlap_lost_limits_the_exit_to_the_front():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 5), facing=0.0))
    start_round(enc, ["huang", "opponent:Foes"])
    enc.apply(TakeAction("huang", ActionKind.MANEUVER))
    plan = assemble(enc, "huang", CheckKind.LEAVE_OVERLAP, "gao")
    assert plan.allowed
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([4, 2]))
    flow.choose_defense(option(plan, DefenseKind.PARRY))
    flow.roll_defense(ScriptedSource([5, 1]))
    enc.apply(flow.op())
    exits = enc.combatants["huang"].economy.exit_to
    assert set(exits) == {(4, 4), (5, 4), (6, 4), (4, 5), (6, 5)}


def test_leave_overlap_won_frees_the_move():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 5)))
    start_round(enc, ["huang", "opponent:Foes"])
    enc.apply(TakeAction("huang", ActionKind.MANEUVER))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.LEAVE_OVERLAP, "gao"))
    flow.roll_attack(ScriptedSource([6, 5, 2]))
    enc.apply(flow.op())
    assert enc.combatants["huang"].economy.exit_free
    from afdesk.encounter import movement

    assert (5, 7) in movement.reachable(enc, "huang")


def test_hide_and_look():
    enc = duel(gao_at=(9, 9))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HIDE))
    flow.decoys = ((4, 5), (6, 5))
    flow.roll_attack(ScriptedSource([5, 2]))
    enc.apply(flow.op())
    huang = enc.combatants["huang"]
    assert huang.hidden and huang.decoys == ((4, 5), (6, 5))
    enc.apply(NextTurn())
    look = ContestFlow(enc, assemble(enc, "gao", CheckKind.LOOK, "huang"))
    look.decoy = (4, 5)
    look.roll_attack(ScriptedSource([5, 3]))
    enc.apply(look.op())
    assert enc.combatants["huang"].decoys == ((6, 5),)


def test_distract_gives_the_target_interference():
    enc = duel()
    plan = assemble(enc, "huang", CheckKind.DISTRACT, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 4]))
    enc.apply(flow.op())
    gao = enc.combatants["gao"]
    assert gao.momentum[-1].dice == -1
    assert enc.combatants["huang"].economy.snaps == 0  # a snap (E5)
    enc.apply(PlaceCombatant("huang", (5, 6)))


def test_one_shot_markers_count_once_on_a_guard_helped_defense():
    """Prepared and a Momentum marker help the leading defense, not also the guard (E5, R12)."""
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    start_round(enc, ["opponent:Foes", "huang"])
    enc.apply(UseSnap("gao", SnapKind.PREPARE))
    enc.apply(TakeAction("gao", ActionKind.DEFEND))
    enc.apply(AddMomentum("gao", 2, "a shout"))
    enc.apply(NextTurn())
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 4]))
    flow.choose_defense(
        option(plan, DefenseKind.DODGE, Via.GUARD), option(plan, DefenseKind.PARRY, Via.DEFENSE)
    )
    lead, helper = flow.defense_pools(0), flow.defense_pools(1)
    assert lead == (2 + 2 + 2, 0)  # fight 2, Prepared +2, Momentum +2
    assert helper == (2, 0)  # move 2 only


def test_penalty_states_give_their_penalty_on_every_check():
    """Down (E17) and Stall (E14): the penalty, its rule and reason come from their rows."""
    from afdesk.encounter import features

    enc = duel()
    penalties = {k: r for k, r in features.STATES.items() if r.bonus and r.bonus.dice < 0}
    assert set(penalties) == {"down", "stall"}
    for kind, row in penalties.items():
        assert row.bonus is not None and row.bonus.checks == {"any"} and row.bonus.dice == -2
        enc.apply(AddState("huang", StateKind(kind)))
        plan = assemble(enc, "huang", CheckKind.HACK, "gao")
        m = next(m for m in plan.modifiers if m.key == kind)
        assert (m.label, m.dice, m.rule) == (row.label, -2, row.rule)
        assert m.reason == row.bonus.why.format(name=enc.combatant("huang").name)
        d = plan.defenses[0]  # the defender is not down: none of it on the other side
        assert all(x.key != kind for x in d.modifiers)


def test_momentum_refusals_are_one_rule():
    """R12: a marker is +2/-2 under af-2.5.4; C3: +1/-1 under af-classic (the ruleset's
    size); damage is +1/-1 under both."""
    from afdesk.encounter.contest.assembly import momentum_refusal

    af = "af-2.5.4"
    assert momentum_refusal("marker", 2, af) == "" and momentum_refusal("damage", -1, af) == ""
    assert "+2 or -2 (R12), not +1" in momentum_refusal("marker", 1, af)
    assert "+1 or -1" in momentum_refusal("damage", 2, af)
    assert "not 'gold'" in momentum_refusal("gold", 0, af)
    assert momentum_refusal("marker", 1, "af-classic") == ""
    assert momentum_refusal("marker", -1, "af-classic") == ""
    assert "+1 or -1 (C3), not +2" in momentum_refusal("marker", 2, "af-classic")
    assert momentum_refusal("damage", 1, "af-classic") == ""


def test_who_pays_and_what_may_be_spent_come_from_the_flow():
    enc = duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    assert flow.party(Role.ATTACKER) == "huang" and flow.party(Role.DEFENDER) == "gao"
    assert flow.payer(Role.ATTACKER) == "huang" and flow.payer(Role.DEFENDER) == "referee"
    flow.roll_attack(ScriptedSource([5, 4]))
    options = flow.spend_options(Role.ATTACKER)
    assert [o.kind.value for o in options] == ["add", "retry"]
    assert options[0].refusal == "" and options[0].odds is not None
    # R10: a Shift retries any dice not yet retried, Wins included.
    assert options[1].refusal == ""
    enc.apply(SetRuleset("af-classic"))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    flow.roll_attack(ScriptedSource([5, 4]))
    assert [o.kind.value for o in flow.spend_options(Role.ATTACKER)] == ["will"]
    assert flow.spend_unit.label == "Will"


@pytest.mark.parametrize("ruleset, counted", [("af-2.5.4", True), ("af-classic", False)])
def test_the_odds_count_a_guards_help_where_the_ruleset_can(ruleset, counted):
    from afdesk.rules import odds

    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    enc.apply(SetRuleset(ruleset))
    start_round(enc, ["opponent:Foes", "huang"])
    enc.apply(TakeAction("gao", ActionKind.DEFEND))
    enc.apply(NextTurn())
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    flow = ContestFlow(enc, plan)
    flow.choose_defense(
        option(plan, DefenseKind.DODGE, Via.GUARD), option(plan, DefenseKind.PARRY, Via.DEFENSE)
    )
    assert isinstance(flow.defense_spec(), odds.Cooperation) is counted
    assert flow.odds_leave_out_guard_help is not counted
