"""The context GM commands and docks work through (:class:`CommandContext`), apart from the
commands themselves so the window's first frame can make one without loading them;
:mod:`afdesk.gui.commands` re-exports it."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from afdesk.gui.errors import Reporter

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

    from afdesk.encounter.op import Op
    from afdesk.gui.document import EncounterDocument


class Runnable(Protocol):
    """What the context runs: a GM command (:class:`afdesk.gui.commands.Command`), known
    here by its two questions only, so that the context stays below the commands."""

    def available(self, doc: EncounterDocument, who: str) -> tuple[bool, str]: ...

    def trigger(self, ctx: CommandContext, who: str) -> None: ...


class Commands(Protocol):
    """Commands by id (:data:`afdesk.gui.commands.REGISTRY`)."""

    def __getitem__(self, command_id: str) -> Runnable: ...


class CommandContext:
    """The small interface commands and docks work through: the current document, the
    dice, the one error reporter, and a place to open dialogs and ask questions.

    The window builds one and hands it to its docks (they never call the window); a dock
    or a test without a window gets a bare one.
    """

    commands: ClassVar[Commands] = MappingProxyType({})  # none until they are imported
    """Every GM command by id, for :meth:`run` with an id: the command registry, which
    :mod:`afdesk.gui.commands` puts here (the context knows no command itself)."""

    def __init__(
        self,
        parent: QWidget | None = None,
        reporter: Reporter | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.parent = parent
        self.reporter = reporter or Reporter(parent, lambda _text: None)
        self.rng: random.Random = rng or random.SystemRandom()
        self.doc: EncounterDocument | None = None
        self.dialog: QDialog | None = None
        self.dialog_opened: Callable[[QDialog], None] | None = None
        """Told of every dialog opened (the map draws a check's attack line)."""
        """The last dialog opened (tests and scripts drive it)."""

    def run(self, command: Runnable | str, who: str = "") -> bool:
        """Trigger ``command`` for ``who`` if it is available now, else report why.
        True if it was triggered."""
        if isinstance(command, str):
            command = self.commands[command]
        if self.doc is None:
            return False
        ok, reason = command.available(self.doc, who)
        if not ok:
            self.reporter.refused(reason)
            return False
        command.trigger(self, who)
        return True

    def push(self, ops: Op | Sequence[Op], text: str | None = None, beside=None) -> bool:
        """Push Ops as one undo step (:func:`afdesk.gui.push.push`); a refusal is said
        beside ``beside`` (a label) if given, and in the status bar. True if applied."""
        from afdesk.gui.push import push

        def said(reason: str) -> None:
            if beside is not None or reason:
                self.reporter.refused(reason, beside)  # beside the control, the status bar

        return push(self.doc, ops, beside=said, text=text)

    def open_dialog(self, dialog: QDialog) -> None:
        """Open a dialog over the window without blocking the event loop."""
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog = dialog
        if self.dialog_opened is not None:
            self.dialog_opened(dialog)
        dialog.open()

    def confirm(self, title: str, question: str) -> bool:
        """Ask the GM a yes/no question."""
        from PySide6.QtWidgets import QMessageBox  # made when first used

        answer = QMessageBox.question(self.parent, title, question)
        return answer == QMessageBox.StandardButton.Yes
