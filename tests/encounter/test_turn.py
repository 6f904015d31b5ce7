"""The turn economy (E3-E8, E17): guard, snap, action, defend, screen, hesitate, states."""

from __future__ import annotations

import pytest

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.economy import ActionKind, SnapKind, turn_prompts
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import Screen, TakeAction, UseSnap
from afdesk.encounter.ops.flow import ActHesitated, NextTurn
from afdesk.encounter.ops.roster import AddState, TickBleeding
from afdesk.encounter.state import Phase
from afdesk.rules import af254
from afdesk.rules.dice import ScriptedSource
from tests.encounter.conftest import band, foe, make, start_round


def three():
    enc = make(band("huang", (5, 5)), band("chen", (6, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    return enc


def test_turn_start_gives_guard_snap_and_action():
    enc = three()
    e = enc.combatants["huang"].economy
    assert (e.turns, e.guards, e.snaps, e.action) == (1, 1, 1, True)
    # Chen has not had a turn yet: no snap, no action.
    assert enc.combatants["chen"].economy.snaps == 0


def test_unused_snap_and_action_are_lost_at_turn_end():
    enc = three()
    enc.apply(NextTurn())
    e = enc.combatants["huang"].economy
    assert e.snaps == 0 and not e.action


def test_second_action_is_refused_with_reason():
    enc = three()
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    before = enc.state()
    with pytest.raises(IllegalOp, match="already used the action this turn"):
        enc.apply(TakeAction("huang", ActionKind.RECRUIT))
    assert enc.state() == before


def test_second_snap_is_refused_and_giving_up_the_action_grants_one():
    enc = three()
    enc.apply(UseSnap("huang", SnapKind.PREPARE))
    with pytest.raises(IllegalOp, match="no snap left"):
        enc.apply(UseSnap("huang", SnapKind.FEND))
    enc.apply(TakeAction("huang", ActionKind.SECOND_SNAP))
    enc.apply(UseSnap("huang", SnapKind.FEND))
    c = enc.combatants["huang"]
    assert c.has(StateKind.PREPARED) and c.has(StateKind.FENDING)


def test_acting_out_of_turn_is_refused():
    enc = three()
    before = enc.state()
    with pytest.raises(IllegalOp, match="it is Huang's turn, not Chen's"):
        enc.apply(TakeAction("chen", ActionKind.DEFEND))
    with pytest.raises(IllegalOp, match="it is Huang's turn"):
        enc.apply(UseSnap("gao", SnapKind.PREPARE))
    assert enc.state() == before


def test_defend_gives_an_extra_guard_and_defenses_until_the_next_turn():
    enc = three()
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    c = enc.combatants["huang"]
    assert c.economy.guards == 2 and c.has(StateKind.DEFENDING)
    for _ in range(3):  # Chen, Gao, then the round ends
        enc.apply(NextTurn())
    assert enc.combatants["huang"].has(StateKind.DEFENDING)  # still until her next turn
    start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    c = enc.combatants["huang"]
    assert not c.has(StateKind.DEFENDING) and c.economy.guards == 1


def test_effects_until_next_turn_expire_then():
    enc = three()
    enc.apply(UseSnap("huang", SnapKind.PREPARE))
    for _ in range(3):
        enc.apply(NextTurn())
    start_round(enc, ["chen", "huang", "opponent:Foes"], deal=False)
    assert enc.combatants["huang"].has(StateKind.PREPARED)
    enc.apply(NextTurn())  # Huang's turn starts: prepared ends
    assert not enc.combatants["huang"].has(StateKind.PREPARED)


def test_screen_out_of_turn_loses_the_next_action_and_lasts_until_the_turn_after():
    enc = three()
    enc.apply(NextTurn())  # Chen's turn
    enc.apply(Screen("huang"))
    c = enc.combatants["huang"]
    assert c.has(StateKind.SCREENING) and c.economy.lose_next_action
    assert c.economy.guards == 1  # no extra guard (E7)
    enc.apply(NextTurn())
    enc.apply(NextTurn())  # round over
    start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    c = enc.combatants["huang"]
    assert not c.economy.action and c.economy.snaps == 1 and c.economy.guards == 1
    assert c.has(StateKind.SCREENING)  # defenses through this turn
    with pytest.raises(IllegalOp, match="the Screen took it"):
        enc.apply(TakeAction("huang", ActionKind.DEFEND))
    assert any("Screen took" in p for p in turn_prompts(enc, c))
    for _ in range(3):
        enc.apply(NextTurn())
    start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    c = enc.combatants["huang"]
    assert not c.has(StateKind.SCREENING) and c.economy.action


def test_screen_twice_is_refused():
    enc = three()
    enc.apply(NextTurn())
    enc.apply(Screen("huang"))
    with pytest.raises(IllegalOp, match="already screening"):
        enc.apply(Screen("huang"))


def test_hesitate_keeps_the_action_for_after_another_turn_at_minus_two():
    from afdesk.encounter.contest.assembly import CheckKind, assemble

    enc = three()
    enc.apply(TakeAction("huang", ActionKind.HESITATE))
    enc.apply(NextTurn())  # Chen's turn
    assert enc.combatants["huang"].economy.action
    enc.apply(ActHesitated("huang"))
    assert enc.actor == "huang" and enc.turn.interjection == "huang"
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert any(m.key == "hesitate" and m.dice == -2 and m.rule == "E6" for m in plan.modifiers)
    enc.apply(TakeAction("huang", ActionKind.RECRUIT))
    assert not enc.combatants["huang"].has(StateKind.HESITATING)
    enc.apply(NextTurn())
    assert enc.actor == "gao"


def test_an_unused_hesitated_action_is_lost_at_round_end():
    enc = three()
    enc.apply(TakeAction("huang", ActionKind.HESITATE))
    for _ in range(3):
        enc.apply(NextTurn())
    assert enc.turn.phase is Phase.CARDS
    c = enc.combatants["huang"]
    assert not c.has(StateKind.HESITATING) and not c.economy.action


def test_hesitated_action_cannot_come_on_its_own_turn():
    enc = three()
    enc.apply(TakeAction("huang", ActionKind.HESITATE))
    with pytest.raises(IllegalOp, match="own turn"):
        enc.apply(ActHesitated("huang"))


def test_down_loses_the_action_until_recover():
    enc = three()
    enc.apply(AddState("huang", StateKind.DOWN))
    with pytest.raises(IllegalOp, match="down: the action is lost until Recover"):
        enc.apply(TakeAction("huang", ActionKind.DEFEND))
    enc.apply(TakeAction("huang", ActionKind.RECOVER))
    assert not enc.combatants["huang"].has(StateKind.DOWN)


def test_stand_up_snap_removes_down_but_the_action_stays_lost():
    enc = three()
    enc.apply(AddState("huang", StateKind.DOWN))
    enc.apply(UseSnap("huang", SnapKind.STAND))
    c = enc.combatants["huang"]
    assert not c.has(StateKind.DOWN) and not c.economy.action


def test_bleeding_hits_half_the_markers_rounded_up_then_one_fewer():
    enc = three()
    enc.apply(AddState("huang", StateKind.BLEEDING, markers=3))
    assert any("suffer 2 hits" in p for p in turn_prompts(enc, enc.combatants["huang"]))
    enc.apply(TickBleeding("huang"))
    c = enc.combatants["huang"]
    assert c.hits == 2 and c.state(StateKind.BLEEDING).markers == 2


def test_a_state_already_held_costs_a_grit():
    enc = three()
    enc.apply(AddState("huang", StateKind.SHAKEN))
    grit = enc.combatants["huang"].grit
    enc.apply(AddState("huang", StateKind.SHAKEN))
    assert enc.combatants["huang"].grit == grit - 1
    enc.apply(AddState("huang", StateKind.BLEEDING, markers=1))
    enc.apply(AddState("huang", StateKind.BLEEDING, markers=2))
    c = enc.combatants["huang"]
    assert c.grit == grit - 1 and c.state(StateKind.BLEEDING).markers == 3


def test_crouch_needs_cover_next_to_you():
    enc = three()  # Huang at (5, 5), next to the meadow's boulders at (6, 6)
    enc.apply(UseSnap("huang", SnapKind.CROUCH))
    assert enc.combatants["huang"].has(StateKind.CROUCHED)
    open_ground = make(band("huang", (10, 14)))
    start_round(open_ground)
    with pytest.raises(IllegalOp, match="nothing to crouch behind"):
        open_ground.apply(UseSnap("huang", SnapKind.CROUCH))


def test_hustle_with_a_successful_move_check_gives_movement():
    enc = three()
    roll = af254.roll_check(2, source=ScriptedSource([5, 2]))
    enc.apply(UseSnap("huang", SnapKind.HUSTLE, roll=roll))
    assert enc.combatants["huang"].economy.movement > 0
    assert "succeeds" in enc.log[-1].text


def test_failed_hustle_gives_nothing():
    enc = three()
    roll = af254.roll_check(2, source=ScriptedSource([1, 2]))
    enc.apply(UseSnap("huang", SnapKind.HUSTLE, roll=roll))
    assert enc.combatants["huang"].economy.movement == 0


def test_contested_snaps_go_through_the_contest():
    enc = three()
    with pytest.raises(IllegalOp, match="contested check"):
        enc.apply(UseSnap("huang", SnapKind.DISTRACT))


def test_next_turn_out_of_turns_phase():
    enc = make(band("huang", (1, 1)))
    with pytest.raises(IllegalOp, match="cannot go to the next turn now"):
        enc.apply(NextTurn())


def test_refusal_is_a_silent_dry_run():
    enc = three()
    heard = []
    enc.subscribe(heard.append)
    before = enc.state()
    assert enc.refusal(TakeAction("huang", ActionKind.DEFEND)) == ""
    assert "Huang's turn" in enc.refusal(TakeAction("chen", ActionKind.DEFEND))
    assert enc.state() == before and heard == []
