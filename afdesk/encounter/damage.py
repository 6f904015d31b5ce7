"""Damage a landed attack deals, and hits that reach grit (E6, E12, R12).

The attacker chooses one of its attacks (:class:`~afdesk.encounter.weapons.Attack`): its
reach and range decide who it can attack (E12), its damage is the hits it deals when it
lands (E6: "roll damage if you succeed"), and each Momentum spent on damage adds +1 or -1
(R12). The pages give no automatic consequence when a character's hits reach its grit: the
app flags it and the GM decides (down, out or nothing) with ``DecideHarm``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.weapons import Attack

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.rules.d20 import D20Check
    from afdesk.rules.verdict import Verdict


class _Spent(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def dice(self) -> int: ...


HARM_CHOICES = {
    "down": "is down (E17)",
    "out": "is out of the fight",
    "nothing": "fights on",
}
"""What the GM may decide when a character's hits reach its grit, with the log's words."""


def attack_named(c: Combatant, name: str) -> Attack:
    """The attack ``name`` on ``c``'s sheet; :class:`IllegalOp` if it has none so named."""
    for a in c.attacks:
        if a.name == name:
            return a
    have = ", ".join(a.name for a in c.attacks) or "none"
    raise IllegalOp(f"{c.name} has no attack named {name!r} (attacks: {have})")


def default_attack(c: Combatant, ranged: bool) -> Attack | None:
    """The attack the dialog offers first: the first ranged one for an aim, the first melee
    one (no range) for a hack, else the first at all; None for a character without any."""
    fitting = [a for a in c.attacks if (a.range > 0) == ranged]
    if fitting:
        return fitting[0]
    return c.attacks[0] if c.attacks else None


def reach_and_range(c: Combatant, attack: str = "") -> tuple[int, int]:
    """(reach, range) of an attack by ``c`` (E12): the chosen attack's, or the character's
    own reach and weapon range when it attacks with none chosen."""
    if not attack:
        return c.reach, c.weapon_range
    a = attack_named(c, attack)
    return a.reach, a.range


def parry_reach(c: Combatant) -> int:
    """How far ``c`` parries (E8: only attacks from within its reach): its longest reach."""
    return max([c.reach, *(a.reach for a in c.attacks)])


def momentum_damage(uses: Iterable[_Spent]) -> int:
    """+1 or -1 for each Momentum spent on damage (R12)."""
    return sum(u.dice for u in uses if u.kind == "damage")


def landed_hits(damage: int, uses: Iterable[_Spent]) -> int:
    """The hits a landed attack deals: the attack's damage (E6) plus the Momentum spent on
    damage (R12), never below 0."""
    if damage < 0:
        raise IllegalOp("damage cannot be negative")
    return max(damage + momentum_damage(uses), 0)


def hits_reach_grit(c: Combatant) -> bool:
    """Whether ``c``'s hits have reached its grit and the GM has not yet decided what that
    does at this many hits (the flag on the token and in the Character dock)."""
    return not c.exited and c.hits > 0 and c.hits >= c.grit and c.hits > c.harm_call


def harm_text(c: Combatant) -> str:
    """The flag's words: "Hits 3 reach grit 3: the GM decides"."""
    return f"hits {c.hits} reach grit {c.grit}: the GM decides (down, out or nothing)"


def plan_damage(attacker: Combatant, weapon: str) -> int:
    """The damage the check dialog starts from: the chosen attack's, else 0 (the GM types
    it). A Taunt with no weapon deals its success margin instead (:func:`margin_damage`)."""
    return attack_named(attacker, weapon).damage if weapon else 0


def margin_damage(v: Verdict, d20: D20Check | None = None) -> int:
    """The damage of a social attack made with no weapon: its success margin (R13), 0 when
    it does not land; under d20-degrees the degree's margin, at least 1 (D2).

    The reading (P5, E6, E17): a Taunt, the Attack action's social form, "deals its damage
    to grit", and an attack "rolls damage if you succeed" (E6), but the pages give no
    unarmed or social damage and RULES.md no damage table: damage is the chosen weapon's
    on the sheet. A social attack needs no weapon (nothing in E6, E8 or P5 ties a Taunt to
    one), so its damage comes from the check itself: the success margin, the number the
    rules already turn into lost grit elsewhere (a chase's margin, H3; persevere's, E15)
    and into people moved by a Convince (P4a). Momentum on damage (R12) adds to it."""
    if not v.lands:
        return 0
    if v.attack is not None:
        return max(v.attack.success_margin, 0)
    if d20 is not None:
        from afdesk.rules.rulesets import d20_margin

        return max(d20_margin(d20.degree), 1)
    return 0
