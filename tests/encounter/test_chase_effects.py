"""What special actions start and what stages do, on the encounter (H1, H4, H5):
Screen gives its state, Hide places decoys that must be caught first, Grant's extra die is
rolled and chosen, an attack or a contest is started, cooperation joins the next check;
Attacking leaves a hazard attack, Fluid drowning, Occupied adds a pursuer, Chasm and Steep
falls add the falling state; a vehicle's crew members each check. Every Op undoes exactly."""

from __future__ import annotations

import pytest

from afdesk.encounter.chase.ops import (
    AddVehicle,
    CatchDecoy,
    ChaseCheck,
    CrewCheck,
    EndSpecial,
    EndStageEffect,
    HazardAttack,
    ResolveChase,
    RollPursuit,
    SetParticipant,
    SetStage,
    Special,
    SpecialAction,
)
from afdesk.encounter.chase.order import pname
from afdesk.encounter.chase.state import Vehicle
from afdesk.encounter.combatant import Speeds, StateKind
from afdesk.encounter.contest.assembly import ShiftSpend
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.state import Mode
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from afdesk.rules.rulesets import ruleset_named
from tests.encounter.conftest import band, foe, make, start_round


def chase_of(*extra):
    enc = make(
        band("huang", (2, 2), speeds=Speeds(run=3, climb=1, swim=1)),
        band("chen", (4, 4), speeds=Speeds(run=3)),
        foe("thug", (8, 8)),
        *extra,
    )
    enc.apply(ChangeMode(Mode.CHASE))
    return enc


def applied(enc, op, undo):
    """Apply ``op``; check its inverse returns the exact state before; apply it again."""
    before = enc.state()
    inverse = enc.apply(op)
    enc.apply(inverse)
    assert enc.state() == before
    undo.append(enc.apply(op))


def test_h1_screen_gives_the_screening_state():
    enc = chase_of()
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (6, 2)))
    applied(enc, SpecialAction("huang", Special.SCREEN), [])
    assert enc.combatants["huang"].has(StateKind.SCREENING)
    assert enc.chase.participant("huang").special == 0
    assert "defenses until it can choose an action again" in enc.log[-1].text


def test_h1_hide_places_two_decoys_that_must_be_caught_before_a_capture():
    enc = chase_of()
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (6, 2)))
    with pytest.raises(IllegalOp, match="not next to Huang"):
        enc.apply(SpecialAction("huang", Special.HIDE, decoys=((2, 3), (9, 9))))
    applied(enc, SpecialAction("huang", Special.HIDE, decoys=((2, 3), (3, 3))), [])
    huang = enc.combatants["huang"]
    assert huang.hidden and huang.decoys == ((2, 3), (3, 3))
    assert enc.chase.participant("huang").decoys == 2
    enc.apply(ChaseCheck("huang", True, 1))
    enc.apply(NextTurn())
    # an attack on a hidden participant waits for its decoys (H1)
    enc.apply(RollPursuit("chen", (6, 1)))
    with pytest.raises(IllegalOp, match=r"2 decoy.s. must be caught first"):
        enc.apply(SpecialAction("chen", Special.ATTACK, "huang"))
    applied(enc, CatchDecoy("huang"), [])
    assert enc.combatants["huang"].decoys == ((3, 3),)
    enc.apply(CatchDecoy("huang"))
    assert not enc.combatants["huang"].hidden and not enc.chase.participant("huang").hidden
    with pytest.raises(IllegalOp, match="no decoy left"):
        enc.apply(CatchDecoy("huang"))
    applied(enc, SpecialAction("chen", Special.ATTACK, "huang"), [])
    assert enc.chase.participant("chen").started == "attack:huang"
    assert "at the range penalty" in enc.log[-1].text  # Huang's total is higher
    applied(enc, EndSpecial("chen"), [])
    assert enc.chase.participant("chen").started == ""


def test_h1_capture_of_a_hidden_participant_is_refused_while_it_has_decoys():
    enc = chase_of()
    enc.apply(SetParticipant("thug", total=5))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (6, 1)))
    enc.apply(SpecialAction("huang", Special.HIDE, decoys=((2, 3), (3, 3))))
    for _ in range(5):
        while enc.turn.phase.value == "turns":
            enc.apply(NextTurn())
        if enc.turn.phase.value == "exchange-end":
            break
        start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    with pytest.raises(IllegalOp, match=r"decoy.s. must be caught first"):
        enc.apply(ResolveChase((("thug", "huang"),)))


def test_h1_grant_an_extra_die_rolls_both_and_the_participant_chooses():
    enc = chase_of()
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (6, 2)))
    enc.apply(SpecialAction("huang", Special.GRANT, "chen"))
    enc.apply(ChaseCheck("huang", True, 1))
    enc.apply(NextTurn())
    with pytest.raises(IllegalOp, match="roll both, then choose"):
        enc.apply(RollPursuit("chen", (4,)))
    applied(enc, RollPursuit("chen", (4,), other=(6, 1), chosen=1), [])
    chen = enc.chase.participant("chen")
    assert chen.colours == ("red", "green") and chen.special == 1 and not chen.extra_die
    assert "extra die: rolled blue and red, green, chose the second" in enc.log[-1].text


def test_h1_cooperation_joins_the_next_chase_check():
    enc = chase_of()
    enc.apply(SetParticipant("chen", total=0))
    enc.apply(SetParticipant("huang", total=4))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (6, 2)))
    enc.apply(SpecialAction("huang", Special.COOPERATE, "chen"))
    assert enc.chase.participant("chen").helpers == ("huang",)
    enc.apply(ChaseCheck("huang", True, 1))
    enc.apply(NextTurn())
    enc.apply(RollPursuit("chen", (1,)))
    enc.apply(ChaseCheck("chen", True, 2))
    assert "with Huang cooperating" in enc.log[-1].text
    assert enc.chase.participant("chen").helpers == ()


def _bad_turn(enc, stage, success=False, margin=2, faces=(4,), pid="huang"):
    enc.apply(SetStage(stage, override=True))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit(pid, faces))
    return ChaseCheck(pid, success, margin)


def test_h4_attacking_leaves_a_hazard_attack_that_deals_hits():
    enc = chase_of()
    applied(enc, _bad_turn(enc, ("attacking",), True, 1), [])
    assert enc.chase.participant("huang").hazard == 1
    assert "a hazard attacks" in enc.log[-1].text
    applied(enc, HazardAttack("huang", 2), [])
    assert enc.combatants["huang"].hits == 2 and enc.chase.participant("huang").hazard == 0
    with pytest.raises(IllegalOp, match="no hazard"):
        enc.apply(HazardAttack("huang", 1))


def test_h4_fluid_on_the_bad_colour_begins_drowning_at_the_swim_speed():
    enc = chase_of()
    applied(enc, _bad_turn(enc, ("fluid",), True, 1), [])
    huang = enc.chase.participant("huang")
    assert huang.drowning and huang.round_speed == 0 and huang.out  # swim 1 // 2 = 0
    applied(enc, EndStageEffect("huang", "drowning"), [])
    assert not enc.chase.participant("huang").drowning


def test_h4_occupied_on_the_bad_colour_adds_a_pursuer_tied_with_the_front():
    enc = chase_of()
    enc.apply(SetParticipant("thug", total=6))
    applied(enc, _bad_turn(enc, ("occupied",), True, 1), [])
    extra = enc.chase.participant("pursuer-1")
    assert extra is not None and extra.total == 6 and pname(enc, "pursuer-1") == "Pursuer 1"
    assert "another pursuer joins" in enc.log[-1].text
    # it holds no reflex card: the GM plays it on any turn of the round (H4)
    applied(enc, RollPursuit("pursuer-1", (2,)), [])
    applied(enc, ChaseCheck("pursuer-1", True, 1), [])
    assert enc.chase.participant("pursuer-1").total == 6 + 2 + 1
    with pytest.raises(IllegalOp, match="has rolled the pursuit die this round"):
        enc.apply(RollPursuit("pursuer-1", (2,)))


def test_h4_a_second_chasm_teeter_falls_areas_equal_to_the_total():
    enc = chase_of()
    enc.apply(SetParticipant("huang", total=5))
    applied(enc, _bad_turn(enc, ("chasm",), True, 2), [])
    assert enc.chase.participant("huang").teetering
    assert not enc.combatants["huang"].has(StateKind.FALLING)
    for _ in range(3):
        enc.apply(NextTurn())
    start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    enc.apply(RollPursuit("huang", (5,)))
    applied(enc, ChaseCheck("huang", True, 1), [])
    total = enc.chase.participant("huang").total
    falling = [s for s in enc.combatants["huang"].states if s.kind is StateKind.FALLING]
    assert falling and falling[0].markers == total and "falls" in enc.log[-1].text


def test_h4_steep_failure_is_a_fall_of_that_many_areas():
    enc = chase_of()
    enc.apply(SetParticipant("huang", total=4))
    applied(enc, _bad_turn(enc, ("steep",), False, 1, faces=(1,)), [])
    falling = [s for s in enc.combatants["huang"].states if s.kind is StateKind.FALLING]
    assert falling and falling[0].markers == 1


def test_h5_every_crew_member_checks_and_the_helm_moves_the_vehicle():
    enc = chase_of(foe("driver", (9, 8)), foe("gunner", (9, 9)))
    enc.apply(AddVehicle(Vehicle("cart", "Cart", "thug", "driver", ("gunner",), speed=4)))
    start_round(enc, ["opponent:Foes", "huang", "chen"])
    assert enc.actor in ("thug", "driver", "gunner")
    enc.apply(RollPursuit("cart", (2,)))
    grit = enc.combatants["gunner"].grit
    applied(enc, CrewCheck("cart", "gunner", False, 1), [])
    assert enc.combatants["gunner"].grit == grit - 1
    with pytest.raises(IllegalOp, match="has checked this round"):
        enc.apply(CrewCheck("cart", "gunner", True, 1))
    with pytest.raises(IllegalOp, match="the helm's check moves it"):
        enc.apply(CrewCheck("cart", "driver", True, 1))
    applied(enc, CrewCheck("cart", "thug", True, 2), [])
    helm = enc.combatants["driver"].grit
    enc.apply(ChaseCheck("cart", False, 1))
    assert enc.combatants["driver"].grit == helm - 1  # the helm's check (H5)
    assert enc.chase.participant("cart").total == 2  # half of 4 on the good colour


def test_r10_a_rolled_chase_check_must_match_its_roll_and_pays_its_shifts():
    enc = chase_of()
    rules = ruleset_named(enc.ruleset)
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (1,)))
    roll = rules.roll_check(2, 0, source=ScriptedSource([5, 5]))
    with pytest.raises(IllegalOp, match="comes to success by 2"):
        enc.apply(ChaseCheck("huang", True, 1, roll=roll))
    shifts = enc.combatants["huang"].shifts
    spend = ShiftSpend(Role.ATTACKER, "huang", "add")
    ref = ShiftSpend(Role.DEFENDER, "referee", "retry")
    applied(enc, ChaseCheck("huang", True, 2, roll=roll, spends=(spend, ref)), [])
    assert enc.combatants["huang"].shifts == shifts - 1
    assert enc.meta.referee_shifts == 2
    assert "rolled 5 (Gain 2)" in enc.log[-1].text and "the referee retries" in enc.log[-1].text
