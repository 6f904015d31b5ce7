"""The Help menu's and Ctrl+K's slots of the main window (a mixin, as :mod:`.file_menu` is
for the File menu): the command palette, the keyboard card (F1), the manual and About.
Each dialog's module is imported when the GM first asks for it."""

from __future__ import annotations


class HelpMenu:
    """Mixed into :class:`~afdesk.gui.main_window.MainWindow`."""

    def open_palette(self) -> None:
        from afdesk.gui import palette  # Ctrl+K: every command, searchable

        self.palette = palette.open_over(self, self.doc, self._run, self._bound)

    def _keyboard_help(self) -> None:
        from afdesk.gui.help import keyboard_card

        self.help_dialog = keyboard_card(self)
        self.help_dialog.show()

    def _manual(self) -> None:
        from afdesk.gui.help import manual

        self.help_dialog = manual(self)
        self.help_dialog.show()

    def _about(self) -> None:
        from PySide6.QtWidgets import QMessageBox  # made when first used

        from afdesk.gui.help_text import about

        QMessageBox.about(self, "About afdesk", about())
