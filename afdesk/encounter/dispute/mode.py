"""The dispute as a mode of play (E16, P1-P9): registered in place of the placeholder.

A dispute plays in exchanges of five rounds with reflex as usual (P1, E1, E2); its own part
(:mod:`.state`) holds the platforms, who stands where, tension and the outcome. Next turn
is battle's, and refused once the dispute is over (P9: the GM changes mode or ends the
encounter); at an exchange end the GM may close it (P8). Its menus leave out what hides,
sneaks or moves quickly; dodge and parry never contest a social check (P1, E8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from afdesk.encounter.checks import CheckKind
from afdesk.encounter.combatant import Side
from afdesk.encounter.dispute.state import (
    AUDIENCE,
    DisputeOutcome,
    DisputeState,
    Entry,
    PlatformProperty,
    dispute_of,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.limits import HEADCOUNT, NON_NEGATIVE, Bound, counters
from afdesk.encounter.modes import Battle, register_mode
from afdesk.encounter.parts import Part
from afdesk.encounter.state import declare_mode

if TYPE_CHECKING:
    from afdesk.encounter.contest.assembly import ContestRecord, Plan
    from afdesk.encounter.interface import Encounter
    from afdesk.encounter.pending import Decision
    from afdesk.rules.verdict import Verdict

DISPUTE = declare_mode("dispute")
DISPUTE_PART = Part(  # schema version 4
    "dispute", DisputeState, DisputeState, "dispute", owner="the dispute's", before="art"
)

NOT_OFFERED = frozenset({"hide", "creep", "crouch", "hustle", "fend", "leave-overlap"})
"""What a dispute's menus leave out (P1): hiding, sneaking, moving quickly, parrying."""


class DisputeMode(Battle):
    """Dispute (E16, P1-P9): battle's turn flow, the dispute's part, +2 to persevere."""

    mode = DISPUTE
    part = DISPUTE_PART
    op_tags = frozenset(
        {
            "AddPlatform",
            "AddTension",
            "CloseDispute",
            "DisputeConvince",
            "EditPlatform",
            "JoinDispute",
            "MoveDisputant",
            "SetDisputeStats",
            "SetTensionThreshold",
            "SettleDispute",
        }
    )
    """Imported when a file names one, when the dispute is in play or when every Op is
    asked for, not with the mode."""
    bounds: ClassVar[dict[type, tuple[Bound, ...]]] = {
        PlatformProperty: counters(("dice", "platform property dice (P2, R1)")),
        Entry: (
            Bound("count", HEADCOUNT, words="head count (P3)"),
            Bound("grit", NON_NEGATIVE, words="grit (P3)"),
            Bound("wits", NON_NEGATIVE, words="wits (P3, P6)"),
            Bound("sway", NON_NEGATIVE, words="sway (P3, P4b)"),
        ),
        DisputeState: (
            Bound("tension", NON_NEGATIVE, words="tension (P7)"),
            Bound("threshold", NON_NEGATIVE, words="tension threshold (P7)"),
        ),
        DisputeOutcome: counters(("exchange", "exchange (E1)")),
    }
    low_activity = True

    def offers(self, kind: object) -> bool:
        """Social actions and snaps, not hiding or sneaking (P1, P5)."""
        return str(kind) not in NOT_OFFERED

    def enter(self, enc: Encounter) -> None:
        """Whatever the dispute held is kept (E16: a change of mode keeps every state);
        every character on the map not yet in it joins the neutral audience with its
        grit (P3), a player character marked as such."""
        d: DisputeState = dispute_of(enc)
        known = {e.character for e in d.entries if e.character} | {e.id for e in d.entries}
        new = [
            Entry(
                c.id,
                c.name,
                side=AUDIENCE,
                grit=max(c.grit, 0),
                character=c.id,
                player=c.side is Side.BAND,
            )
            for c in enc.roster()
            if c.on_map and c.id not in known
        ]
        if new:
            enc.set_part("dispute", msgspec.structs.replace(d, entries=(*d.entries, *new)))

    def import_ops(self) -> None:
        from afdesk.encounter.dispute import checks, convince, ops  # noqa: F401 - its Ops

    def leave(self, enc: Encounter) -> None:
        """The dispute's part stays as it is: a later dispute picks it up again (E16)."""

    def assemble(
        self, enc: Encounter, attacker: str, action: str, target: str, facet: str, weapon: str
    ) -> Plan | None:
        """A Convince against the audience or a personality, the platform's dice on it, and
        any check without a zone (P1, P2, P4)."""
        from afdesk.encounter.dispute import checks  # with its Ops

        return checks.dispute_plan(enc, attacker, CheckKind(action), target, facet, weapon)

    def check_targets(
        self, enc: Encounter, attacker: str, action: str
    ) -> list[tuple[str, str, str]] | None:
        from afdesk.encounter.dispute import checks  # with its Ops

        return checks.check_targets(enc, attacker, CheckKind(action))

    def after_check(self, enc: Encounter, record: ContestRecord, v: Verdict) -> None:
        from afdesk.encounter.dispute import checks  # with its Ops

        checks.after_check(enc, record, v)

    def check_text(self, enc: Encounter, record: ContestRecord, v: Verdict) -> str:
        from afdesk.encounter.dispute import checks  # with its Ops

        return checks.check_text(enc, record, v)

    def damage_as_hits(self, enc: Encounter, record: ContestRecord) -> bool:
        from afdesk.encounter.dispute import checks  # with its Ops

        return not checks.taunted_in_dispute(enc, record)

    def change_now(self, enc: Encounter) -> str:
        from afdesk.encounter.dispute import checks  # with its Ops

        return checks.change_now(enc)

    def retort_refusal(self, enc: Encounter, attacker: str, target: str, ally: str) -> str:
        """Anyone present in the dispute on another side than the attacker's (P5)."""
        from afdesk.encounter.dispute import checks  # with its Ops

        return checks.retort_refusal(enc, attacker, target, ally)

    def decisions(self, enc: Encounter) -> list[Decision]:
        """The fumble's tension, a broken dispute's battle, chase or end (P7), closing at
        an exchange end (P8): the window's decisions bar shows them (one source)."""
        from afdesk.encounter.dispute import checks  # with its Ops

        return checks.decisions(enc, enc.log)

    def next_turn(self, enc: Encounter) -> None:
        d: DisputeState = dispute_of(enc)
        if d.over:
            from afdesk.encounter.dispute.ops import outcome_text

            raise IllegalOp(
                f"the dispute is over ({outcome_text(d)}): change the mode or end the "
                "encounter (P7, P9)"
            )
        super().next_turn(enc)

    def next_turn_text(self, enc: Encounter) -> str:
        text = super().next_turn_text(enc)
        if text.endswith(f"exchange {enc.turn.exchange} is over") and dispute_of(enc).platforms:
            text += "; the GM may close the dispute (P8)"
        return text


register_mode(DisputeMode())
