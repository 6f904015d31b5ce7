"""Persevere after an encounter (E15): who checks, with what, and the odds."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from afdesk.encounter.combatant import Combatant, StateKind
from afdesk.encounter.contest import Modifier, pools
from afdesk.encounter.modes import current_mode
from afdesk.encounter.ops.check import (
    Persevere,
    PersevereResult,
    d20_margin,
    persevere_party,
)
from afdesk.encounter.state import exchanges_lasted
from afdesk.rules import classic, d20, odds
from afdesk.rules.contest import roll as rules_roll
from afdesk.rules.dice import DiceSource

if TYPE_CHECKING:
    from afdesk.encounter.model import Encounter


class PersevereCheck(NamedTuple):
    """One character's strength check and its chance of passing."""

    id: str
    name: str
    dice: int
    interference: int
    modifiers: tuple[Modifier, ...]
    days: int
    p_pass: float
    exhausted: bool


def due(enc: Encounter) -> bool:
    """Persevere follows an encounter longer than one exchange (E15)."""
    return exchanges_lasted(enc.turn) > 1 and not enc.turn.persevered and bool(who(enc))


def modifiers(enc: Encounter) -> tuple[Modifier, ...]:
    """-2 if it lasted more than two exchanges (strenuous); +2 for low activity (E15)."""
    mods = []
    exchanges = exchanges_lasted(enc.turn)
    if exchanges > 2:
        mods.append(
            Modifier("strenuous", "Strenuous", -2, f"{exchanges} exchanges: strenuous", "E15")
        )
    if enc.settings.low_activity or current_mode(enc).low_activity:
        mods.append(Modifier("low-activity", "Low activity", 2, "little physical activity", "E15"))
    return tuple(mods)


def who(enc: Encounter) -> list[Combatant]:
    """Everyone who took part and did not leave: the band and their opponents alike."""
    return persevere_party(enc)


def plan(enc: Encounter) -> list[PersevereCheck]:
    mods = modifiers(enc)
    days = enc.settings.days_since_rest
    out = []
    for c in who(enc):
        dice, intf = pools(c.facet("strength"), mods)
        if enc.ruleset == d20.NAME:
            bonus = c.facet("strength") + sum(m.dice for m in mods)
            dist = odds.degree_odds(bonus, d20.PLAIN_TN, 0)
            p = float(sum(v for k, v in dist.items() if d20_margin(k) > days))
        elif enc.ruleset == classic.NAME:
            p = odds.classic_p_gain_above(odds.PoolSpec(dice, intf), days)
        else:
            p = odds.distribution(odds.PoolSpec(dice, intf)).p_gain_above(days)
        out.append(
            PersevereCheck(c.id, c.name, dice, intf, mods, days, p, c.has(StateKind.EXHAUSTED))
        )
    return out


def roll(enc: Encounter, source: DiceSource | None = None) -> Persevere:
    """Roll every character's persevere check; the result is one Persevere Op."""
    results = []
    for check in plan(enc):
        if enc.ruleset == d20.NAME:
            c = enc.combatant(check.id)
            bonus = c.facet("strength") + sum(m.dice for m in check.modifiers)
            results.append(
                PersevereResult(
                    check.id,
                    d20=d20.roll_d20(bonus, d20.PLAIN_TN, 0, source=source),
                    days=check.days,
                )
            )
            continue
        results.append(
            PersevereResult(
                check.id,
                roll=rules_roll(enc.ruleset, check.dice, check.interference, source=source),
                days=check.days,
            )
        )
    return Persevere(tuple(results))
