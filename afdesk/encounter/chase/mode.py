"""The chase as a mode of play (E16, H1-H5): registered in place of the placeholder.

A chase plays in exchanges of five rounds with reflex as usual (E1, E2, H3); on each turn
the participant rolls its pursuit die and checks (the Ops in
:mod:`afdesk.encounter.chase.ops`). When a round ends, the pole is the participant whose
total gained most this round (H3, the higher reflex card breaks ties); it picks the next
round's stage properties, and a stage the GM prepared ahead is taken now.

The mode's Ops are imported when a file names one, when the chase is in play or when
every Op is asked for (:attr:`ChaseMode.op_tags`), not with the mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from afdesk.encounter.chase.order import pname, reflex_order
from afdesk.encounter.chase.state import ChaseState, Participant, Way, chase_of
from afdesk.encounter.modes import Battle, next_index, register_mode
from afdesk.encounter.parts import Part
from afdesk.encounter.state import Phase, declare_mode
from afdesk.rules import pursuit

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

CHASE = declare_mode("chase")
CHASE_PART = Part("chase", ChaseState, ChaseState, "chase", before="fog")  # schema version 3


def round_pole(enc: Encounter, chase: ChaseState) -> tuple[str, int]:
    """The pole of the round just played and its success margin (0 on a failure), or
    ("", 0) when nobody took a turn (H3)."""
    scores = {p.id: p.score for p in chase.participants if p.score is not None}
    if not scores:
        return "", 0
    order = reflex_order(enc, chase)
    order += [pid for pid in scores if pid not in order]
    best = pursuit.pole(scores, order)
    p = chase.participant(best)
    assert p is not None
    return best, p.margin if p.success else 0


def new_round(chase: ChaseState) -> ChaseState:
    """Clear what belongs to one round: pursuit dice, scores, grit lost (H3), and special
    actions not taken on the turn that rolled them (H1)."""
    cleared = tuple(
        msgspec.structs.replace(
            p,
            colours=(),
            faces=(),
            score=None,
            margin=0,
            success=False,
            round_speed=None,
            grit_lost=0,
            special=0,
            crew_checked=(),
        )
        for p in chase.participants
    )
    # The countdown die rolls once a round (H4): the next round may roll it again.
    countdown = msgspec.structs.replace(chase.countdown, rolled=False)
    return msgspec.structs.replace(chase, participants=cleared, countdown=countdown)


class ChaseMode(Battle):
    """Chase (E16, H1-H5): battle's turn flow, plus the chase's part, the pole at each
    round's end and the stage it picks."""

    mode = CHASE
    part = CHASE_PART
    op_tags = frozenset(
        {
            "AddVehicle",
            "CatchDecoy",
            "ChaseCheck",
            "CrewCheck",
            "EndSpecial",
            "EndStageEffect",
            "HazardAttack",
            "KnockOut",
            "LeaveVehicle",
            "ResolveChase",
            "RollCountdown",
            "RollPursuit",
            "SetCountdown",
            "SetParticipant",
            "SetStage",
            "SpecialAction",
        }
    )

    def import_ops(self) -> None:
        from afdesk.encounter.chase import check, ops, special, stage  # noqa: F401 - its Ops

    def fate(self, part: Any, cid: str) -> str:
        """A participant captured, escaped or out of the chase (H5)."""
        p = part.participant(cid) if isinstance(part, ChaseState) else None
        if p is None:
            return ""
        if p.result.startswith("captured by "):
            return "captured"
        if p.result == "escaped":
            return "escaped"
        return "out" if p.out or p.result == "out" else ""

    def holds_no_reflex(self, enc: Encounter) -> frozenset[str]:
        """H5: only a vehicle's commander holds reflex; its helm and crew are dealt no cards
        and take no turns of their own (they act on the commander's card)."""
        chase: ChaseState = chase_of(enc)
        aboard = {cid for v in chase.vehicles for cid in (v.helm, *v.crew)}
        return frozenset(aboard - {v.commander for v in chase.vehicles})

    def attack_modifiers(self, enc: Encounter) -> tuple[tuple[str, str, int, str, str], ...]:
        """H4: on an Obscured stage every attack takes an extra -2 (two Interference, R1)."""
        chase: ChaseState = chase_of(enc)
        if pursuit.StageProperty.OBSCURED not in chase.stage:
            return ()
        why = "the chase's stage is Obscured: every attack takes an extra -2"
        return (("obscured", "Obscured", -pursuit.stages.PENALTY, why, "H4"),)

    def enter(self, enc: Encounter) -> None:
        """Everyone on the map becomes a participant with a total of 0, on foot at its run
        speed (the GM then sets head starts, ways of moving and speeds); vehicles,
        countdown and prepared stages the encounter already holds are kept, and whoever
        is aboard a vehicle stays its crew, not a runner of its own (H5)."""
        old: ChaseState = chase_of(enc)
        known = {p.id: p for p in old.participants}
        participants = []
        for c in enc.roster():
            if not c.on_map or old.vehicle_of(c.id) is not None:
                continue
            prev = known.get(c.id)
            participants.append(
                Participant(c.id, total=prev.total, way=prev.way, speed=prev.speed)
                if prev is not None
                else Participant(c.id, way=Way.FOOT, speed=c.speeds.run)
            )
        for v in old.vehicles:
            prev = known.get(v.id)
            participants.append(
                Participant(v.id, total=prev.total if prev else 0, way=Way.VEHICLE, speed=v.speed)
            )
        enc.set_part(
            "chase",
            msgspec.structs.replace(old, participants=tuple(participants), pole="", pole_margin=0),
        )

    def next_turn(self, enc: Encounter) -> None:
        before = enc.turn
        # The round ends here (Battle.next_turn: no one is left to act in its order):
        # its reflex order and pole, read before the round's order is gone (H3).
        ends = before.phase is Phase.TURNS and next_index(enc, before) >= len(before.order)
        if ends:
            order = tuple(reflex_order(enc, chase_of(enc)))
            pole, margin = round_pole(enc, chase_of(enc))
        super().next_turn(enc)
        if ends:
            assert enc.turn.phase in (Phase.CARDS, Phase.EXCHANGE_END)
            chase: ChaseState = chase_of(enc)
            chase = new_round(chase)
            stage = chase.stage
            ahead = chase.stages_ahead
            if ahead:
                stage, ahead = ahead[0], ahead[1:]
            from afdesk.encounter.chase.check import steady_crew

            steady_crew(enc, stage)
            enc.set_part(
                "chase",
                msgspec.structs.replace(
                    chase.with_stage(stage),  # a new stage ends every teeter (H4)
                    pole=pole,
                    pole_margin=margin,
                    stages_ahead=ahead,
                    reflex=order,
                ),
            )

    def next_turn_text(self, enc: Encounter) -> str:
        text = super().next_turn_text(enc)
        t = enc.turn
        if next_index(enc, t) >= len(t.order):
            pole, margin = round_pole(enc, chase_of(enc))
            if pole:
                text += (
                    f"; pole: {pname(enc, pole)} (picks "
                    f"{pursuit.stages.property_count(margin)} stage properties, H3)"
                )
        return text


register_mode(ChaseMode())
