"""The one place the GUI tells the GM that something did not happen.

Three kinds of news, each where the GM is looking:

- a *refusal*: the model refused what the GM asked (an ``IllegalOp``'s reason, returned by
  :meth:`EncounterDocument.push`). It goes beside the control that asked, if there is one
  (a dock's or a dialog's reason label), and to the window's status bar;
- a *failure*: a file could not be opened or saved, a journal could not be read. A warning
  box names what failed and says what was kept;
- a *problem* that needs the GM's attention but stops nothing (the crash journal could not
  keep up): the status bar, in red for a while.

Errors are typed (``IllegalOp``, ``RulesError``, ``LoadError``, ``SaveError``); their text is
already written for the GM. Anything else is a bug and is named as such.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

from afdesk.gui.style import meaning_style
from afdesk.gui.text import sentence

MESSAGE_MS = 8000
"""How long a status-bar message stays."""


def words(error: BaseException | str) -> str:
    """What to tell the GM about ``error``: its own words for a typed error, else a plain
    note that afdesk itself failed (a bug) naming the exception."""
    if isinstance(error, str):
        return error
    # Imported here: the window's first frame makes its reporter before the model, the
    # rules and the loader are imported (afdesk.gui.app).
    from afdesk.encounter.errors import IllegalOp
    from afdesk.rules.errors import RulesError
    from afdesk.storage.errors import LoadError, SaveError

    if isinstance(error, (IllegalOp, RulesError)):
        return sentence(str(error))
    if isinstance(error, (LoadError, SaveError)):
        return str(error)  # it starts with the file's name, as written
    return f"afdesk could not do that ({type(error).__name__}: {error})."


class Reporter:
    """Shows refusals, failures and problems to the GM, for one window.

    ``status`` writes a line to the window's status bar; ``parent`` owns the warning boxes;
    ``highlight`` (optional) marks the status bar as urgent, ``highlight("")`` clears it.
    """

    def __init__(
        self,
        parent: QWidget | None,
        status: Callable[[str], None],
        highlight: Callable[[str], None] | None = None,
        refusal: Callable[[str], None] | None = None,
    ) -> None:
        self.parent = parent
        self._status = status
        self._highlight = highlight
        self._refusal = refusal or status
        """Where a refusal goes (the window keeps it until the GM's next action)."""

    def say(self, text: str) -> None:
        """A line of news in the status bar (not an error)."""
        self._status(text)

    def refused(self, reason: BaseException | str, beside: QLabel | None = None) -> None:
        """The model refused what the GM asked: beside the control that asked (if any)
        and in the status bar. An empty reason clears the label."""
        text = words(reason)
        if beside is not None:
            beside.setText(text)
        if text:
            self._refusal(text)

    def failed(
        self, title: str, error: BaseException | str, kept: str = "", offer: str = ""
    ) -> bool:
        """Something the GM asked for could not be done (a file, a journal): a warning
        box with the reason and, if given, what was kept. ``offer`` adds a button for a
        way out (Save As…); True if the GM chose it."""
        from PySide6.QtWidgets import QMessageBox  # made when first used

        text = words(error)
        if kept:
            text = f"{text}\n\n{kept}"
        box = QMessageBox(self.parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(title)
        box.setText(text)
        way_out = box.addButton(offer, QMessageBox.ButtonRole.AcceptRole) if offer else None
        box.addButton(QMessageBox.StandardButton.Cancel if offer else QMessageBox.StandardButton.Ok)
        box.exec()
        return way_out is not None and box.clickedButton() is way_out

    def problem(self, text: str) -> None:
        """News that needs attention but stops nothing: the status bar, in red a while."""
        self._status(text)
        if self._highlight is not None:
            self._highlight(meaning_style("error", extra="font-weight: bold;"))
            clear = lambda: self._highlight("")  # noqa: E731
            if self.parent is not None:  # not after the window is gone
                QTimer.singleShot(MESSAGE_MS, self.parent, clear)
            else:
                QTimer.singleShot(MESSAGE_MS, clear)


def show_refusal(label: QLabel, reason: BaseException | str) -> None:
    """A refusal inside a dialog, where the GM is looking (the dialog stays open)."""
    label.setText(words(reason))
