"""Which attack from the attacker's sheet a check uses: its reach and range
feed the reach and range checks (E12), its damage the hits a landed attack deals (E6)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QWidget

from afdesk.encounter.combatant import Combatant
from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.damage import default_attack, landed_hits
from afdesk.encounter.model import Encounter


class WeaponBox(QComboBox):
    """The attacker's attacks; the first entry attacks with its own reach and weapon range
    (the GM types the damage)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolTip(
            "The weapon or attack: its reach and range decide who can be attacked (E12), "
            "its damage is dealt if the attack lands (E6)"
        )

    def fill(self, attacker: Combatant, action: CheckKind) -> None:
        """Offer ``attacker``'s attacks for ``action``, the fitting one chosen (no signal)."""
        self.blockSignals(True)
        keep = self.currentData()
        self.clear()
        own = f"no weapon (reach {attacker.reach}"
        own += f", range {attacker.weapon_range})" if attacker.weapon_range else ")"
        self.addItem(own, "")
        for a in attacker.attacks:
            self.addItem(a.label(), a.name)
        attack = action.spec.attack
        chosen = default_attack(attacker, action is CheckKind.AIM) if attack else None
        i = self.findData(keep) if keep else -1
        if i < 0:
            i = self.findData(chosen.name) if chosen is not None else 0
        self.setCurrentIndex(max(i, 0))
        self.setEnabled(attack and bool(attacker.attacks))
        self.blockSignals(False)

    def weapon(self) -> str:
        return str(self.currentData() or "") if self.isEnabled() else ""

    def choose(self, name: str) -> None:
        """Choose the attack ``name`` (as the GM would, with its signal)."""
        i = self.findData(name)
        if i < 0:
            raise KeyError(name)
        self.setCurrentIndex(i)


def zero_hits_landing(enc: Encounter, f: ContestFlow) -> bool:
    """Whether applying would land an attack on a target for 0 hits (E6, R12)."""
    if not (f.plan.action.spec.attack and f.plan.target and f.rolled):
        return False
    return f.verdict_now().lands and landed_hits(f.hits, f.momentum_uses) == 0


def zero_hits_question(enc: Encounter, f: ContestFlow) -> str:
    """The question a landed attack that would do 0 hits asks the GM before applying."""
    target = enc.combatant(f.plan.target).name
    why = f"the {f.plan.weapon}'s damage" if f.plan.weapon else "no weapon chosen, damage"
    return (
        f"The attack lands, but {target} would take 0 hits ({why} is {f.hits}). Set the "
        "damage, or press Apply again to apply it with 0 hits."
    )
