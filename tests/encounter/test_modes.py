"""Modes as objects (afdesk.encounter.modes): each mode owns its part, its phases, what
"next turn" does and what it offers; a new mode plugs in as an object (item 4)."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.modes import (
    Battle,
    EncounterMode,
    current_mode,
    mode_object,
    register_mode,
)
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.persevere import modifiers
from afdesk.encounter.state import Mode, Phase
from tests.encounter.conftest import band, foe, make, start_round


def in_mode(enc: Encounter, mode: Mode) -> Encounter:
    return Encounter.from_state(msgspec.structs.replace(enc.state(), mode=mode))


def test_every_mode_has_its_object():
    for mode in Mode:
        obj = mode_object(mode)
        assert isinstance(obj, EncounterMode) and obj.mode is mode
        assert obj.label == mode.label


def test_battle_offers_every_action_snap_and_check_and_has_no_part():
    from afdesk.encounter.contest.assembly import CheckKind

    battle = mode_object(Mode.BATTLE)
    assert battle.part is None and battle.phases == tuple(Phase)
    for kinds in (ActionKind, SnapKind, CheckKind):
        assert battle.offered(list(kinds)) == list(kinds)


@pytest.mark.parametrize("mode", [Mode.CHASE, Mode.DISPUTE, Mode.INFILTRATION])
def test_the_other_modes_play_as_battle_for_now(mode):
    battle = make(band("ann", (0, 0)), band("bob", (1, 1)), foe("orc", (2, 2)))
    start_round(battle)
    other = in_mode(battle, mode)
    battle = in_mode(battle, Mode.BATTLE)
    for _ in range(3):  # three turns, and the round ends
        a, b = battle.apply(NextTurn()), other.apply(NextTurn())
        assert battle.log[-1].text == other.log[-1].text
        assert type(a) is type(b)
        assert battle.state() == msgspec.structs.replace(other.state(), mode=Mode.BATTLE)
    assert other.turn.phase is Phase.CARDS
    assert isinstance(mode_object(mode), Battle)


def test_a_dispute_is_a_low_activity_encounter():
    enc = make(band("ann", (0, 0)))
    assert "low-activity" not in {m.key for m in modifiers(enc)}
    assert "low-activity" in {m.key for m in modifiers(in_mode(enc, Mode.DISPUTE))}


class Standoff(EncounterMode):
    """A made-up mode in place of chase: nobody moves on, everybody stares."""

    mode = Mode.CHASE
    phases = (Phase.SETUP, Phase.TURNS, Phase.ENDED)

    def __init__(self) -> None:
        self.calls: list[str] = []

    def offers(self, kind: object) -> bool:
        return kind is not ActionKind.MANEUVER

    def enter(self, enc: Encounter) -> None:
        self.calls.append("enter")

    def leave(self, enc: Encounter) -> None:
        self.calls.append("leave")

    def next_turn(self, enc: Encounter) -> None:
        raise IllegalOp("in a standoff nobody's turn ends")

    def next_turn_text(self, enc: Encounter) -> str:
        return "Still staring"


@pytest.fixture
def standoff():
    obj = Standoff()
    old = mode_object(Mode.CHASE)
    register_mode(obj)
    yield obj
    register_mode(old)


def test_a_new_mode_plugs_in_as_an_object(standoff):
    enc = make(band("ann", (0, 0)))
    enc.apply(ChangeMode(Mode.CHASE))
    assert current_mode(enc) is standoff and standoff.calls == ["enter"]
    assert ActionKind.MANEUVER not in standoff.offered(list(ActionKind))
    with pytest.raises(IllegalOp, match="standoff"):
        enc.apply(NextTurn())
    assert NextTurn().describe(enc) == "Still staring"
    enc.apply(ChangeMode(Mode.BATTLE, override=True))
    assert standoff.calls == ["enter", "leave"]
    enc.apply(AddCombatant(foe("orc", (1, 1))))
    start_round(enc)
    enc.apply(NextTurn())  # battle again
