"""The one handler of unexpected errors in the GUI (promise 6).

A bug we have not found must never end a session silently. :func:`install` puts one
handler behind ``sys.excepthook`` (an exception escaping a slot or an event handler) and
Qt's message handler (Qt's critical and fatal messages). For an exception it:

1. secures the crash journal (started if there was none, restarted from the whole
   encounter if its last write failed), so the changes so far survive whatever follows;
2. saves a crash report with the traceback to ``<data folder>/crash-reports/``;
3. shows the GM a short message with a "Copy details" button, and the app keeps running.

Before it goes on, it judges whether going on is safe (:func:`unsafe_because`): not if the
error came while an Op was running (the encounter may be half changed), if the encounter
on screen breaks the file format's rules (it could not be saved and opened again), or if
it is no longer what its crash journal rebuilds (something changed it behind the undo
history). Then the journal is left as it is (never restarted from the doubtful state) and
the message says why and offers "Restart from the journal": the encounter the journal
rebuilds replaces the one on screen (journaled anew before the old journal goes), or the
GM may continue anyway.

Qt's own critical messages are appended to the report folder's ``qt-messages.log``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from afdesk import __version__
from afdesk.paths import data_dir

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox


def reports_dir() -> Path:
    """Where crash reports go."""
    return data_dir() / "crash-reports"


class CrashHandler:
    """Installed by :func:`install`; :meth:`uninstall` puts the previous hooks back."""

    def __init__(self, window) -> None:
        self.window = window
        self.reports: list[Path] = []
        """The reports written by this handler, oldest first."""
        self.box: QMessageBox | None = None
        self._previous_hook = sys.excepthook
        self._previous_qt = None
        self._busy = False

    # -------------------------------------------------------------------- installing

    def install(self) -> CrashHandler:
        self._previous_hook = sys.excepthook
        sys.excepthook = self.excepthook
        self._previous_qt = qInstallMessageHandler(self.qt_message)
        return self

    def uninstall(self) -> None:
        if sys.excepthook == self.excepthook:
            sys.excepthook = self._previous_hook
        qInstallMessageHandler(self._previous_qt)

    # ---------------------------------------------------------------------- handling

    def excepthook(
        self,
        exc_type: type[BaseException],
        exc: BaseException,
        tb: TracebackType | None,
    ) -> None:
        if issubclass(exc_type, (KeyboardInterrupt, SystemExit)) or self._busy:
            self._previous_hook(exc_type, exc, tb)
            return
        self._busy = True  # an error while handling one goes to the default hook
        try:
            details = "".join(traceback.format_exception(exc_type, exc, tb))
            why = unsafe_because(getattr(self.window, "doc", None))
            if why:
                journal = "kept as it was: the encounter on screen is not trusted"
            else:
                journal = self._secure_journal()
            report = self._write_report(details, journal, why)
            self._tell(exc, details, report, why, journal)
        except Exception:
            self._previous_hook(exc_type, exc, tb)
        finally:
            self._busy = False

    def qt_message(self, kind: QtMsgType, context: object, message: str) -> None:
        if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            import datetime as dt  # not at start: the handler is installed before the first frame

            with contextlib.suppress(OSError):
                folder = reports_dir()
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / "qt-messages.log", "a", encoding="utf-8") as log:
                    log.write(f"{dt.datetime.now().isoformat(timespec='seconds')} {message}\n")
        if self._previous_qt is not None:
            self._previous_qt(kind, context, message)
        elif kind is not QtMsgType.QtDebugMsg:
            sys.stderr.write(f"{message}\n")

    def _secure_journal(self) -> str:
        """The journal's state in words, after making sure it holds the encounter."""
        doc = getattr(self.window, "doc", None)
        if doc is None:
            return "no encounter was open"
        try:
            return doc.secure_journal()
        except Exception as exc:
            return f"the crash journal could not be secured: {exc}"

    def _write_report(self, details: str, journal: str, why: str = "") -> Path:
        import datetime as dt
        import platform

        folder = reports_dir()
        folder.mkdir(parents=True, exist_ok=True)
        now = dt.datetime.now()
        path = folder / f"crash-{now:%Y%m%d-%H%M%S}-{os.getpid()}-{len(self.reports) + 1}.txt"
        path.write_text(
            f"afdesk {__version__} on Python {platform.python_version()}, "
            f"{platform.platform()}\n{now.isoformat(timespec='seconds')}\n"
            f"Crash journal: {journal}\n"
            f"Safe to continue: {'no, ' + why if why else 'yes'}\n\n{details}",
            encoding="utf-8",
        )
        self.reports.append(path)
        return path

    def _tell(
        self, exc: BaseException, details: str, report: Path, why: str = "", journal: str = ""
    ) -> None:
        from PySide6.QtWidgets import QMessageBox  # made when first used

        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle("afdesk hit an unexpected error")
        if why:
            box.setText(
                "Something went wrong inside afdesk (a bug, not your doing), and the "
                f"encounter on screen may be wrong: {why}. Restart from the crash journal, "
                "which holds every change you made, or continue at your own risk."
            )
            restart = box.addButton("&Restart from the journal", QMessageBox.ButtonRole.AcceptRole)
            restart.clicked.connect(self.restart_from_journal)
            box.setDefaultButton(restart)
            box.addButton("Continue &anyway", QMessageBox.ButtonRole.RejectRole)
        elif journal.startswith(("written", "no encounter")):
            box.setText(
                "Something went wrong inside afdesk (a bug, not your doing). Your changes are "
                "safe in the crash journal; saving now is a good idea."
            )
        else:  # said only when it is true: the journal holds the changes
            box.setText(
                "Something went wrong inside afdesk (a bug, not your doing). Your changes are "
                f"NOT protected against a crash (the crash journal: {journal}): save them now."
            )
        box.setInformativeText(f"{type(exc).__name__}: {str(exc)[:200]}\nReport: {report}")
        box.setDetailedText(details)
        copy = box.addButton("&Copy details", QMessageBox.ButtonRole.ActionRole)
        copy.clicked.disconnect()  # keep the box open after copying
        copy.clicked.connect(lambda: QApplication.clipboard().setText(details))
        if not why:
            box.addButton(QMessageBox.StandardButton.Ok)
        box.open()  # not modal to the event loop: the session goes on
        self.box = box

    def restart_from_journal(self) -> bool:
        """Replace the encounter on screen with the one its crash journal rebuilds (the
        new document journaled before the old journal is removed); True if done. A
        journal that cannot be replayed is reported and nothing changes."""
        from afdesk.encounter.model import Encounter
        from afdesk.gui.document import EncounterDocument
        from afdesk.storage import LoadError
        from afdesk.storage.recovery import live_journal_state

        doc = getattr(self.window, "doc", None)
        journal = getattr(doc, "_journal", None)
        if doc is None or journal is None:
            return False
        try:
            recovered = live_journal_state(journal.path, journal.name)
        except LoadError as exc:
            self.window.reporter.failed("Restart from the journal", exc, kept="Nothing changed.")
            return False
        new = EncounterDocument(
            Encounter.from_state(recovered.state),
            doc.path,
            on_disk_version=doc.on_disk_version,
            journal_factory=doc._journal_factory,
            modified=True,
        )
        new.disk_digest = doc.disk_digest
        new.start_journal()  # the rebuilt encounter is journaled before the old one goes
        self.window.set_document(new)
        left_out = f" Left out: {recovered.dropped}." if recovered.dropped else ""
        self.window.reporter.say(
            "Restarted from the crash journal: the encounter is as your last change left "
            f"it.{left_out}"
        )
        return True


def unsafe_because(doc) -> str:
    """Why going on after an unexpected error is not safe for ``doc`` ('' if it is): an
    Op was running, the encounter breaks the file format's rules, or it is not what its
    crash journal rebuilds (changed behind the undo history)."""
    from afdesk.storage import LoadError, decode, encode
    from afdesk.storage.recovery import live_journal_state

    if doc is None:
        return ""
    enc = doc.encounter
    if enc.applying:
        return "the error came in the middle of a change to the encounter"
    try:
        state = enc.state()
        decode(encode(state), source="the encounter on screen")
    except LoadError as exc:
        return f"it breaks the rules of the file format ({exc.detail})"
    except Exception as exc:
        return f"it cannot be written and read back ({type(exc).__name__})"
    journal = getattr(doc, "_journal", None)
    if journal is None or getattr(journal, "problem", "") or not hasattr(journal, "path"):
        return ""  # nothing to compare with: the journal is secured from the encounter
    try:
        rebuilt = live_journal_state(journal.path, journal.name)
    except LoadError:
        return ""
    if rebuilt.state != state:
        return "it no longer matches the changes the crash journal recorded"
    return ""


def install(window) -> CrashHandler:
    """Handle unexpected errors for ``window`` (the main window)."""
    return CrashHandler(window).install()
