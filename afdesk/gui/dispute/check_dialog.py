"""The check dialog of a dispute: battle's contest dialog (modifiers, exact odds, dice,
defenses, Shifts, Momentum, one ResolveContest Op) with the dispute's targets: the neutral
audience for a Convince (P4a) and everyone else in the dispute, each named with why it
cannot be the target now (P4b: "Elder Bao still has grit 2 and sway 2") before the GM
tries. What the check does to the dispute is the model's (the dispute mode's
``after_check``)."""

from __future__ import annotations

from afdesk.encounter.checks import CheckKind
from afdesk.encounter.contest.assembly import assemble
from afdesk.encounter.dispute.checks import entry_of
from afdesk.encounter.dispute.ops import side_name
from afdesk.encounter.dispute.state import AUDIENCE, DisputeState
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.state import Mode
from afdesk.gui.dialogs.contest import ContestDialog

AUDIENCE_LABEL = "the neutral audience (P4a)"


def dispute_targets(enc, attacker: str, action: CheckKind) -> list[tuple[str, str, str]]:
    """Who ``attacker`` may aim ``action`` at in the dispute: (label, character id or ""
    for the neutral audience, why not or ""), the audience first for a Convince, then
    everyone in the dispute who is a character, personalities on other sides first."""
    d: DisputeState = enc.dispute
    me = entry_of(d, attacker)
    out: list[tuple[str, str, str]] = []
    if action is CheckKind.CONVINCE:
        out.append((AUDIENCE_LABEL, "", refusal(enc, attacker, action, "")))
    others = [
        e
        for e in d.entries
        if e.character and e.character != attacker and e.character in enc.combatants
    ]
    others.sort(key=lambda e: (me is not None and e.side == me.side, e.side == AUDIENCE))
    for e in others:
        label = f"{e.name} ({side_name(d, e.side)})"
        out.append((label, e.character, refusal(enc, attacker, action, e.character)))
    return out


def refusal(enc, attacker: str, action: CheckKind, target: str) -> str:
    """Why ``attacker`` cannot make ``action`` at ``target`` now ("" if it can), as the
    model says it (the rule id in the words)."""
    try:
        plan = assemble(enc, attacker, action, target)
    except IllegalOp as exc:
        return str(exc)
    return "" if plan.allowed else plan.reason


class DisputeCheckDialog(ContestDialog):
    """The contest dialog with the dispute's targets (see the module)."""

    def _fill_targets(self, preferred: str = "") -> None:
        if self.enc.mode is not Mode.DISPUTE:
            super()._fill_targets(preferred)
            return
        box = self.target_box
        box.blockSignals(True)
        box.clear()
        spec = self.action.spec
        if not spec.takes_target:
            box.addItem("(no target)", "")
        else:
            for label, cid, why in dispute_targets(self.enc, self.attacker, self.action):
                box.addItem(label + (f" — refused: {why}" if why else ""), cid)
                box.setItemData(box.count() - 1, why or label, 3)  # Qt.ToolTipRole
        i = box.findData(preferred)
        box.setCurrentIndex(max(i, 0))
        box.setEnabled(spec.takes_target)
        box.blockSignals(False)
