"""The infiltration's remaining rules in the model: setup (N2), Creep's +2 while hidden and
acting from a decoy (N5), a guardian's move through a decoy's area (N4b), the surprise
attack leaving its target down (N7), the end and what it came to (N8), the seen lines the
GM's map draws (N4a), and the refusals the menus show before the GM tries (N3, N4a)."""

from __future__ import annotations

import pytest

from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.contest.assembly import CheckKind, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.contest.ops import SURPRISE_DOWN
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.infiltration.end import outcome, over
from afdesk.encounter.infiltration.ops import HiddenActsFrom, MarkLeft, RaiseAlarm, Reveal, SetRoles
from afdesk.encounter.infiltration.setup import SetUpIntruder, SetUpSharedDecoys
from afdesk.encounter.infiltration.watch import seen_decoys, seen_lines
from afdesk.encounter.offers import check_refusal
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.economy import Screen
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import EditCombatant, PlaceCombatant, RemoveState, SetFacing
from afdesk.encounter.state import Mode
from afdesk.rules.dice import ScriptedSource
from afdesk.storage.samples import build_warehouse
from tests.encounter.conftest import band, foe, make, start_round, turn_of

# ------------------------------------------------------------------ N2 setup


def test_n2_an_intruder_starts_hidden_with_two_adjacent_decoys_away_from_guardians():
    enc = build_warehouse()
    enc.apply(RemoveState("huang", StateKind.HIDDEN))  # set up again, before any alarm
    enc.apply(SetUpIntruder("huang", ((0, 0), (1, 0))))
    huang = enc.combatant("huang")
    assert huang.hidden and huang.decoys == ((0, 0), (1, 0)) and huang.area == (0, 0)
    assert "starts hidden with decoys at (0, 0) and (1, 0) (N2)" in enc.log[-1].text
    refused = [
        (((6, 7), (6, 8)), "in a tile holding a guardian (N2)"),  # Dock Guard 1's tile
        (((0, 0), (2, 0)), "not in two adjacent areas (N2)"),
        (((0, 0),), "two decoys, not 1 (N2)"),
    ]
    for decoys, why in refused:
        with pytest.raises(IllegalOp, match=f"{why[:-6]}.*N2"):
            enc.apply(SetUpIntruder("huang", decoys))
    with pytest.raises(IllegalOp, match="outside the tiles the GM allows"):
        enc.apply(SetUpIntruder("huang", ((0, 0), (1, 0)), tiles=((2, 0),)))
    with pytest.raises(IllegalOp, match="Dock Guard 1 is not an intruder"):
        enc.apply(SetUpIntruder("guard-1", ((0, 0), (1, 0))))
    assert enc.combatant("huang").decoys == ((0, 0), (1, 0))  # refusals changed nothing


def test_n2_after_the_alarm_an_intruder_no_longer_starts_hidden():
    """Revealed, Huang raises the alarm (N6): starting hidden again with two fresh decoys
    (N2) is refused, nothing changed; hiding now is the Hide action (E6)."""
    enc = build_warehouse()
    enc.apply(Reveal("huang", (1, 2)))
    assert enc.infiltration.alarm
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"the alarm is raised: Huang no longer starts hidden"):
        enc.apply(SetUpIntruder("huang", ((0, 0), (1, 0))))
    assert enc.state() == before


def test_n2_guardians_are_placed_first():
    enc = make(band("ann", (1, 1)), foe("orc", None))
    enc.apply(ChangeMode(Mode.INFILTRATION))
    enc.apply(SetRoles(("ann",), ("orc",)))
    with pytest.raises(IllegalOp, match=r"place the guardians first \(N2\): Orc"):
        enc.apply(SetUpIntruder("ann", ((1, 1), (2, 1))))
    enc.apply(PlaceCombatant("orc", (12, 12)))
    enc.apply(SetUpIntruder("ann", ((1, 1), (2, 1))))
    assert enc.combatant("ann").hidden


def test_n2_when_the_players_guard_the_intruders_are_shared_decoys():
    enc = make(band("ann", (12, 12)), foe("thief", (1, 1)), foe("spy", (2, 1)))
    enc.apply(ChangeMode(Mode.INFILTRATION))
    enc.apply(SetRoles(("thief", "spy"), ("ann",)))
    with pytest.raises(IllegalOp, match=r"1 player guardian\(s\) face 2 shared decoys, not 3"):
        enc.apply(SetUpSharedDecoys(((1, 1), (3, 1), (5, 1)), ("thief", "spy", "spy")))
    with pytest.raises(IllegalOp, match="no shared decoy stands for Spy"):
        enc.apply(SetUpSharedDecoys(((1, 1), (3, 1)), ("thief", "thief")))
    enc.apply(SetUpSharedDecoys(((1, 1), (3, 1)), ("thief", "spy")))
    assert enc.combatant("thief").decoys == ((1, 1),)
    assert enc.combatant("spy").decoys == ((3, 1),) and enc.combatant("spy").area == (3, 1)
    guards = make(band("ann", (1, 1)), foe("orc", (12, 12)))
    guards.apply(ChangeMode(Mode.INFILTRATION))
    guards.apply(SetRoles(("ann",), ("orc",)))
    with pytest.raises(IllegalOp, match="for when the players guard"):
        guards.apply(SetUpSharedDecoys(((1, 1), (2, 1)), ("ann", "ann")))


# ------------------------------------------------------------------ N5, N7


def _ambush(mode: Mode = Mode.INFILTRATION):
    """Ann hidden at (5, 5) with decoys at (5, 6) and (6, 6); the orc at (5, 8), facing
    away; Ann's turn."""
    ann = band("ann", (5, 5), states=(State(StateKind.HIDDEN),), decoys=((5, 6), (6, 6)))
    enc = make(ann, foe("orc", (5, 8), facing=180.0))
    if mode is Mode.INFILTRATION:
        enc.apply(ChangeMode(Mode.INFILTRATION))
        enc.apply(SetRoles(("ann",), ("orc",)))
    start_round(enc, ["ann", "opponent:Foes"])
    return enc


def test_n5_creep_gets_plus_two_while_hidden_in_an_infiltration_only():
    enc = _ambush()
    mods = assemble(enc, "ann", CheckKind.CREEP).modifiers
    assert [(m.key, m.dice, m.rule) for m in mods] == [("hidden", 2, "N5")]
    battle = _ambush(Mode.BATTLE)
    assert all(m.rule != "N5" for m in assemble(battle, "ann", CheckKind.CREEP).modifiers)


def test_n5_n7_a_hidden_character_acts_from_either_decoy():
    enc = _ambush()
    far = assemble(enc, "ann", CheckKind.HACK, "orc")
    assert not far.allowed  # from (5, 5) the orc at (5, 8) is out of reach (E12)
    enc.apply(HiddenActsFrom("ann", (5, 6)))
    assert enc.combatant("ann").hidden and enc.combatant("ann").area == (5, 6)
    with pytest.raises(IllegalOp, match=r"no decoy at \(9, 9\)"):
        enc.apply(HiddenActsFrom("ann", (9, 9)))
    enc.apply(PlaceCombatant("orc", (5, 7)))
    assert assemble(enc, "ann", CheckKind.HACK, "orc").allowed


def _surprise(enc) -> None:
    flow = ContestFlow(enc, assemble(enc, "ann", CheckKind.HACK, "orc"))
    flow.roll_attack(ScriptedSource([5] * 12))
    enc.apply(flow.op())


def test_n7_an_uncontested_surprise_attack_leaves_the_target_down():
    enc = _ambush()
    enc.apply(HiddenActsFrom("ann", (5, 6)))
    enc.apply(PlaceCombatant("orc", (5, 7)))
    plan = assemble(enc, "ann", CheckKind.HACK, "orc")
    assert plan.surprise and all(d.kind.value != "dodge" or not d.allowed for d in plan.defenses)
    _surprise(enc)
    orc, ann = enc.combatant("orc"), enc.combatant("ann")
    assert orc.has(StateKind.DOWN) and orc.state(StateKind.DOWN).note == SURPRISE_DOWN
    assert not ann.hidden and ann.decoys == () and ann.area == (5, 6)  # revealed there
    assert "Orc is left down (N7)" in enc.log[-1].text
    assert enc.infiltration.alarm and "the alarm is raised (N6)" in enc.log[-1].text


def test_n7_in_battle_a_surprise_attack_does_not_leave_the_target_down():
    enc = _ambush(Mode.BATTLE)
    enc.apply(PlaceCombatant("orc", (5, 6)))
    _surprise(enc)
    assert not enc.combatant("orc").has(StateKind.DOWN)
    assert "(N7)" not in enc.log[-1].text


# ------------------------------------------------------------------ N8


def test_n8_over_when_every_intruder_has_left_or_is_out():
    enc = build_warehouse()
    assert over(enc) == ""
    enc.apply(MarkLeft("huang", "north"))
    assert over(enc) == "" and outcome(enc).inside == ("mei",)
    mei = enc.combatant("mei")
    enc.apply(EditCombatant(mei.replace(hits=mei.grit)))
    enc.apply(DecideHarm("mei", "out"))
    assert over(enc) == "every intruder has left by an edge or is out or captured (N8)"
    o = outcome(enc)
    assert o.got_out == (("huang", "north"),) and o.gone[0][0] == "mei"
    assert o.done == () and len(o.open) == 2
    fresh = build_warehouse()
    fresh.apply(MarkLeft("huang", "north"))
    fresh.apply(MarkLeft("mei", "east"))
    assert over(fresh) == "every intruder has left by an edge (N8)"


# ------------------------------------------------------------------ N4a, N3


def test_n4a_the_seen_lines_are_the_decoys_seen_with_where_each_observer_stands():
    enc = build_warehouse()
    assert seen_lines(enc) == ()
    enc.apply(SetFacing("guard-1", 0.0, override=True))
    lines = seen_lines(enc)
    assert {(s.owner, s.decoy) for s in lines} == set(seen_decoys(enc))
    assert all(s.observer == "guard-1" and s.at == (6, 6) for s in lines)


def test_n4a_n3_the_menus_know_the_refusals_before_the_gm_tries():
    enc = build_warehouse()
    enc.apply(Reveal("huang", (1, 2)))  # the alarm (N6): every guardian alerted
    assert enc.infiltration.alerted == enc.infiltration.guardians
    enc.apply(SetFacing("guard-1", 0.0, override=True))
    enc.apply(PlaceCombatant("huang", (6, 5)))
    start_round(enc)
    turn_of(enc, "huang")
    why = check_refusal(enc, "huang", CheckKind.HIDE)
    assert why == "Huang cannot hide: Dock Guard 1 has a clear line on Huang (N4a)"
    assert check_refusal(enc, "huang", CheckKind.LOOK) == ""
    unaware = build_warehouse()
    start_round(unaware)
    turn_of(unaware, "guard-1")
    assert "unaware guardian" in check_refusal(unaware, "guard-1", CheckKind.LOOK)
    with pytest.raises(IllegalOp, match=r"unaware guardian.*\(N3\)"):
        unaware.apply(Screen("guard-2"))


def test_n4b_a_guardian_moving_through_a_decoys_area_eliminates_it():
    enc = _ambush()
    enc.apply(RaiseAlarm())  # between rounds... the orc takes normal turns (N6)
    turn_of(enc, "orc")
    move = MoveCombatant("orc", ((5, 8), (5, 7), (5, 6)), 0.0, maneuver=True)
    assert enc.refusal(move) == ""
    enc.apply(move)
    assert enc.combatant("ann").decoys == ((6, 6),) and enc.combatant("ann").hidden
    assert enc.log[-1].text.endswith("eliminated: Ann's decoy at (5, 6) (N4b)")
    battle = _ambush(Mode.BATTLE)
    turn_of(battle, "orc")
    battle.apply(MoveCombatant("orc", ((5, 8), (5, 7), (5, 6)), 0.0, maneuver=True))
    assert len(battle.combatant("ann").decoys) == 2  # only an infiltration's guardians
