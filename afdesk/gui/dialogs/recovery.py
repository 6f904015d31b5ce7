"""Recovering an encounter after a crash: which encounter, when, and the choice."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


class RecoveryChoice:
    RECOVER = "recover"
    OPEN_SAVED = "open-saved"
    DISCARD = "discard"
    LATER = "later"


def ask(pending, parent: QWidget | None = None) -> str:
    """Ask the GM what to do with one journal; returns a RecoveryChoice value."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Recover an encounter?")
    when = pending.modified.strftime("%a %d %b %Y at %H:%M")
    where = f"its file {pending.file}" if pending.file else "it was never saved"
    text = (
        f"<b>{pending.name}</b> was not closed properly: its crash journal holds "
        f"{pending.ops} recorded step(s) (changes, undos and redos) up to {when} that are "
        f"not in a saved file ({where})."
    )
    if pending.problem:
        text += f"<br><br>It cannot be recovered: {pending.problem}"
    elif pending.dropped:
        text += f"<br><br>Part of it is damaged and will be left out: {pending.dropped}."
    box.setText(text)
    box.setInformativeText("Nothing is deleted unless you choose Discard.")
    recover = box.addButton("&Recover", QMessageBox.ButtonRole.AcceptRole)
    recover.setEnabled(not pending.problem)
    saved = None
    if pending.file is not None:
        saved = box.addButton("&Open the saved file", QMessageBox.ButtonRole.ActionRole)
    discard = box.addButton("&Discard the changes", QMessageBox.ButtonRole.DestructiveRole)
    later = box.addButton("Decide &later", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(recover if not pending.problem else later)
    box.exec()
    clicked = box.clickedButton()
    if clicked is recover:
        return RecoveryChoice.RECOVER
    if saved is not None and clicked is saved:
        return RecoveryChoice.OPEN_SAVED
    if clicked is discard:
        return RecoveryChoice.DISCARD
    return RecoveryChoice.LATER
