"""The one handler of unexpected errors in the GUI (issue 13, promise 6).

A bug we have not found must never end a session silently. :func:`install` puts one
handler behind ``sys.excepthook`` (an exception escaping a slot or an event handler) and
Qt's message handler (Qt's critical and fatal messages). For an exception it:

1. secures the crash journal (started if there was none, restarted from the whole
   encounter if its last write failed), so the changes so far survive whatever follows;
2. saves a crash report with the traceback to ``<data folder>/crash-reports/``;
3. shows the GM a short message with a "Copy details" button, and the app keeps running.

Qt's own critical messages are appended to the report folder's ``qt-messages.log``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import platform
import sys
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication, QMessageBox

from afdesk import __version__
from afdesk.paths import data_dir


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
            journal = self._secure_journal()
            report = self._write_report(details, journal)
            self._tell(exc, details, report)
        except Exception:
            self._previous_hook(exc_type, exc, tb)
        finally:
            self._busy = False

    def qt_message(self, kind: QtMsgType, context: object, message: str) -> None:
        if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
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

    def _write_report(self, details: str, journal: str) -> Path:
        folder = reports_dir()
        folder.mkdir(parents=True, exist_ok=True)
        now = dt.datetime.now()
        path = folder / f"crash-{now:%Y%m%d-%H%M%S}-{os.getpid()}-{len(self.reports) + 1}.txt"
        path.write_text(
            f"afdesk {__version__} on Python {platform.python_version()}, "
            f"{platform.platform()}\n{now.isoformat(timespec='seconds')}\n"
            f"Crash journal: {journal}\n\n{details}",
            encoding="utf-8",
        )
        self.reports.append(path)
        return path

    def _tell(self, exc: BaseException, details: str, report: Path) -> None:
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle("afdesk hit an unexpected error")
        box.setText(
            "Something went wrong inside afdesk (a bug, not your doing). Your changes are "
            "safe in the crash journal; saving now is a good idea."
        )
        box.setInformativeText(f"{type(exc).__name__}: {str(exc)[:200]}\nReport: {report}")
        box.setDetailedText(details)
        copy = box.addButton("&Copy details", QMessageBox.ButtonRole.ActionRole)
        copy.clicked.disconnect()  # keep the box open after copying
        copy.clicked.connect(lambda: QApplication.clipboard().setText(details))
        box.addButton(QMessageBox.StandardButton.Ok)
        box.open()  # not modal to the event loop: the session goes on
        self.box = box


def install(window) -> CrashHandler:
    """Handle unexpected errors for ``window`` (the main window)."""
    return CrashHandler(window).install()
