"""The players' event ticker (afdesk.encounter.ticker): what happened, in short lines, derived
from the log without Qt, and never anything GM-only (hidden characters, reserves, fog, GM
notes, checks the GM keeps to themselves); a full tie says the higher reflex card decided
(R9, E2)."""

from __future__ import annotations

from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.flow import EndExchangeEarly, NextTurn
from afdesk.encounter.ops.fog import SetFog
from afdesk.encounter.ops.meta import ChangeMode, SetNotes
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reserve import BringIn, HoldInReserve
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddState,
    AdjustCounter,
    PlaceCombatant,
    RemoveCombatant,
)
from afdesk.encounter.state import Mode, Phase
from afdesk.encounter.ticker import PUBLIC, RESULT, SECRET, seen_by_players, ticker_lines
from afdesk.encounter.weapons import Attack
from afdesk.rules.dice import ScriptedSource
from tests.encounter.conftest import band, foe, make, start_round

SPEAR = Attack("spear", damage=2, reach=2)


def said(enc, *ops, view=RESULT) -> list[str]:
    """The ticker's lines for ``ops`` applied as one action."""
    seen = seen_by_players(enc)
    n = len(enc.log)
    for op in ops:
        enc.apply(op)
    return [line.text for line in ticker_lines(enc, enc.log[n:], seen, lambda r: view)]


def duel(order=("huang", "opponent:Foes"), **kw):
    enc = make(
        band("huang", (5, 5), attacks=(SPEAR,), **kw),
        foe("gao", (5, 4), facing=180.0, grit=3),
        foe("ghost", (8, 8), name="Masked Ghost", states=(State(StateKind.HIDDEN),)),
    )
    start_round(enc, list(order))
    return enc


def hack(enc, attack=(5, 4), defense=None):
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao", weapon="spear"))
    flow.roll_attack(ScriptedSource(list(attack)))
    if defense is not None:
        option = next(o for o in flow.plan.defenses if o.kind is DefenseKind.DODGE and o.allowed)
        flow.choose_defense(option)
        flow.roll_defense(ScriptedSource(list(defense)))
    return flow.op()


def test_a_move_is_said_only_for_a_character_the_players_see():
    enc = duel()
    assert said(enc, MoveCombatant("huang", ((5, 5), (5, 6)), 180, maneuver=True)) == [
        "Huang moves"
    ]
    # Into the fog: the token goes from the players' map and nothing is said.
    enc.apply(SetFog(((5, 7),), True, "the ravine"))
    assert said(enc, MoveCombatant("huang", ((5, 6), (5, 7)), 180)) == []
    # A hidden character placed by the GM stays unsaid; setting up before play is not news.
    assert said(enc, PlaceCombatant("ghost", (9, 9))) == []
    setup = make(band("huang", (5, 5)))
    assert setup.turn.phase is Phase.SETUP
    assert said(setup, PlaceCombatant("huang", (4, 4))) == []


def test_a_check_follows_what_the_gm_lets_the_table_see():
    enc = duel()
    op = hack(enc)
    public = said(enc, op, view=PUBLIC)
    assert public == ["Huang hacks at Gao: lands", "Gao takes 2 hits"]
    enc = duel()
    assert said(enc, hack(enc), view=RESULT) == ["Gao takes 2 hits"]  # the dice stay GM-only
    enc = duel()
    assert said(enc, hack(enc), view=SECRET) == []
    enc = duel()
    assert said(enc, hack(enc, attack=(2, 1)), view=PUBLIC) == ["Huang hacks at Gao: fails"]


def test_R9_a_full_tie_says_the_higher_reflex_card_decided():
    enc = duel(order=("opponent:Foes", "huang"))  # Gao's card is higher
    while enc.actor != "huang":
        enc.apply(NextTurn())
    lines = said(enc, hack(enc, (5, 2), defense=(5, 1)), view=PUBLIC)
    assert lines == [
        "Huang hacks at Gao: is stopped",
        "A full tie: Gao's higher reflex card decides (R9)",
    ]
    enc = duel()  # Huang's card is higher: the tie goes to the attack
    lines = said(enc, hack(enc, (5, 2), defense=(5, 1)), view=PUBLIC)
    assert lines == [
        "Huang hacks at Gao: lands",
        "A full tie: Huang's higher reflex card decides (R9)",
        "Gao takes 2 hits",
    ]
    enc = duel()  # Gao has no card this round (he came after the deal): the original stands
    enc.apply(RemoveCombatant("gao"))
    enc.apply(AddCombatant(foe("gao", (5, 4), facing=180.0, grit=3, group="Late")))
    lines = said(enc, hack(enc, (5, 2), defense=(5, 1)), view=PUBLIC)
    assert lines[:2] == [
        "Huang hacks at Gao: lands",
        "A full tie: with no reflex cards to compare, the original stands (R9)",
    ]
    enc = duel()  # not a tie: Result 5 against 4
    assert (
        said(enc, hack(enc, (5, 2), defense=(4, 1)), view=PUBLIC)[0] == "Huang hacks at Gao: lands"
    )


def test_hits_down_and_out_of_visible_characters_only():
    enc = duel()
    assert said(enc, AdjustCounter("gao", "hits", 3)) == ["Gao takes 3 hits"]
    assert said(enc, DecideHarm("gao", "down")) == ["Gao is down"]
    assert said(enc, AdjustCounter("gao", "hits", 1)) == ["Gao takes 1 hit"]
    assert said(enc, DecideHarm("gao", "out")) == ["Gao is out of the fight"]
    assert said(enc, AddState("huang", StateKind.DOWN)) == ["Huang is down"]
    # The hidden ghost's hits, its fall and its leaving stay with the GM.
    assert said(enc, AdjustCounter("ghost", "hits", 5)) == []
    assert said(enc, AddState("ghost", StateKind.DOWN)) == []
    enc.apply(AdjustCounter("ghost", "grit", 0))
    assert said(enc, DecideHarm("ghost", "out")) == []
    # So does a character under the fog.
    enc = duel()
    enc.apply(SetFog(((5, 4),), True, "smoke"))
    enc.apply(AdjustCounter("gao", "hits", 3))
    assert said(enc, DecideHarm("gao", "out")) == []


def test_reinforcements_are_named_without_the_reserves_name():
    enc = make(
        band("ada", (2, 2)),
        foe("a1", (5, 5), group="", name="Archer 1"),
        foe("a2", (6, 5), group="", name="Archer 2"),
        foe("a3", (7, 5), group="", name="Archer 3"),
    )
    assert said(enc, HoldInReserve(("a1", "a2", "a3"), "the ambush on the ridge")) == []
    enc.apply(SetFog(((7, 5),), True, "behind the rocks"))
    lines = said(enc, BringIn("the ambush on the ridge"))
    assert lines == ["Reinforcements: Archer 1 and Archer 2 join the fight"]
    assert "ambush" not in lines[0] and "Archer 3" not in lines[0]


def test_mode_changes_and_the_end_of_an_exchange():
    enc = duel()
    assert said(enc, EndExchangeEarly()) == ["Exchange 1 ends early"]
    assert said(enc, ChangeMode(Mode.CHASE)) == ["The encounter becomes a chase"]
    assert said(enc, ChangeMode(Mode.BATTLE)) == ["The encounter becomes a battle again"]
    # The table and the log read "an infiltration", not "a infiltration" (E16).
    assert said(enc, ChangeMode(Mode.INFILTRATION)) == ["The encounter becomes an infiltration"]
    assert enc.log[-1].text == "The encounter becomes an infiltration"
    enc = duel()
    lines = []
    while enc.turn.phase is not Phase.EXCHANGE_END:
        if enc.turn.phase is Phase.CARDS:
            start_round(enc, ["huang", "opponent:Foes"], deal=False)
        lines += said(enc, NextTurn())
    assert lines == ["Exchange 1 is over"]


def test_gm_notes_and_the_logs_own_words_never_reach_the_table():
    enc = duel()
    assert said(enc, SetNotes("Gao flees at 2 hits; the ghost is Huang's sister")) == []
    lines = said(
        enc,
        MoveCombatant("huang", ((5, 5), (5, 6)), 180, maneuver=True),
        AdjustCounter("ghost", "hits", 1),
    )
    assert lines == ["Huang moves"]
    assert all("Ghost" not in line for line in lines)
