"""Rules exact at every step of play: each test is named by its rule id and
reproduces what the audit found."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.combatant import Speeds, StateKind
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble
from afdesk.encounter.contest.flow import ContestFlow, leave_overlap_flow
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.economy import Screen, TakeAction
from afdesk.encounter.ops.flow import ActHesitated, NextTurn
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import AddCombatant, AddState
from afdesk.encounter.zone import Segment, SegmentProps, grid_zone
from afdesk.rules.dice import ScriptedSource
from afdesk.storage.tilesets import tileset
from tests.encounter.conftest import MEADOWS, band, foe, make, start_round


def covered(cover, *combatants):
    """An encounter whose zone has Cover exactly on ``cover`` (E10) and no other segment."""
    zone = grid_zone(tileset("wilderness"), MEADOWS)
    tiles = []
    for t in zone.tiles:
        local = tuple(
            (c - 5 * t.col, r - 5 * t.row) for c, r in cover if (c // 5, r // 5) == (t.col, t.row)
        )
        segs = (Segment("cover", local, SegmentProps(cover=True)),) if local else ()
        tiles.append(msgspec.structs.replace(t, segments=segs))
    enc = Encounter(zone=msgspec.structs.replace(zone, tiles=tuple(tiles)))
    for c in combatants:
        enc.apply(AddCombatant(c))
    return enc


def option(plan, kind, via=Via.GUARD, defender=""):
    return next(
        d
        for d in plan.defenses
        if d.kind is kind and d.via is via and (not defender or d.defender == defender)
    )


def _overlap_of_three(y_facing=0.0):
    enc = make(
        band("a", (6, 5), facing=0.0),
        foe("x", (6, 5), facing=0.0),
        foe("y", (6, 5), facing=y_facing),
    )
    start_round(enc, ["a", "opponent:Foes"])
    enc.apply(TakeAction("a", ActionKind.MANEUVER))
    return enc


def test_E14_one_move_check_a_second_check_is_refused():
    """The audit's reproduction: a loses to x's parry, then a second check "beats" y
    unopposed and the move south (behind x's flank) was accepted."""
    enc = _overlap_of_three()
    flow = leave_overlap_flow(enc, "a", "x")
    flow.roll_attack(ScriptedSource([4, 2]))
    flow.choose_defense(option(flow.plan, DefenseKind.PARRY))
    flow.roll_defense(ScriptedSource([5, 1]))
    enc.apply(flow.op())
    again = leave_overlap_flow(enc, "a", "y")
    again.roll_attack(ScriptedSource([6, 5, 2]))
    with pytest.raises(IllegalOp, match="one move check"):
        enc.apply(again.op())
    with pytest.raises(IllegalOp, match="E14"):
        enc.apply(MoveCombatant("a", ((6, 5), (6, 6), (6, 7)), 180.0))
    assert set(enc.combatants["a"].economy.exit_to) == {(5, 4), (6, 4), (7, 4), (5, 5), (7, 5)}


def test_E14_each_opponent_contests_the_same_check():
    """x and y both contest the one check: x's parry wins, y's dodge does not; only a step
    in front of x is open and the move ends there."""
    enc = _overlap_of_three(y_facing=90.0)
    flow = leave_overlap_flow(enc, "a", "x")
    flow.roll_attack(ScriptedSource([5, 2]))
    flow.choose_defense(option(flow.plan, DefenseKind.PARRY))
    flow.roll_defense(ScriptedSource([6, 1, 2]))  # x's 6 beats a's 5
    assert flow.others() == ["y"]
    y_dodge = option(flow.other_plan("y"), DefenseKind.DODGE, defender="y")
    flow.contest_also(y_dodge, ScriptedSource([4, 1]))  # y's 4 does not stop a's 5
    record = flow.record()
    assert [d.defender for d in record.defenses] == ["x", "y"]
    enc.apply(flow.op())
    exits = set(enc.combatants["a"].economy.exit_to)
    assert exits == {(5, 4), (6, 4), (7, 4), (5, 5), (7, 5)}
    with pytest.raises(IllegalOp, match="E14"):
        enc.apply(MoveCombatant("a", ((6, 5), (6, 6), (6, 7)), 180.0))
    enc.apply(MoveCombatant("a", ((6, 5), (6, 4)), 0.0))
    assert enc.combatants["a"].economy.movement == 0


def test_E14_every_winning_defense_limits_the_exit():
    """Both defenses win: only areas in front of both flanks are open."""
    enc = _overlap_of_three(y_facing=90.0)
    flow = leave_overlap_flow(enc, "a", "x")
    flow.roll_attack(ScriptedSource([5, 2]))
    flow.choose_defense(option(flow.plan, DefenseKind.PARRY))
    flow.roll_defense(ScriptedSource([6, 1, 2]))
    flow.contest_also(
        option(flow.other_plan("y"), DefenseKind.PARRY, defender="y"), ScriptedSource([6, 1, 2])
    )
    enc.apply(flow.op())
    # in front of x (north: row <= 5) and of y (east: column >= 6)
    assert set(enc.combatants["a"].economy.exit_to) == {(6, 4), (7, 4), (7, 5)}


# ---------------------------------------------------------------------- E5 Crouch, E13


def _crouching_target(shooter_at):
    enc = covered(
        [(8, 7), (2, 7)],
        band("huang", (7, 7), facing=270.0),
        foe("gao", shooter_at, weapon_range=12),
    )
    start_round(enc, ["opponent:Foes", "huang"])
    enc.apply(AddState("huang", StateKind.CROUCHED))
    return enc


def test_E5_crouch_only_behind_the_adjacent_cover():
    """Crouching at (7, 7) beside cover at (8, 7): an attack whose line crosses only the
    cover at (2, 7), next to the attacker, gets no +2 (the audit's reproduction)."""
    enc = _crouching_target((1, 7))
    plan = assemble(enc, "gao", CheckKind.AIM, "huang")
    assert [m.key for m in plan.modifiers if m.key == "cover"] == ["cover"]
    dodge = option(plan, DefenseKind.DODGE)
    assert not any(m.key == "crouch" for m in dodge.modifiers)


def test_E5_crouch_behind_the_adjacent_cover_gives_two():
    enc = _crouching_target((12, 7))
    plan = assemble(enc, "gao", CheckKind.AIM, "huang")
    crouch = next(m for m in option(plan, DefenseKind.DODGE).modifiers if m.key == "crouch")
    assert crouch.dice == 2 and crouch.rule == "E5"


def test_E13_a_taunt_across_cover_takes_the_cover_penalty():
    enc = covered([(4, 7)], band("huang", (7, 7)), foe("gao", (1, 7)))
    start_round(enc, ["opponent:Foes", "huang"])
    plan = assemble(enc, "gao", CheckKind.TAUNT, "huang")
    cover = next(m for m in plan.modifiers if m.key == "cover")
    assert cover.dice == -2 and cover.rule == "E13"


# ------------------------------------------------------------------------- E7 Screen


def test_E7_screen_aborts_the_held_hesitated_action():
    """A character holding a hesitated action screens off-turn: the held action is the
    next one it would take, so the Screen aborts it, and the next turn keeps its action."""
    enc = make(band("huang", (5, 5)), band("chen", (6, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(TakeAction("huang", ActionKind.HESITATE))
    enc.apply(NextTurn())  # Chen's turn: Huang still holds the action
    enc.apply(Screen("huang"))
    c = enc.combatants["huang"]
    assert c.has(StateKind.SCREENING) and not c.economy.action
    assert not c.has(StateKind.HESITATING) and not c.economy.lose_next_action
    # the held action is this round's: the Screen spends it in this round (E6: one a round)
    assert c.economy.acted_round == (enc.turn.exchange, enc.turn.round)
    assert c.economy.action_used == "screen"
    with pytest.raises(IllegalOp, match="E6"):
        enc.apply(ActHesitated("huang"))
    enc.apply(NextTurn())
    enc.apply(NextTurn())  # round over
    start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    c = enc.combatants["huang"]
    assert c.economy.action  # the Screen took the held action, not this one
    assert not c.has(StateKind.SCREENING)  # defenses until this turn, as Defend (E6, E7)
    enc.apply(TakeAction("huang", ActionKind.DEFEND))


# --------------------------------------------------------------------------- E6 Hide


def _hide(enc, decoys, faces=(5, 2)):
    f = ContestFlow(enc, assemble(enc, "huang", CheckKind.HIDE))
    f.decoys = decoys
    f.roll_attack(ScriptedSource(list(faces)))
    return f.op()


@pytest.mark.parametrize("decoys", [(), ((4, 5),)])
def test_E6_hide_places_exactly_two_decoys(decoys):
    enc = make(band("huang", (5, 5)), foe("gao", (9, 9)))
    start_round(enc, ["huang", "opponent:Foes"])
    with pytest.raises(IllegalOp, match=r"exactly 2 decoys.*\(E6\)"):
        enc.apply(_hide(enc, decoys))
    assert not enc.combatants["huang"].hidden
    enc.apply(_hide(enc, ((4, 5), (6, 5))))
    assert enc.combatants["huang"].decoys == ((4, 5), (6, 5))


def test_E6_hide_with_fewer_adjacent_areas_says_why():
    """Only where fewer adjacent areas exist are fewer decoys placed, and the reason is
    shown: a corner of the zone still has three neighbours, so two are needed there."""
    enc = make(band("huang", (0, 0)), foe("gao", (9, 9)))
    start_round(enc, ["huang", "opponent:Foes"])
    with pytest.raises(IllegalOp, match="exactly 2"):
        enc.apply(_hide(enc, ((1, 0),)))
    from afdesk.encounter.ops.roster import check_decoys, hide_decoy_count

    c = enc.combatants["huang"]
    assert hide_decoy_count(enc, c) == 2
    lone = c.replace(area=None)
    assert hide_decoy_count(enc, lone) == 0
    with pytest.raises(IllegalOp, match=r"exactly 0 decoys in adjacent areas \(0 adjacent"):
        check_decoys(enc, lone, ((1, 0),), hiding=True)


# ------------------------------------------------------------ R9, C2, C3, E8 amendments


def _tie(order):
    """Huang attacks Gao; both roll a 5 (Result 5, Gain 1): a full tie (R9)."""
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4), facing=180.0))
    start_round(enc, order)
    if enc.actor != "huang":
        enc.apply(NextTurn())
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    flow.roll_attack(ScriptedSource([5, 2]))
    flow.choose_defense(option(flow.plan, DefenseKind.DODGE))
    flow.roll_defense(ScriptedSource([5, 1]))
    return enc, flow


def test_R9_a_full_tie_goes_to_the_higher_reflex_card():
    enc, flow = _tie(["opponent:Foes", "huang"])  # Gao's card is higher
    assert flow.verdict_now().stopped
    assert "higher reflex card" in flow.verdict_now().explain()
    enc.apply(flow.op())
    assert enc.combatants["gao"].hits == 0
    assert flow.record().verdict(enc.ruleset).stopped


def test_R9_a_full_tie_with_the_attackers_card_higher_stands():
    _enc, flow = _tie(["huang", "opponent:Foes"])
    assert not flow.verdict_now().stopped


def test_C2_the_opposition_spends_its_lowest_able_success():
    """Seed 002's alley: the thug's best is 4; Huang's guard rolls 1, 2, 4, 5 with one
    Venture token (Interference 3). Her 4 removes his 4, her 5 stays and the token pairs
    with it: the punch is stopped and she has 1 Momentum (C2, C3)."""
    from afdesk.rules import classic
    from afdesk.rules.rulesets import ruleset_named

    thug = classic.roll_check(2, source=ScriptedSource([4, 2]))
    huang = classic.roll_check(4, ventures=1, source=ScriptedSource([1, 2, 4, 5, 3]))
    v = ruleset_named("af-classic").verdict(thug, huang)
    assert v.stopped and v.defense.wins == (5,) and v.defense.momentum == 1


def test_C3_momentum_is_counted_after_the_opposition_spent_its_success():
    """The opposition 4, 4, 5 against an original whose lowest success is 4: it spends a 4
    (its lowest that can), leaving 4, 5: no pair, no Momentum (C2, C3)."""
    from afdesk.rules import classic

    original = classic.evaluate((4, 6))
    opposition = classic.evaluate((4, 4, 5))
    assert opposition.momentum == 1
    after = classic.spend_opposition(original, opposition)
    assert after.wins == (4, 5) and after.momentum == 0
    assert classic.oppose(original, opposition).wins == (6,)


@pytest.mark.parametrize(
    ("kind", "action"),
    [(DefenseKind.INSIGHT, CheckKind.TAUNT), (DefenseKind.RETORT, CheckKind.TAUNT)],
)
def test_E8_minus_two_on_any_contest_from_behind_the_flank(kind, action):
    """Seed 003: -2 on any contest that originates behind your flank, not only a dodge:
    an insight (or a retort guard) against a taunt from behind."""
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4), facing=0.0))  # Gao faces away
    start_round(enc, ["huang", "opponent:Foes"])
    plan = assemble(enc, "huang", action, "gao")
    assert plan.behind
    flank = next(m for m in option(plan, kind).modifiers if m.key == "flank")
    assert flank.dice == -2 and flank.rule == "E8"


# ------------------------------------------------------------------- E14 jumping, E17


def _jumper(**speeds):
    enc = covered(
        [],
        band("huang", (5, 5), speeds=Speeds(**speeds)),
        foe("gao", (6, 5), facing=180.0),
    )
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def test_E14_a_jump_counts_only_its_start_and_end():
    """Jumping over Gao's area (an overlap would end a walk there) to land beyond him."""
    enc = _jumper(jump=2)
    with pytest.raises(IllegalOp, match="E14"):
        enc.apply(MoveCombatant("huang", ((5, 5), (6, 5), (7, 5)), 90.0, maneuver=True))
    enc.apply(MoveCombatant("huang", ((5, 5), (7, 5)), 90.0, maneuver=True, jump=True))
    assert enc.combatants["huang"].area == (7, 5)
    assert "jumps" in enc.log[-1].text


def test_E14_a_jump_reaches_the_jump_speed_and_altitude_is_in_the_way():
    enc = _jumper(jump=1)
    with pytest.raises(IllegalOp, match="jumps 1"):
        enc.apply(MoveCombatant("huang", ((5, 5), (7, 5)), 90.0, maneuver=True, jump=True))
    zone = covered([]).zone
    tile = zone.tile_at(1, 1)
    segs = (Segment("wall", ((1, 0),), SegmentProps(altitude=2)),)
    tiles = tuple(msgspec.structs.replace(t, segments=segs) if t is tile else t for t in zone.tiles)
    enc = Encounter(zone=msgspec.structs.replace(zone, tiles=tiles))
    enc.apply(AddCombatant(band("huang", (5, 5), speeds=Speeds(jump=2))))
    enc.apply(AddCombatant(foe("gao", (12, 12))))
    start_round(enc, ["huang", "opponent:Foes"])
    assert enc.terrain_at((6, 5)).altitude == 2
    with pytest.raises(IllegalOp, match=r"altitude.*E14"):
        enc.apply(MoveCombatant("huang", ((5, 5), (7, 5)), 90.0, maneuver=True, jump=True))


def test_E14_knocked_down_while_flying_stalls():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "opponent:Foes"])
    enc.apply(AddState("huang", StateKind.FLYING))
    enc.apply(AddState("huang", StateKind.DOWN))
    huang = enc.combatants["huang"]
    assert huang.has(StateKind.DOWN) and huang.has(StateKind.STALL)
    assert "stalls" in enc.log[-1].text
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert any(m.key == "stall" and m.dice == -2 for m in plan.modifiers)
    enc.apply(TakeAction("huang", ActionKind.RECOVER))
    huang = enc.combatants["huang"]
    assert not huang.has(StateKind.DOWN) and not huang.has(StateKind.STALL)
    # On the ground, down is only down.
    enc2 = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    enc2.apply(AddState("huang", StateKind.DOWN))
    assert not enc2.combatants["huang"].has(StateKind.STALL)


def test_E3_ongoing_states_resolve_once_on_the_own_turn():
    from afdesk.encounter.economy import turn_prompts
    from afdesk.encounter.ops.roster import TickBleeding

    enc = make(band("huang", (5, 5)), band("chen", (6, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(AddState("huang", StateKind.BLEEDING, markers=3))
    enc.apply(AddState("huang", StateKind.BURNING))
    enc.apply(AddState("chen", StateKind.BLEEDING, markers=2))
    prompts = turn_prompts(enc, enc.combatants["huang"])
    assert any("Bleeding 3" in p for p in prompts) and any("fire" in p for p in prompts)
    with pytest.raises(IllegalOp, match="own turn"):
        enc.apply(TickBleeding("chen"))
    enc.apply(TickBleeding("huang"))
    with pytest.raises(IllegalOp, match=r"already resolved bleeding this turn.*E3"):
        enc.apply(TickBleeding("huang"))
    enc.apply(TickBleeding("huang", StateKind.BURNING, hits=1))
    with pytest.raises(IllegalOp, match="E3"):
        enc.apply(TickBleeding("huang", StateKind.BURNING, hits=1))
    huang = enc.combatants["huang"]
    assert huang.hits == 2 + 1 and huang.state(StateKind.BLEEDING).markers == 2
    assert not any("Bleeding" in p or "fire" in p for p in turn_prompts(enc, huang))
    enc.apply(NextTurn())  # Chen's turn: now Chen bleeds
    enc.apply(TickBleeding("chen"))


# --------------------------------------------------------------- E10 terrain prompts


def _terrain(props, area, *combatants):
    zone = covered([]).zone
    tile = zone.tile_at(area[0] // 5, area[1] // 5)
    local = (area[0] % 5, area[1] % 5)
    segs = (Segment("here", (local,), props),)
    tiles = tuple(msgspec.structs.replace(t, segments=segs) if t is tile else t for t in zone.tiles)
    enc = Encounter(zone=msgspec.structs.replace(zone, tiles=tiles))
    for c in combatants:
        enc.apply(AddCombatant(c))
    return enc


def test_E10_entering_slippery_ground_prompts_a_balance_check():
    from afdesk.encounter.economy import turn_prompts

    enc = _terrain(SegmentProps(slippery=True), (6, 5), band("huang", (5, 5)), foe("gao", (12, 12)))
    start_round(enc, ["huang", "opponent:Foes"])
    enc.apply(MoveCombatant("huang", ((5, 5), (6, 5), (7, 5)), 90.0, maneuver=True))
    assert "balance check, or fall down (E10)" in enc.log[-1].text
    prompts = turn_prompts(enc, enc.combatants["huang"])
    assert any("Slippery ground at (6, 5)" in p for p in prompts)
    enc.apply(NextTurn())
    enc.apply(NextTurn())  # round over
    start_round(enc, ["huang", "opponent:Foes"], deal=False)
    assert not any("(6, 5)" in p for p in turn_prompts(enc, enc.combatants["huang"]))


@pytest.mark.parametrize(
    ("props", "words"), [({"ledge": True}, "Ledge"), ({"steep": True}, "Steep")]
)
def test_E10_interference_on_a_ledge_or_steep_prompts_the_fall(props, words):
    enc = _terrain(SegmentProps(**props), (5, 5), band("huang", (5, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "opponent:Foes"])
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.CHECK, facet="balance"))
    flow.add_gm_modifier("Wind", -1)
    flow.roll_attack(ScriptedSource([5, 2, 4]))  # Interference 4 takes nothing but is a Win
    enc.apply(flow.op())
    assert f"on the {words}" in enc.log[-1].text and "(E10)" in enc.log[-1].text
    assert any(words in p for p in enc.combatants["huang"].economy.pending)
    # Interference that came up a Fail does not make anyone fall.
    calm = ContestFlow(enc, assemble(enc, "huang", CheckKind.CHECK, facet="balance"))
    calm.add_gm_modifier("Wind", -1)
    calm.roll_attack(ScriptedSource([5, 2, 1]))
    enc.apply(calm.op())
    assert "E10" not in enc.log[-1].text


def test_E14_a_drop_a_walk_cannot_reach_becomes_a_jump():
    """Dragging Huang (run 1, jump 2) two areas away, over Gao: only a jump gets there."""
    from afdesk.encounter import drag

    enc = _jumper(run=1, jump=2)
    plan = drag.plan_drag(enc, "huang")
    assert (7, 5) not in plan.reach
    out = drag.drop(enc, plan, (7, 5))
    assert out.ops and out.ops[0].jump and not out.reason
    enc.apply(out.ops[0])
    assert enc.combatants["huang"].area == (7, 5)
