"""The infiltration as a mode of play (E16, N1-N8): registered in place of the placeholder.

Turns run as in battle (E1-E3), except that until the alarm (N6) a guardian is unaware: on
its turn its guard resets but it takes no snap and no action and does not move except by
the watch step the GM confirms (N3). Once the alarm is raised, each guardian is alerted
from its next turn (N6). A Hide while an opponent has a clear line on the hider is
refused (N4a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from afdesk.encounter.infiltration.state import (
    Departure,
    InfiltrationState,
    Objective,
    infiltration_of,
)
from afdesk.encounter.infiltration.watch import WatchStep, seen_by
from afdesk.encounter.limits import FACING, ZONE_AREA, Bound, counters
from afdesk.encounter.modes import Battle, register_mode
from afdesk.encounter.parts import Part
from afdesk.encounter.state import Phase, declare_mode

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.interface import Encounter
    from afdesk.rules.verdict import Verdict

INFILTRATION = declare_mode("infiltration")
INFILTRATION_PART = Part(  # schema version 4
    "infiltration",
    InfiltrationState,
    InfiltrationState,
    "infiltration",
    owner="the infiltration's",
    before="art",
)


class InfiltrationMode(Battle):
    """Infiltration (E16, N1-N8): battle's turn flow with unaware guardians (N3) until the
    alarm (N6)."""

    mode = INFILTRATION
    part = INFILTRATION_PART
    op_tags = frozenset(
        {
            "ConfirmWatch",
            "EliminateDecoy",
            "HiddenActsFrom",
            "LoseDecoy",
            "MarkLeft",
            "MarkObjective",
            "MoveDecoys",
            "RaiseAlarm",
            "Reveal",
            "SetObjective",
            "SetObscured",
            "SetRoles",
            "SetUpIntruder",
            "SetUpSharedDecoys",
            "SurpriseAttack",
        }
    )
    """Imported when a file names one, when the infiltration is in play or when every Op
    is asked for, not with the mode."""

    def import_ops(self) -> None:
        from afdesk.encounter.infiltration import ops, setup  # noqa: F401 - its Ops

    bounds: ClassVar[dict[type, tuple[Bound, ...]]] = {
        Objective: (Bound("area", ZONE_AREA, "[]", "objective area (N1)"),),
        Departure: counters(("exchange", "exchange (E1)")),
        InfiltrationState: (Bound("obscured", ZONE_AREA, "[][]", "obscured area (N4a)"),),
        WatchStep: (
            Bound("area", ZONE_AREA, "[]", "watch step area (N3)"),
            Bound("decoy", ZONE_AREA, "[]", "decoy area (N3)"),
            Bound("facing", FACING, words="facing (E11)"),
        ),
    }
    surprise_leaves_down = True  # N7
    decoy_owners_secret = True  # N2

    def turn_refusal(self, enc: Encounter, c: Combatant, kind: str) -> str:
        inf: InfiltrationState = infiltration_of(enc)
        if inf.unaware(c.id):
            return (
                f"{c.name} is an unaware guardian: it resets its guard and rolls its watch, "
                "with no snap, no action and no move but the watch step (N3)"
            )
        if kind == "hide" and c.area is not None:
            eyes = seen_by(enc, c.id, (c.area[0], c.area[1]))
            if eyes:
                who = ", ".join(enc.combatants[e].name for e in eyes if e in enc.combatants)
                return f"{c.name} cannot hide: {who} has a clear line on {c.name} (N4a)"
        return ""

    def check_modifiers(
        self, enc: Encounter, c: Combatant, kind: str
    ) -> tuple[tuple[str, str, int, str, str], ...]:
        """N5: a hidden character's Creep (its sneak check to act) gets +2 for being
        hidden."""
        if str(kind) == "creep" and c.hidden:
            return (("hidden", "Hidden", 2, f"{c.name} is hidden: +2 to Creep", "N5"),)
        return ()

    def assemble(
        self, enc: Encounter, attacker: str, action: str, target: str, facet: str, weapon: str
    ) -> Any:
        """N7: a surprise attack's defenses are closed until the target's perception
        stands (the check dialog offers it: afdesk.encounter.infiltration.perception)."""
        from afdesk.encounter.contest.assembly import CheckKind, assemble_on_map
        from afdesk.encounter.infiltration.perception import surprise_plan

        plan = assemble_on_map(enc, attacker, CheckKind(action), target, facet, weapon)
        return surprise_plan(enc, plan, perceived=False)

    def after_check(self, enc: Encounter, record: Any, v: Verdict) -> None:
        """N4d: a check fumbled while hidden costs a decoy, its owner picking which: the
        hidden state notes it until :class:`LoseDecoy` (the pending decision) takes it."""
        from afdesk.encounter.infiltration.ops import hidden_fumblers, owe_decoy

        for cid in hidden_fumblers(enc, record, v):
            owe_decoy(enc, cid)

    def check_text(self, enc: Encounter, record: Any, v: Verdict) -> str:
        from afdesk.encounter.infiltration.ops import hidden_fumblers

        return "".join(
            f" — Fumble while hidden: {n} loses a decoy, {n}'s owner picks which (N4d, R6)"
            for n in (enc.combatants[c].name for c in hidden_fumblers(enc, record, v))
        )

    def exit_words(self, edge: str) -> str:
        """N8: whoever leaves over an edge gets out by it."""
        return f"gets out by the {edge} edge"

    def decisions(self, enc: Encounter) -> list[Any]:
        """N4d: each hidden character owing a decoy to a fumble picks which goes."""
        from afdesk.encounter.infiltration.decisions import fumble_decisions

        return list(fumble_decisions(enc))

    def revealed(self, enc: Encounter, cid: str) -> None:
        """N6: the first intruder revealed (here by its own attack, N7) raises the alarm."""
        from afdesk.encounter.infiltration.ops import alarm_raised

        inf: InfiltrationState = infiltration_of(enc)
        if cid in inf.intruders and not inf.alarm:
            enc.set_part("infiltration", alarm_raised(enc, inf))

    def entered(self, enc: Encounter, cid: str, areas: list[tuple[int, int]]) -> None:
        """N4b: a guardian entering a decoy's area eliminates it, on any move."""
        from afdesk.encounter.infiltration.ops import enter_decoys

        for a in areas:
            enter_decoys(enc, cid, (a[0], a[1]))

    def entered_note(self, enc: Encounter, cid: str, areas: list[tuple[int, int]]) -> str:
        from afdesk.encounter.infiltration.ops import decoys_entered

        lost = decoys_entered(enc, cid, areas)
        return f" — eliminated: {', '.join(lost)} (N4b)" if lost else ""

    def reveal_note(self, enc: Encounter, cid: str) -> str:
        inf: InfiltrationState = infiltration_of(enc)
        return "; the alarm is raised (N6)" if cid in inf.intruders and not inf.alarm else ""

    def enter(self, enc: Encounter) -> None:
        """Whatever the infiltration held is kept (E16: a change of mode keeps every state)."""

    def leave(self, enc: Encounter) -> None:
        """The part stays as it is: a later infiltration picks it up again (E16)."""

    def next_turn(self, enc: Encounter) -> None:
        """Battle's Next turn; once the alarm is raised, the round's end alerts the
        guardians who had already had their turn in it (N6: from their next turn)."""
        super().next_turn(enc)
        inf: InfiltrationState = infiltration_of(enc)
        if (
            inf.alarm
            and enc.turn.phase is not Phase.TURNS
            and set(inf.guardians) - set(inf.alerted)
        ):
            enc.set_part("infiltration", msgspec.structs.replace(inf, alerted=inf.guardians))

    def next_turn_text(self, enc: Encounter) -> str:
        text = super().next_turn_text(enc)
        inf: InfiltrationState = infiltration_of(enc)
        if inf.guardians and not inf.alarm:
            text += " (unaware guardians only watch, N3)"
        return text


register_mode(InfiltrationMode())
