"""The infiltration's model (N1-N8): roles, objectives, the proposed watch step (N3), the
decoys seen (N4a), unaware guardians refused (N3), a Hide in an opponent's clear line
refused (N4a), the alarm (N6), decoys eliminated and reveals (N4, N5), who left (N8)."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.infiltration.ops import (
    ConfirmWatch,
    EliminateDecoy,
    MarkLeft,
    MarkObjective,
    RaiseAlarm,
    Reveal,
    SetObjective,
    SetObscured,
    SetRoles,
)
from afdesk.encounter.infiltration.state import Objective, Role
from afdesk.encounter.infiltration.watch import (
    WatchStep,
    seen_by,
    seen_decoys,
    watch_step,
    watch_steps,
)
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.economy import TakeAction, UseSnap
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import PlaceCombatant, SetFacing
from afdesk.encounter.state import Mode, Phase
from afdesk.storage.samples import build_warehouse
from tests.encounter.conftest import band, foe, make, start_round, turn_of


def warehouse() -> Encounter:
    return build_warehouse()


def test_n1_the_warehouse_has_roles_and_two_objectives():
    inf = warehouse().infiltration
    assert inf.intruders == ("huang", "mei")
    assert inf.guardians == ("guard-1", "guard-2", "foreman")
    assert inf.role("huang") is Role.INTRUDER and inf.role("foreman") is Role.GUARDIAN
    assert [o.id for o in inf.objectives] == ["ledger", "crates"]
    assert not inf.alarm and all(inf.unaware(g) for g in inf.guardians)


def test_n1_roles_cannot_overlap_and_objectives_are_marked_done():
    enc = warehouse()
    with pytest.raises(IllegalOp, match="cannot be both intruder and guardian"):
        enc.apply(SetRoles(("huang",), ("huang",)))
    before = enc.state()
    inverse = enc.apply(MarkObjective("ledger"))
    assert enc.infiltration.objective("ledger").done
    with pytest.raises(IllegalOp, match="already done"):
        enc.apply(MarkObjective("ledger"))
    enc.apply(inverse)
    assert enc.state().infiltration == before.infiltration
    with pytest.raises(IllegalOp, match="outside the zone"):
        enc.apply(SetObjective(Objective("far", "Far away", area=(99, 99))))


# ------------------------------------------------------------------ N3 watch


def test_n3_the_watch_step_goes_one_area_toward_the_nearest_decoy_and_faces_it():
    enc = warehouse()
    step = watch_step(enc, "guard-1")  # at (6, 6); Huang's decoy (3, 2) is nearest
    assert step == WatchStep("guard-1", (5, 5), pytest.approx(step.facing), (3, 2))
    assert step.decoy == (3, 2)
    assert max(abs(step.area[0] - 6), abs(step.area[1] - 6)) == 1
    # facing toward the decoy: up and to the left (north-west quadrant)
    assert 270.0 < step.facing < 360.0
    away = watch_step(enc, "guard-1", fumbled=True)  # N3: a Fumble steps away
    assert away is not None and away.area == (7, 7)
    assert [s.id for s in watch_steps(enc)] == ["guard-1", "guard-2", "foreman"]


def test_n3_confirming_every_watch_step_at_once_moves_and_turns_them():
    enc = warehouse()
    steps = watch_steps(enc)
    before = enc.state()
    inverse = enc.apply(ConfirmWatch(steps))
    for s in steps:
        c = enc.combatant(s.id)
        assert c.area == s.area and c.facing == pytest.approx(s.facing)
    enc.apply(inverse)
    assert enc.state().combatants == before.combatants


def test_n3_a_watch_step_is_one_area_and_only_for_an_unaware_guardian():
    enc = warehouse()
    with pytest.raises(IllegalOp, match=r"is not one area \(N3\)"):
        enc.apply(ConfirmWatch((WatchStep("guard-1", (8, 8), 0.0, (3, 2)),)))
    with pytest.raises(IllegalOp, match="Huang is not an unaware guardian"):
        enc.apply(ConfirmWatch((WatchStep("huang", (2, 2), 0.0, (3, 2)),)))


def test_n3_a_guardian_left_down_proposes_and_takes_no_watch_step():
    """A down guardian has speed 0 (E17): a surprise attack's victim (N7) is offered no
    watch step, and a step confirmed for it is refused with nothing changed."""
    from afdesk.encounter.ops.roster import AddState

    enc = warehouse()
    step = next(s for s in watch_steps(enc) if s.id == "guard-1")
    enc.apply(AddState("guard-1", StateKind.DOWN, note="surprise attack (N7)"))
    assert "guard-1" not in {s.id for s in watch_steps(enc)}
    assert {s.id for s in watch_steps(enc)} == {"guard-2", "foreman"}
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"Dock Guard 1 is down: speed 0, no watch step"):
        enc.apply(ConfirmWatch((step,)))
    assert enc.state() == before


def test_n3_an_unaware_guardian_takes_no_action_snap_or_move():
    enc = warehouse()
    start_round(enc)
    turn_of(enc, "guard-1")
    for op in (
        TakeAction("guard-1", ActionKind.DEFEND),
        UseSnap("guard-1", SnapKind.PREPARE),
        MoveCombatant("guard-1", ((6, 6), (6, 7)), 180.0, maneuver=True),
        SetFacing("guard-1", 90.0),
    ):
        with pytest.raises(IllegalOp, match=r"unaware guardian.*\(N3\)"):
            enc.apply(op)


def test_n6_after_the_alarm_each_guardian_acts_from_its_next_turn():
    enc = warehouse()
    start_round(enc)
    turn_of(enc, "guard-1")
    enc.apply(RaiseAlarm())
    with pytest.raises(IllegalOp, match="unaware guardian"):  # not yet this turn
        enc.apply(TakeAction("guard-1", ActionKind.DEFEND))
    # the guardians whose turn is still to come this round take it as a normal turn
    assert set(enc.infiltration.alerted) == {"guard-2", "foreman"}
    turn_of(enc, "guard-2")
    enc.apply(TakeAction("guard-2", ActionKind.DEFEND))  # a normal turn (E3)
    assert enc.infiltration.unaware("guard-1")
    while enc.turn.phase is Phase.TURNS:  # the round ends: guard-1's next turn is normal
        enc.apply(NextTurn())
    assert enc.infiltration.alerted == ("guard-1", "guard-2", "foreman")
    assert watch_steps(enc) == ()


def test_n6_an_alarm_between_rounds_alerts_every_guardian_at_once():
    enc = warehouse()
    enc.apply(RaiseAlarm())
    assert enc.infiltration.alarm and enc.infiltration.alerted == enc.infiltration.guardians
    start_round(enc)
    turn_of(enc, "guard-1")  # even when its card opens the round (no Next turn before it)
    enc.apply(TakeAction("guard-1", ActionKind.DEFEND))
    with pytest.raises(IllegalOp, match="already raised"):
        enc.apply(RaiseAlarm())


# ------------------------------------------------------------------ N4a seen


def test_n4a_decoys_seen_through_a_clear_line_and_not_behind_the_flank():
    enc = warehouse()
    assert seen_decoys(enc) == {}  # every guardian faces south, the decoys are north
    enc.apply(SetFacing("guard-1", 0.0, override=True))  # now facing north
    seen = seen_decoys(enc)
    assert seen  # some decoy is now in front of guard-1 with no cover between
    assert all(who == ("guard-1",) for who in seen.values())
    # the GM marks every area between as obscured: nothing is seen any more
    c0, _, c1, _ = enc.zone.area_bounds()
    band_rows = [(c, 4) for c in range(c0, c1 + 1)]
    enc.apply(SetObscured(tuple(band_rows)))
    assert seen_decoys(enc) == {}


def test_n4a_a_hide_in_an_opponents_clear_line_is_refused():
    enc = make(band("ann", (2, 2), facing=0.0), foe("orc", (2, 6), facing=0.0))
    enc.apply(ChangeMode(Mode.INFILTRATION))
    enc.apply(SetRoles(("ann",), ("orc",)))
    enc.apply(RaiseAlarm())
    start_round(enc)
    turn_of(enc, "ann")
    assert seen_by(enc, "ann", (2, 2)) == ("orc",)
    from afdesk.encounter.contest.assembly import CheckKind, ContestRecord
    from afdesk.encounter.contest.ops import ResolveContest

    hide = ResolveContest(ContestRecord("ann", CheckKind.HIDE, "sneak", decoys=((1, 1), (3, 1))))
    with pytest.raises(IllegalOp, match=r"Orc has a clear line on Ann \(N4a\)"):
        enc.apply(hide)


# ------------------------------------------------------------------ N4, N5, N6, N8


def test_n5_the_last_decoy_eliminated_reveals_and_raises_the_alarm():
    enc = warehouse()
    enc.apply(EliminateDecoy("huang", (1, 2)))
    assert enc.combatant("huang").hidden and not enc.infiltration.alarm
    enc.apply(EliminateDecoy("huang", (3, 2)))
    huang = enc.combatant("huang")
    assert not huang.hidden and huang.area == (3, 2) and huang.decoys == ()
    assert enc.infiltration.alarm  # N6: the first intruder revealed
    assert "revealed there (N5)" in enc.log[-1].text
    assert enc.combatant("mei").hidden  # other intruders stay hidden


def test_n5_reveal_at_a_decoy_with_a_facing():
    enc = warehouse()
    with pytest.raises(IllegalOp, match="no decoy at"):
        enc.apply(Reveal("mei", (5, 5)))
    enc.apply(Reveal("mei", (11, 3), facing=90.0))
    mei = enc.combatant("mei")
    assert (mei.area, mei.facing, mei.hidden) == ((11, 3), 90.0, False)
    assert enc.infiltration.alarm and "the alarm is raised (N6)" in enc.log[-1].text


def test_n8_who_left_by_which_edge():
    enc = warehouse()
    enc.apply(MarkLeft("huang", "north"))
    assert [(d.id, d.edge) for d in enc.infiltration.left] == [("huang", "north")]
    with pytest.raises(IllegalOp, match="already left"):
        enc.apply(MarkLeft("huang", "north"))
    with pytest.raises(IllegalOp, match="not an intruder"):
        enc.apply(MarkLeft("foreman", "south"))
    with pytest.raises(IllegalOp, match="not an edge"):
        enc.apply(MarkLeft("mei", "up"))


def test_e16_changing_mode_keeps_the_infiltration_and_every_state():
    enc = warehouse()
    enc.apply(MarkObjective("crates"))
    before = enc.state()
    for mode in (Mode.DISPUTE, Mode.CHASE, Mode.BATTLE, Mode.INFILTRATION):
        enc.apply(ChangeMode(mode))
    after = enc.state()
    assert after.infiltration == before.infiltration
    assert [c.states for c in after.combatants] == [c.states for c in before.combatants]
    assert msgspec.structs.replace(after, log=(), mode=before.mode, dispute=before.dispute) == (
        msgspec.structs.replace(before, log=(), chase=after.chase)
    )


def test_n3_hidden_state_is_the_existing_e17_state():
    c = warehouse().combatant("huang")
    assert State(StateKind.HIDDEN) in c.states and len(c.decoys) == 2


def test_n4b_a_guardian_stepping_into_a_decoys_area_eliminates_it():
    enc = warehouse()
    # put guard-1 next to Huang's decoy (3, 2) and step onto it
    enc.apply(PlaceCombatant("guard-1", (4, 3)))
    inverse = enc.apply(ConfirmWatch((WatchStep("guard-1", (3, 2), 315.0, (3, 2)),)))
    huang = enc.combatant("huang")
    assert huang.hidden and huang.decoys == ((1, 2),)
    assert "eliminated: Huang's decoy at (3, 2) (N4b)" in enc.log[-1].text
    enc.apply(inverse)
    assert enc.combatant("huang").decoys == ((1, 2), (3, 2))
