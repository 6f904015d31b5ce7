"""A character's weapons and attacks: name, damage, reach and range (E6, E12).

Kept apart from :mod:`afdesk.encounter.combatant` (which stores them) so that the damage
rules in :mod:`afdesk.encounter.damage` can use them without an import circle.
"""

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


def format_attacks(attacks: tuple[Attack, ...]) -> str:
    """The attacks as the character form shows them: one per line, "name, damage, reach,
    range"."""
    return "\n".join(f"{a.name}, {a.damage}, {a.reach}, {a.range}" for a in attacks)


def parse_attacks(text: str) -> tuple[Attack, ...]:
    """Attacks typed one per line as "name, damage[, reach[, range]]" (reach 1 and range 0
    when left out); :class:`IllegalOp` naming the line that is wrong."""
    from afdesk.encounter.errors import IllegalOp

    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split(",")]
        if len(parts) < 2 or len(parts) > 4:
            raise IllegalOp(
                f"attack line {n} ({line.strip()!r}) should be: name, damage, reach, range "
                "(reach and range may be left out)"
            )
        numbers = []
        for what, value in zip(("damage", "reach", "range"), parts[1:], strict=False):
            if not value.isdigit():
                raise IllegalOp(f"attack line {n}: the {what} {value!r} is not a whole number")
            numbers.append(int(value))
        reach = numbers[1] if len(numbers) > 1 else 1
        rng = numbers[2] if len(numbers) > 2 else 0
        attack = Attack(parts[0], numbers[0], reach, rng)
        why = attack_refusal(attack)
        if why:
            raise IllegalOp(f"attack line {n}: {why}")
        out.append(attack)
    return tuple(out)
