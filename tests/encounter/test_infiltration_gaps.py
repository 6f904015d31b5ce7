"""The infiltration's last rule gaps in the model: one watch step per guardian per turn
(N3), a hidden character's fumble costing a decoy (N4d), Maneuver while hidden moving the
decoys (N5) and the target's perception against a surprise attack (N7)."""

from __future__ import annotations

import pytest

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind, assemble, assemble_on_map
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.infiltration.decisions import fumble_decisions
from afdesk.encounter.infiltration.ops import (
    ConfirmWatch,
    EliminateDecoy,
    HiddenActsFrom,
    LoseDecoy,
    Reveal,
    SurpriseAttack,
)
from afdesk.encounter.infiltration.perception import (
    PERCEIVE,
    PerceptionCheck,
    after_perception,
    perception_refusal,
    perception_text,
    surprise_plan,
)
from afdesk.encounter.infiltration.setup import MoveDecoys
from afdesk.encounter.infiltration.watch import decoy_reach, watch_refusal, watch_steps
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import AddState, EditCombatant, PlaceCombatant, SetFacing
from afdesk.encounter.state import Mode, Phase
from afdesk.rules.dice import ScriptedSource
from afdesk.rules.odds import PoolSpec
from afdesk.rules.rulesets import ruleset_named
from afdesk.storage.samples import build_warehouse
from tests.encounter.conftest import start_round, turn_of
from tests.encounter.test_infiltration_play import _ambush

# ------------------------------------------------------------------ N3 once a turn


def test_n3_a_second_watch_step_in_the_same_turn_is_refused_and_changes_nothing():
    enc = build_warehouse()
    start_round(enc)
    turn_of(enc, "guard-1")
    steps = watch_steps(enc)
    assert {s.id for s in steps} == {"guard-1", "guard-2", "foreman"}
    enc.apply(ConfirmWatch(steps))  # Confirm all: each guardian one step
    assert watch_steps(enc) == ()  # nothing more is proposed this turn
    assert "Dock Guard 1 has already taken its watch step this turn" in watch_refusal(
        enc, "guard-1"
    )
    before = enc.state()
    again = ConfirmWatch((steps[0].__class__("guard-1", _beside(enc, "guard-1"), 0.0, (3, 2)),))
    with pytest.raises(IllegalOp, match=r"already taken its watch step this turn.*\(N3\)"):
        enc.apply(again)
    assert enc.state() == before
    # the guardian's next turn brings its next watch step (N3)
    while enc.turn.phase is Phase.TURNS:
        enc.apply(NextTurn())
    start_round(enc, deal=False)
    turn_of(enc, "guard-1")
    assert watch_refusal(enc, "guard-1") == ""
    assert "guard-1" in {s.id for s in watch_steps(enc)}


def _beside(enc, cid):
    a = enc.combatant(cid).area
    return (a[0], a[1] + 1)


# ------------------------------------------------------------------ N4d fumble


def _fumble(enc, who: str = "ann") -> None:
    """``who`` fumbles a plain sneak check: no Win, two Interference Wins left (R6)."""
    plan = assemble(enc, who, CheckKind.CHECK, facet="sneak")
    flow = ContestFlow(enc, plan)
    flow.add_gm_modifier("Dark", -2)
    flow.roll_attack(ScriptedSource([1] * plan.dice + [5, 5]))
    enc.apply(flow.op())


def test_n4d_a_hidden_characters_fumble_proposes_the_loss_of_a_decoy_it_picks():
    enc = _ambush()
    assert fumble_decisions(enc) == []
    _fumble(enc)
    assert "Fumble while hidden: Ann loses a decoy, Ann's owner picks which (N4d, R6)" in (
        enc.log[-1].text
    )
    ann = enc.combatant("ann")
    assert ann.hidden and ann.decoys == ((5, 6), (6, 6))  # nothing lost before the pick
    (d,) = fumble_decisions(enc)
    assert d.about == "ann" and "(N4d)" in d.text
    assert [c.label for c in d.choices] == ["Lose (5, 6)", "Lose (6, 6)"]
    assert [c.op for c in d.choices] == [LoseDecoy("ann", (5, 6)), LoseDecoy("ann", (6, 6))]
    inverse = enc.apply(d.choices[1].op)
    ann = enc.combatant("ann")
    assert ann.hidden and ann.decoys == ((5, 6),) and fumble_decisions(enc) == []
    assert "Ann loses the decoy at (6, 6) to the fumble (N4d)" in enc.log[-1].text
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"Ann has no fumble to pay for.*\(N4d\)"):
        enc.apply(LoseDecoy("ann", (5, 6)))
    assert enc.state() == before
    enc.apply(inverse)  # undone: the decision is back
    assert len(fumble_decisions(enc)) == 1


def test_n4d_with_one_decoy_left_the_fumble_takes_it_and_reveals_the_character():
    enc = _ambush()
    enc.apply(EliminateDecoy("ann", (6, 6)))
    _fumble(enc)
    (d,) = fumble_decisions(enc)
    assert [c.label for c in d.choices] == ["Lose (5, 6)"]
    assert "its last decoy" in d.text and d.text.endswith("revealed there (N4d, N5)")
    enc.apply(d.choices[0].op)
    ann = enc.combatant("ann")
    assert not ann.hidden and ann.area == (5, 6) and ann.decoys == ()
    assert enc.infiltration.alarm  # N6: the first intruder revealed
    assert "Ann is revealed there (N5)" in enc.log[-1].text


def test_n4d_a_fumble_out_of_hiding_or_outside_an_infiltration_proposes_nothing():
    enc = _ambush(Mode.BATTLE)
    _fumble(enc)
    assert "N4d" not in enc.log[-1].text
    assert fumble_decisions(enc) == []
    enc = _ambush()
    enc.apply(Reveal("ann", (5, 6)))
    _fumble(enc)
    assert fumble_decisions(enc) == [] and "N4d" not in enc.log[-1].text


def test_n4d_the_decision_waits_among_the_pending_decisions():
    from afdesk.encounter.pending import pending_decisions

    enc = _ambush()
    _fumble(enc)
    assert [d.kind for d in pending_decisions(enc)] == ["decoy"]
    assert pending_decisions(enc) == fumble_decisions(enc)


# ------------------------------------------------------------------ N5 decoys move


def test_n5_a_maneuver_while_hidden_moves_each_decoy_within_the_speed():
    enc = _ambush()  # Ann hidden at (5, 5), decoys (5, 6) and (6, 6); the orc at (5, 8)
    assert set(decoy_reach(enc, "ann", (5, 6))) >= {(3, 6), (5, 4), (7, 4)}
    assert (2, 6) not in decoy_reach(enc, "ann", (5, 6))  # 3 areas: past the speed 2
    inverse = enc.apply(MoveDecoys("ann", (((5, 6), (4, 5), (3, 4)), ((6, 6), (7, 5)))))
    ann = enc.combatant("ann")
    assert ann.hidden and ann.decoys == ((3, 4), (7, 5))
    assert ann.economy.action_used == "maneuver" and not ann.economy.action  # E6
    assert (
        enc.log[-1].text
    ) == "Ann maneuvers while hidden: decoys (5, 6) -> (3, 4), (6, 6) -> (7, 5) (N5)"
    enc.apply(inverse)
    assert enc.combatant("ann").decoys == ((5, 6), (6, 6))


def test_n5_a_decoy_past_the_speed_is_refused_and_nothing_changes():
    enc = _ambush()
    before = enc.state()
    too_far = MoveDecoys("ann", (((5, 6), (4, 6), (3, 6), (2, 6)),))
    with pytest.raises(IllegalOp, match=r"moves up to Ann's speed, 2 area\(s\); that path costs 3"):
        enc.apply(too_far)
    assert enc.state() == before
    with pytest.raises(IllegalOp, match=r"no decoy at \(1, 1\) to move \(N5\)"):
        enc.apply(MoveDecoys("ann", (((1, 1), (2, 2)),)))
    with pytest.raises(IllegalOp, match=r"cannot end in one area \(N5\)"):
        enc.apply(MoveDecoys("ann", (((5, 6), (6, 5)), ((6, 6), (6, 5)))))
    assert enc.state() == before


def test_n5_a_decoy_moved_into_a_guardians_area_or_clear_line_is_lost():
    enc = _ambush()  # the orc at (5, 8) faces south: row 8 and below are in front of it
    enc.apply(MoveDecoys("ann", (((5, 6), (5, 7), (5, 8)), ((6, 6), (7, 7), (8, 8)))))
    text = enc.log[-1].text
    assert "the decoy at (5, 8) is lost, in Orc's area (N4b)" in text
    assert "the decoy at (8, 8) is lost, in Orc's clear line (N4a)" in text
    assert "Ann is revealed at (8, 8) (N5); the alarm is raised (N6)" in text
    ann = enc.combatant("ann")
    assert not ann.hidden and ann.area == (8, 8) and enc.infiltration.alarm


def test_n5_one_decoy_lost_keeps_the_character_hidden_at_the_other():
    enc = _ambush()
    enc.apply(HiddenActsFrom("ann", (6, 6)))  # Ann is at her decoy (6, 6)
    enc.apply(MoveDecoys("ann", (((6, 6), (6, 7), (6, 8)),)))  # into the orc's sight
    ann = enc.combatant("ann")
    assert ann.hidden and ann.decoys == ((5, 6),) and ann.area == (5, 6)


# ------------------------------------------------------------------ N7 perception


def _facing_ann():
    """Ann hidden at her decoy (5, 6); the orc at (5, 7) facing her (north): in battle it
    could parry; Ann's turn."""
    enc = _ambush()
    enc.apply(HiddenActsFrom("ann", (5, 6)))
    enc.apply(PlaceCombatant("orc", (5, 7)))
    enc.apply(SetFacing("orc", 0.0, override=True))
    return enc


def _attack(enc, plan, perception=None, defense=None, faces=(5, 5), defense_faces=(1, 1)):
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource(list(faces)))
    if defense is not None:
        flow.choose_defense(defense)
        flow.roll_defense(ScriptedSource(list(defense_faces)))
    return SurpriseAttack(flow.record(), perception=perception)


def test_n7_nothing_contests_a_surprise_attack_until_the_perception_stands():
    enc = _facing_ann()
    plan = assemble(enc, "ann", CheckKind.HACK, "orc")
    assert plan.surprise and not plan.usable_defenses()
    parry = next(d for d in plan.defenses if d.kind.value == "parry" and d.via.value == "guard")
    assert parry.reason == (
        f"nothing contests a surprise attack unless Orc's perception stands ({PERCEIVE}, N7)"
    )
    assert perception_refusal(enc, plan) == ""
    battle = _ambush(Mode.BATTLE)  # in battle the parry stays open and nothing is offered
    assert "infiltration (N7)" in perception_refusal(
        battle, assemble(battle, "ann", CheckKind.HACK, "orc")
    )


def test_n7_the_perception_has_exact_odds_from_study_against_sneak():
    enc = _facing_ann()
    check = PerceptionCheck(enc, assemble(enc, "ann", CheckKind.HACK, "orc"))
    assert check.study_pools() == (2, 0) and check.sneak_pools() == (2, 0)
    odds = check.odds_query()()
    rules = ruleset_named(enc.ruleset)
    assert check.higher_card  # Ann's card is the higher: a full tie goes to her sneak (R9)
    same = rules.contest_odds(PoolSpec(2, 0), PoolSpec(2, 0), defense_wins_ties=True)
    assert odds == same and 0 < odds.p_attack_lands < odds.p_attacker_succeeds < 1


def test_n7_a_perception_that_stands_lets_the_attack_be_contested_but_not_dodged():
    enc = _facing_ann()
    enc.apply(AddState("orc", StateKind.DEFENDING))  # a defense against every check (E6)
    plan = assemble(enc, "ann", CheckKind.HACK, "orc")
    check = PerceptionCheck(enc, plan)
    p = check.roll(ScriptedSource([5, 4, 1, 2]))  # study 5 stands against a failed sneak
    assert p.stands(enc.ruleset)
    assert check.text() == (
        "Orc tries to perceive Ann (study [5,4]) against Ann's sneak [1,2]: "
        "the perception stands (N7)"
    )
    seen = surprise_plan(enc, assemble_on_map(enc, "ann", CheckKind.HACK, "orc", "", ""), True)
    usable = {(d.kind.value, d.via.value) for d in seen.usable_defenses()}
    assert usable == {("parry", "defense")}  # the guard went to the perception, no dodge
    guard = next(d for d in seen.defenses if (d.kind.value, d.via.value) == ("parry", "guard"))
    assert guard.reason == "Orc's guard went to its perception (N7, E4)"
    dodge = next(d for d in seen.defenses if d.kind.value == "dodge" and d.via.value == "defense")
    assert dodge.reason == "a dodge cannot answer a surprise attack (E8)"
    parry = next(d for d in seen.usable_defenses())
    op = _attack(enc, seen, p, parry, faces=(5, 5), defense_faces=(6, 1, 2))
    inverse = enc.apply(op)
    orc = enc.combatant("orc")
    assert orc.economy.guards == 0 and not orc.has(StateKind.DOWN)  # stopped, and no down
    text = enc.log[-1].text
    assert text.startswith("Orc tries to perceive Ann (study [5,4])")
    assert "Orc parries (defense)" in text and "(N7)" in text
    enc.apply(inverse)
    assert enc.combatant("orc").economy.guards == 1


def test_n7_a_perception_that_stands_and_no_defense_leaves_no_one_down():
    enc = _facing_ann()
    plan = assemble(enc, "ann", CheckKind.HACK, "orc")
    p = PerceptionCheck(enc, plan).roll(ScriptedSource([5, 4, 1, 2]))
    op = _attack(enc, plan, p)
    assert op.record.verdict(enc.ruleset).lands
    enc.apply(op)
    orc = enc.combatant("orc")
    assert not orc.has(StateKind.DOWN)  # it saw the blow coming
    assert "left down" not in enc.log[-1].text


def test_n7_a_perception_that_does_not_stand_leaves_the_attack_uncontested_and_down():
    enc = _facing_ann()
    plan = assemble(enc, "ann", CheckKind.HACK, "orc")
    p = PerceptionCheck(enc, plan).roll(ScriptedSource([1, 2]))  # the study fails
    assert not p.stands(enc.ruleset) and p.sneak is None  # R9: no sneak against a failure
    assert "the perception fails (N7)" in perception_text("Orc", "Ann", p, enc.ruleset)
    parry = next(
        d
        for d in assemble_on_map(enc, "ann", CheckKind.HACK, "orc", "", "").defenses
        if (d.kind.value, d.via.value) == ("parry", "guard")
    )
    before = enc.state()
    with pytest.raises(
        IllegalOp,
        match=r"nothing contests Ann's surprise attack: Orc did not "
        r"perceive Ann \(N7\)",
    ):
        enc.apply(_attack(enc, plan, p, parry))
    assert enc.state() == before
    enc.apply(_attack(enc, plan, p))
    orc = enc.combatant("orc")
    assert orc.has(StateKind.DOWN) and orc.economy.guards == 0  # the guard was spent (N7)
    assert "Orc is left down (N7)" in enc.log[-1].text


def test_n7_e8_a_plain_check_cannot_contest_a_surprise_attack_with_a_defense():
    enc = _facing_ann()
    parry = next(
        d
        for d in assemble_on_map(enc, "ann", CheckKind.HACK, "orc", "", "").defenses
        if (d.kind.value, d.via.value) == ("parry", "guard")
    )
    op = _attack(enc, assemble(enc, "ann", CheckKind.HACK, "orc"), None, parry)
    with pytest.raises(IllegalOp, match=r"did not perceive Ann \(N7\)"):
        enc.apply(ResolveContest(op.record))
    battle = _ambush(Mode.BATTLE)
    battle.apply(PlaceCombatant("orc", (5, 6)))
    dodge = next(
        d
        for d in assemble_on_map(battle, "ann", CheckKind.HACK, "orc", "", "").defenses
        if (d.kind.value, d.via.value) == ("dodge", "guard")
    )
    flow = ContestFlow(battle, assemble(battle, "ann", CheckKind.HACK, "orc"))
    flow.roll_attack(ScriptedSource([5, 5]))
    flow.defense = (dodge,)  # as a hand-made record would: the dialog never offers it
    flow.defense_roll = flow.rules.roll_check(2, 0, source=ScriptedSource([4, 4]))
    with pytest.raises(IllegalOp, match=r"a dodge cannot answer a surprise attack \(E8\)"):
        battle.apply(flow.op())


def test_n7_the_perception_needs_the_guard_and_a_surprise_attack():
    enc = _facing_ann()
    plan = assemble(enc, "ann", CheckKind.HACK, "orc")
    p = PerceptionCheck(enc, plan).roll(ScriptedSource([5, 4, 1, 2]))
    orc = enc.combatant("orc")
    enc.apply(EditCombatant(orc.with_economy(guards=0)))
    assert perception_refusal(enc, plan) == "Orc's guard is used: a perception spends it (N7, E4)"
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"guard is used: a perception spends it \(N7, E4\)"):
        enc.apply(_attack(enc, plan, p))
    assert enc.state() == before


# ------------------------------------------------------------------ the players' ticker


def test_n8_the_ticker_says_an_intruder_gets_out_by_its_edge():
    from afdesk.encounter.ops.meta import ChangeMode
    from afdesk.encounter.ops.roster import ExitCombatant
    from afdesk.encounter.ticker import RESULT, seen_by_players, ticker_lines
    from afdesk.encounter.zone import Edge

    def said(enc, op):
        seen, n = seen_by_players(enc), len(enc.log)
        enc.apply(op)
        return [t.text for t in ticker_lines(enc, enc.log[n:], seen, lambda r: RESULT)]

    enc = build_warehouse()
    enc.apply(Reveal("huang", (1, 2)))
    enc.apply(PlaceCombatant("huang", (1, 0)))
    assert said(enc, ExitCombatant("huang", Edge.NORTH)) == ["Huang gets out by the north edge"]
    battle = build_warehouse()
    battle.apply(Reveal("huang", (1, 2)))
    battle.apply(ChangeMode(Mode.BATTLE))
    battle.apply(PlaceCombatant("huang", (1, 0)))
    assert said(battle, ExitCombatant("huang", Edge.NORTH)) == ["Huang leaves the fight"]


def test_n7_an_extra_guard_still_contests_after_the_perception_spent_one():
    enc = _facing_ann()
    orc = enc.combatant("orc")
    enc.apply(EditCombatant(orc.with_economy(guards=2)))  # Defend's extra guard (E6)
    plan = assemble(enc, "ann", CheckKind.HACK, "orc")
    p = PerceptionCheck(enc, plan).roll(ScriptedSource([5, 4, 1, 2]))
    seen = after_perception(enc, plan, p)
    assert ("parry", "guard") in {(d.kind.value, d.via.value) for d in seen.usable_defenses()}
    parry = next(d for d in seen.usable_defenses() if d.kind.value == "parry")
    enc.apply(_attack(enc, seen, p, parry, faces=(5, 5), defense_faces=(6, 1, 2)))
    assert enc.combatant("orc").economy.guards == 0  # one to perceive, one to parry
    assert "Orc parries" in enc.log[-1].text
