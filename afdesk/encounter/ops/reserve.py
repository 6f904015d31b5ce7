"""Ops of staged opponents: hold characters in reserve by group, bring a group in.

A character held in reserve keeps its place and facing on the GM's map but is not yet in the
fight: the players do not see it (:mod:`afdesk.encounter.visibility`), reflex is not dealt to
it, nobody is its opponent. Bringing its group in puts it into play; it is dealt reflex from
the next deal (E1: reinforcements arrive between exchanges; E2: every group of opponents holds
a hand). Bringing a group in during an exchange is the GM's override, and the log says so.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from afdesk.encounter.combatant import Side
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.requires import name
from afdesk.encounter.state import Phase

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.interface import Encounter

HOLD_PHASES = (Phase.SETUP, Phase.EXCHANGE_END)
"""When characters may be sent to the reserve: while preparing, or between exchanges, when
no hand holds them in the middle of a round."""


def reserve_groups(enc: Encounter) -> dict[str, list[Combatant]]:
    """The reserve groups, by name in roster order, with their members in roster order."""
    out: dict[str, list[Combatant]] = {}
    for c in enc.roster():
        if c.in_reserve:
            out.setdefault(c.reserve, []).append(c)
    return out


def group_notes(enc: Encounter, group: str) -> list[str]:
    """The sentences of the GM's notes that name the reserve group ``group`` (any case):
    the notes for reinforcements, linked to the group they are about."""
    if not group.strip():
        return []
    sentences = re.split(r"(?<=[.!?])\s+|\n+", enc.meta.notes)
    return [s.strip() for s in sentences if group.lower() in s.lower() and s.strip()]


def _names(people: list[str]) -> str:
    if len(people) <= 1:
        return "".join(people)
    return ", ".join(people[:-1]) + " and " + people[-1]


class HoldInReserve(Op, frozen=True):
    """Hold characters back in the reserve group ``group``; an empty group
    returns them to play without the log calling it reinforcements (a correction while
    preparing)."""

    ids: tuple[str, ...]
    group: str
    label = "Hold in reserve"

    def execute(self, enc: Encounter) -> None:
        group = self.group.strip()
        if group != self.group:
            raise IllegalOp("a reserve group's name cannot start or end with spaces")
        if not self.ids:
            raise IllegalOp("choose the characters to hold in reserve")
        if enc.turn.phase not in HOLD_PHASES:
            raise IllegalOp(
                "characters are held in reserve while preparing or at the end of an "
                f"exchange, not now ({enc.turn.phase.label.lower()}): they would hold a "
                "reflex hand this exchange (E2)"
            )
        for cid in self.ids:
            c = enc.combatant(cid)
            if group and c.side is Side.BAND:
                raise IllegalOp(
                    f"{c.name} is a band member: the band is always in play; opponents, "
                    "denizens and followers wait in reserve"
                )
            if c.exited:
                raise IllegalOp(f"{c.name} has left the encounter")
            if enc.actor == cid:
                raise IllegalOp(f"it is {c.name}'s turn")
        if len(set(self.ids)) != len(self.ids):
            raise IllegalOp("a character is named twice")
        for cid in self.ids:
            enc.put(enc.combatant(cid).replace(reserve=group))

    def describe(self, enc: Encounter) -> str:
        who = _names([name(enc, cid) for cid in self.ids])
        if not self.group:
            return f"Reserve: {who} back in play"
        return f"Reserve: {who} held back in {self.group}, unseen by the players"

    def title(self, enc: Encounter) -> str:
        return f"Reserve {self.group}" if self.group else "Out of reserve"


class BringIn(Op, frozen=True):
    """Bring a reserve group into the fight (E1, E2): its members appear on the map
    and in the player view and are dealt a hand for the group from the next deal. A member
    without a reflex group takes the reserve's name as its group, so the group acts on one
    card of its own."""

    group: str
    label = "Bring in"

    def execute(self, enc: Encounter) -> None:
        members = reserve_groups(enc).get(self.group)
        if not members:
            raise IllegalOp(f"there is no reserve group {self.group!r}")
        for c in members:
            enc.put(c.replace(reserve="", group=c.group or self.group))

    def describe(self, enc: Encounter) -> str:
        members = reserve_groups(enc).get(self.group, [])
        who = _names([c.name for c in members])
        phase = enc.turn.phase
        if phase is Phase.SETUP:
            when = "they are dealt reflex with everyone"
        else:
            when = "they join reflex from the next deal (E2)"
        override = " (GM override: E1 brings reinforcements between exchanges)"
        if phase in (Phase.SETUP, Phase.EXCHANGE_END, Phase.ENDED):
            override = ""
        return f"Reinforcements: {self.group} come in ({who}); {when}{override}"

    def title(self, enc: Encounter) -> str:
        return f"Bring in {self.group}"


__all__ = ["HOLD_PHASES", "BringIn", "HoldInReserve", "group_notes", "reserve_groups"]
