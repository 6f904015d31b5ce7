"""Start the afdesk application: recover a crashed encounter if there is one, else open the
file given, else where the GM left off (:mod:`afdesk.gui.start_page`), else the bundled
sample."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication

from afdesk import __version__
from afdesk.gui import platform_check
from afdesk.gui.feature_hook import spare_afdesk_modules, stop_feature_imports

# Before the rest of afdesk.gui is imported: PySide6's import hook stopped (afdesk selects
# no feature), or where it cannot be, afdesk's modules noted so that it reads none of them.
if not stop_feature_imports():
    spare_afdesk_modules()

WHOLE_BY_MS = 1000
"""The window is made whole this long after the start even if it was never drawn."""


def make_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0], *(argv or [])])
    from afdesk.gui import kept_icons

    kept_icons.install(app)  # the docks' title bar icons made once, not at every layout
    QCoreApplication.setOrganizationName("afdesk")
    QCoreApplication.setApplicationName("afdesk")
    QCoreApplication.setApplicationVersion(__version__)
    from afdesk.gui.icons import window_icon

    icon = window_icon()  # PNGs: neither Qt's SVG library nor its icon plugin at the start
    if not icon.isNull():
        app.setWindowIcon(icon)
    return app


def start(window, file: str | None = None) -> None:
    """What the window shows first: recovery, then the file, then (no file given) what
    the GM had open last or the start page, then (no history at all) the sample."""
    from afdesk.encounter.model import Encounter
    from afdesk.gui.document import EncounterDocument
    from afdesk.storage import LoadError
    from afdesk.storage.journal import discard, pending_journals, recover_report

    try:
        pending = pending_journals()
    except (OSError, LoadError) as exc:  # a broken journal folder must not stop the app
        pending = []
        window.reporter.failed("Crash journals", f"The crash journals cannot be read: {exc}")
    for p in pending:
        if p.in_file and p.file is not None:
            # afdesk stopped between a save and the journal's restart: the file holds it all
            if window.open_path(p.file):
                discard(p)
                window.reporter.say(
                    f"afdesk stopped right after saving {p.file.name}: opened the saved file, "
                    "which holds every change."
                )
                return
            continue
        from afdesk.gui.dialogs.recovery import RecoveryChoice, ask  # only when asked

        choice = ask(p, window)
        if choice == RecoveryChoice.RECOVER:
            try:
                report = recover_report(p)
                state = report.state
            except LoadError as exc:
                window.reporter.failed("Recovery failed", exc, kept="The journal is kept.")
                continue
            doc = EncounterDocument(Encounter.from_state(state), p.file)
            # the recovered changes can be undone; back at the saved file it is clean again
            doc.adopt_steps(report.steps, report.clean)
            window.set_document(doc)
            doc.start_journal()  # the recovered state is journaled before the old one goes
            discard(p)
            left_out = f" Left out: {report.dropped}." if report.dropped else ""
            window.reporter.say(
                f"Recovered {p.name}: {p.ops} change(s). Save it to keep them.{left_out}"
            )
            return
        if choice == RecoveryChoice.OPEN_SAVED and p.file is not None and window.open_path(p.file):
            return
        if choice == RecoveryChoice.DISCARD:
            discard(p)
    if file and window.open_path(file):
        return
    if not file:
        from afdesk.gui import start_page

        if start_page.resume(window):  # where the GM left off, or the start page
            return
    try:
        window.open_sample()
    except LoadError as exc:
        window.reporter.failed("Sample encounter", exc)
        window.set_document(EncounterDocument(Encounter()))


def main(argv: list[str], *, collect_after_first_frame: bool = False) -> int:
    """Open the app (``argv``: an optional file, then Qt's own options); returns the exit
    status. ``collect_after_first_frame``: the caller paused the cycle collector for the
    start (:func:`afdesk.cli.run`); it is back on once the window is drawn."""
    try:
        return _run(argv, collect_after_first_frame)
    finally:
        if collect_after_first_frame:  # also when the window was never drawn
            _collector_on()


def _collector_on() -> None:
    """The cycle collector back on after the start, but not under a worker thread that
    holds it off (afdesk.storage.gc_hold); with no such module loaded no worker ran."""
    gc_hold = sys.modules.get("afdesk.storage.gc_hold")
    if gc_hold is None:
        gc.enable()
    else:
        gc_hold.turn_on()


def _run(argv: list[str], collect_after_first_frame: bool) -> int:
    if "--version" in argv:
        print(f"afdesk {__version__}")
        return 0
    given, qt_args = arguments(argv)
    missing = platform_check.missing_packages()
    if missing:  # Qt would abort the process; say what to install instead
        print(platform_check.advice(missing), file=sys.stderr)
        return 2
    app = make_app(qt_args)
    from afdesk.gui.main_window import MainWindow

    # The first frame shows an empty map, the docks' frames and the menu bar; once it is
    # drawn the file is opened (recovery, the file given, where the GM left off, the
    # sample: start()) and the rest of the window is built (nothing before the first
    # frame that the first frame does not need).
    window = MainWindow(QSettings(), defer=True)
    from afdesk.gui.crash import install

    window.crash_handler = install(window)  # one handler of unexpected errors
    exit_when = os.environ.get("AFDESK_EXIT_AFTER_FIRST_FRAME")
    first_frame_only = bool(exit_when) and exit_when != "complete"
    done = []

    def drawn() -> None:
        if done:
            return
        done.append(True)
        try:
            if not first_frame_only:
                start(window, file)  # a question or a bad file's message: over the window
                keeping_the_keyboard(window, window.complete)
        finally:  # the collector is back even if building the rest failed
            if collect_after_first_frame:
                # What the start made (the modules, the window and its Qt wrappers, the
                # encounter opened) lives about as long as the window: frozen, no later
                # collection walks it again, quitting included.
                gc.freeze()
                _collector_on()
        if exit_when == "complete":  # the window whole and drawn: docks filled, menus bound
            window.repaint()  # what the GM then sees, drawn now (the map with it)
            QTimer.singleShot(0, QCoreApplication.quit)

    after_first_frame(window, drawn)
    # A window that is never painted (started minimized, say) is completed all the same.
    QTimer.singleShot(WHOLE_BY_MS, drawn)
    if first_frame_only:
        exit_after_first_frame(window)  # the start-up benchmark: the first frame only
    file = str(Path(given)) if given else None  # opened once the window is drawn
    window.show()
    return app.exec()


def arguments(argv: list[str]) -> tuple[str | None, list[str]]:
    """The file to open (the first word that is not an option: :func:`afdesk.cli.run`
    has checked there is at most one) and what is left for Qt. Read by hand: an argparse
    parser (its messages looked up for translation) cost every start about a millisecond."""
    file = next((a for a in argv if a == "-" or not a.startswith("-")), None)
    rest = list(argv)
    if file is not None:
        rest.remove(file)
    return file, rest


def keeping_the_keyboard(window, build) -> None:
    """``build`` the rest of the window, the keyboard staying where it was: the map moves
    into the chase board's stack as it is built, and the focus it had would jump to a
    dock's tab bar (the GM's keys would then not reach the map)."""
    had = window.map.hasFocus()
    if had:
        window.map.clearFocus()
    try:
        build()
    finally:
        if had:
            window.map.setFocus(Qt.FocusReason.OtherFocusReason)


class _FirstFrame(QObject):
    """Runs ``then`` once ``window`` has painted, after the whole paint pass."""

    def __init__(self, window, then) -> None:
        super().__init__(window)
        self._then = then

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self._then)
        return False


def after_first_frame(window, then) -> None:
    """Run ``then`` once ``window`` is drawn (Qt asks the filter installed last first)."""
    window.installEventFilter(_FirstFrame(window, then))


def exit_after_first_frame(window) -> None:
    """``AFDESK_EXIT_AFTER_FIRST_FRAME=1``: quit once the window is drawn, before the
    file is opened (start-up benchmarks, the packaging check); ``=complete``: once the
    file is open and the window whole."""
    after_first_frame(window, QCoreApplication.quit)
