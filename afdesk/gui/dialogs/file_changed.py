"""The GM's choice when the file of the open encounter changed on disk since it was
opened or last saved: overwrite it, save elsewhere, or reload it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget


def ask_file_changed(parent: QWidget | None, path: Path, detail: str) -> str:
    """ "overwrite", "save-as", "reload", or "" if the GM cancels."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("The file changed on disk")
    box.setText(f"{path.name} was not saved: {detail}.")
    box.setInformativeText(
        "Overwrite it with this encounter, save this encounter under another name, or "
        "reload the file (this encounter's changes since it was saved are then lost)."
    )
    buttons = {
        box.addButton("&Overwrite", QMessageBox.ButtonRole.DestructiveRole): "overwrite",
        box.addButton("Save &As…", QMessageBox.ButtonRole.AcceptRole): "save-as",
        box.addButton("&Reload", QMessageBox.ButtonRole.ActionRole): "reload",
    }
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.exec()
    return buttons.get(box.clickedButton(), "")


def resolve(window, path: Path, detail: str) -> bool:
    """Ask the GM and do what they chose; True if the encounter ends up saved (or
    reloaded)."""
    choice = ask_file_changed(window, path, detail)
    if choice == "overwrite":
        return bool(window._save_to(path, overwrite=True))
    if choice == "save-as":
        return bool(window.save_as())
    if choice == "reload":
        return reload(window, path)
    return False


def reload(window, path: Path) -> bool:
    """Open the file as it is on disk now, dropping the open encounter's changes (the GM
    chose so: the window closes it cleanly)."""
    return bool(window.open_path(path, asked=True, verb="Reloaded"))
