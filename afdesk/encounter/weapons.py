"""A character's weapons and attacks: name, damage, reach and range (E6, E12).

Kept apart from :mod:`afdesk.encounter.combatant` (which stores them) so that the damage
rules in :mod:`afdesk.encounter.damage` can use them without an import circle.
"""

from __future__ import annotations

import msgspec


class Attack(msgspec.Struct, frozen=True, omit_defaults=True):
    """One weapon or attack on a character sheet.

    ``damage`` is the hits a landed attack deals ("roll damage if you succeed", E6);
    ``reach`` the areas it attacks in melee (E12: 1 is adjacent areas); ``range`` the areas a
    ranged (aim) attack reaches without a range penalty, 0 for none (E12).
    """

    name: str
    damage: int = 0
    reach: int = 1
    range: int = 0

    def label(self) -> str:
        parts = [f"{self.damage} damage"]
        if self.reach != 1:
            parts.append(f"reach {self.reach}")
        if self.range:
            parts.append(f"range {self.range}")
        return f"{self.name} ({', '.join(parts)})"


def attack_refusal(a: Attack) -> str:
    """Why ``a`` cannot be on a character sheet, or "" if it can."""
    if not a.name.strip():
        return "an attack needs a name"
    if a.damage < 0:
        return f"{a.name}: damage cannot be negative"
    if a.reach < 0 or a.range < 0:
        return f"{a.name}: reach and range cannot be negative"
    return ""
