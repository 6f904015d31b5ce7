"""Persevere after an encounter (E15): who checks, with what, and the odds."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from afdesk.encounter.combatant import Combatant, StateKind
from afdesk.encounter.contest.assembly import Modifier, pools
from afdesk.encounter.contest.ops import Persevere, PersevereResult, persevere_party
from afdesk.encounter.modes import current_mode
from afdesk.encounter.state import Phase, exchanges_lasted
from afdesk.encounter.words import plural
from afdesk.rules.d20 import D20Check
from afdesk.rules.dice import DiceSource
from afdesk.rules.rulesets import ruleset_named

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


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


def refusal(enc: Encounter) -> str:
    """Why the GM cannot open persevere now, or "" (E15)."""
    if enc.turn.phase is not Phase.ENDED:
        return "persevere comes when the encounter is over (E15)"
    if enc.turn.persevered:
        return "everyone has persevered already for this encounter (E15)"
    n = exchanges_lasted(enc.turn)
    if n <= 1:
        return (
            f"the encounter lasted {plural(n, 'exchange')}: persevere follows only a "
            "longer one (E15)"
        )
    if not who(enc):
        return "nobody is left to persevere"
    return ""


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
    """Everyone's strength check with its odds of a success margin above the days since
    rest (E15, R13): each character's own days, else the encounter's."""
    mods = modifiers(enc)
    rules = ruleset_named(enc.ruleset)
    out = []
    for c in who(enc):
        # Each character's own days since rest when it has them (a campaign's roster), else
        # the encounter's (E15).
        days = enc.settings.days_since_rest if c.days_since_rest is None else c.days_since_rest
        dice, intf = pools(c.facet("strength"), mods)
        p = rules.p_margin_above(c.facet("strength"), [m.dice for m in mods], days)
        out.append(
            PersevereCheck(c.id, c.name, dice, intf, mods, days, p, c.has(StateKind.EXHAUSTED))
        )
    return out


def roll(enc: Encounter, source: DiceSource | None = None) -> Persevere:
    """Roll every character's persevere check; the result is one Persevere Op."""
    rules = ruleset_named(enc.ruleset)
    results = []
    for check in plan(enc):
        strength = enc.combatant(check.id).facet("strength")
        rolled = rules.roll_plain(strength, [m.dice for m in check.modifiers], source)
        if isinstance(rolled, D20Check):
            results.append(PersevereResult(check.id, d20=rolled, days=check.days))
        else:
            results.append(PersevereResult(check.id, roll=rolled, days=check.days))
    return Persevere(tuple(results))
