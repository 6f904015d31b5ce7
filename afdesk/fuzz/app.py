"""The fuzzer's first promise on the whole app: an accepted file is not only loaded and drawn,
every GM command and every menu action works on it or is refused with a reason, and
``afdesk export-png`` exports it (both views) in a process of its own.

:func:`exercise_commands` runs every command of :data:`afdesk.gui.commands.REGISTRY`:
``available()`` for the encounter and each character, and ``trigger()`` where it is
available (forms open and are closed again; confirmations are answered yes).
:func:`exercise_menus` opens the file in a main window and triggers every menu action
that needs no input, with file dialogs cancelled. Anything raising, from a command or
from a slot (caught by a temporary ``sys.excepthook``), breaks the promise.
:func:`export_png` runs the command line in a subprocess: exit 0, no traceback, an image.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SKIPPED_MENU_ACTIONS = ("&Quit", "&New", "&Open…", "Open &Recent")
"""Menu actions not triggered: they end the session or replace the document under test
(each works on any document; they never look at its content)."""


class AppPromiseBroken(AssertionError):
    """An accepted file broke promise 1 in the app (the message says where)."""


@contextlib.contextmanager
def answered_dialogs() -> Iterator[list[str]]:
    """Modal questions answered without a GM: yes to a confirmation, cancel to a file
    dialog, close to a message; and exceptions in Qt slots collected, not printed. Yields
    the list of slot exceptions (formatted)."""
    from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox

    errors: list[str] = []
    yes = QMessageBox.StandardButton.Yes
    ok = QMessageBox.StandardButton.Ok
    saved: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, value: Any) -> None:
        saved.append((owner, name, owner.__dict__.get(name, getattr(owner, name))))
        setattr(owner, name, value)

    patch(QMessageBox, "question", staticmethod(lambda *a, **k: yes))
    for name in ("information", "warning", "critical"):
        patch(QMessageBox, name, staticmethod(lambda *a, **k: ok))
    patch(QMessageBox, "about", staticmethod(lambda *a, **k: None))
    patch(QMessageBox, "exec", lambda self: int(QMessageBox.StandardButton.Cancel))
    patch(QDialog, "exec", lambda self: int(QDialog.DialogCode.Rejected))
    patch(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    patch(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    patch(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    for name, empty in (("getText", ""), ("getItem", ""), ("getInt", 0), ("getDouble", 0.0)):
        patch(QInputDialog, name, staticmethod(lambda *a, _e=empty, **k: (_e, False)))
    hook = sys.excepthook

    def collect(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
        errors.append("".join(traceback.format_exception(kind, exc, tb))[-2000:])

    sys.excepthook = collect
    try:
        yield errors
    finally:
        sys.excepthook = hook
        for owner, name, value in reversed(saved):
            setattr(owner, name, value)


def _close_dialog(ctx: Any) -> None:
    dialog = ctx.dialog
    if dialog is not None:
        ctx.dialog = None
        with contextlib.suppress(RuntimeError):  # already deleted
            dialog.reject()
            dialog.deleteLater()


def exercise_commands(state: Any, *, seed: int = 0) -> int:
    """Every GM command on ``state``: ``available()`` for the encounter (its commands) or
    each character (a character's, targets included), ``trigger()`` where available;
    returns how many were triggered. :class:`AppPromiseBroken` if one raises."""
    import random

    from afdesk.encounter.model import Encounter
    from afdesk.gui import commands as cmd
    from afdesk.gui.document import EncounterDocument

    doc = EncounterDocument(Encounter.from_state(state), journal_factory=lambda d: None)
    ctx = cmd.CommandContext(None, None, random.Random(seed))
    ctx.doc = doc
    triggered = 0
    with answered_dialogs() as errors:
        for command in list(cmd.REGISTRY):
            # The encounter's commands take "", a character's its id (as the menus do).
            whole = type(command).__module__ == "afdesk.gui.commands.encounter"
            for who in ("",) if whole else tuple(doc.encounter.order):
                where = f"command {command.id!r} for {who or 'the encounter'}"
                try:
                    if who and who not in doc.encounter.combatants:
                        continue  # removed by an earlier command
                    if not command.offered(doc, who):
                        continue
                    command.text(doc, who)
                    enabled, reason = command.available(doc, who)
                    if not enabled:
                        if not reason:
                            raise AppPromiseBroken(f"{where}: disabled with no reason")
                        continue
                    command.trigger(ctx, who)
                    triggered += 1
                    _close_dialog(ctx)
                except AppPromiseBroken:
                    raise
                except Exception as exc:
                    text = "".join(traceback.format_exception(exc))[-2000:]
                    raise AppPromiseBroken(f"{where}: {type(exc).__name__}: {exc}\n{text}") from exc
                if errors:
                    raise AppPromiseBroken(f"{where}: a slot raised\n{errors[0]}")
    doc.undo_stack.clear()
    return triggered


def _menu_actions(menu: Any) -> Iterator[Any]:
    menu.aboutToShow.emit()  # menus filled when shown (the Character menu)
    for action in menu.actions():
        sub = action.menu()
        if sub is not None:
            if action.text() not in SKIPPED_MENU_ACTIONS:
                yield from _menu_actions(sub)
        elif not action.isSeparator():
            yield action


def _putting_back(action: Any) -> tuple[Any, ...]:
    """What, triggered after ``action``, leaves its check as it was before it: itself for
    a toggle; for one of an exclusive group, the group's action checked now (nothing if
    that is ``action`` itself, or none is)."""
    if not action.isCheckable():
        return ()
    group = action.actionGroup()
    if group is None or not group.isExclusive():
        return (action,)
    checked = group.checkedAction()
    return () if checked is None or checked is action else (checked,)


def exercise_menus(state: Any, folder: Path) -> int:
    """Open ``state`` (saved in ``folder``) in a main window and trigger every enabled menu
    action that needs no input; returns how many. :class:`AppPromiseBroken` if one raises."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from afdesk.encounter.model import Encounter
    from afdesk.gui.document import EncounterDocument
    from afdesk.gui.main_window import MainWindow
    from afdesk.storage import save

    path = folder / "menus.afenc"
    save(path, state)
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    triggered = 0
    with answered_dialogs() as errors:
        window = MainWindow(settings)
        try:
            doc = EncounterDocument(
                Encounter.from_state(state), path, journal_factory=lambda d: None
            )
            window.set_document(doc)
            for top in window.menuBar().actions():
                menu = top.menu()
                if menu is None:
                    continue
                for action in list(_menu_actions(menu)):
                    text = action.text()
                    if text in SKIPPED_MENU_ACTIONS or not action.isEnabled():
                        continue
                    # A checkable action is put back as it was after (a preference it
                    # sets for every window, View > Show map art, must not outlive this):
                    # a toggle is triggered again, one of a group the group's choice.
                    for each in (action, *_putting_back(action)):
                        each.trigger()
                        triggered += 1
                        _close_dialog(window.ctx)
                        QApplication.processEvents()
                        if errors:
                            where = f"menu {top.text()!r} > {text!r}"
                            raise AppPromiseBroken(f"{where}: a slot raised\n{errors[0]}")
        finally:
            if window.player_window is not None:
                window.player_window.close()
            window.doc.undo_stack.clear() if window.doc is not None else None
            window.deleteLater()
            QApplication.processEvents()
    return triggered


def export_png(path: Path, folder: Path) -> None:
    """``afdesk export-png`` on ``path``, as the GM and as the players see it, each in a
    subprocess: exit 0, no traceback, a PNG written. :class:`AppPromiseBroken` if not."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for player in (False, True):
        out = folder / ("player.png" if player else "gm.png")
        out.unlink(missing_ok=True)
        argv = [sys.executable, "-m", "afdesk", "export-png", str(path), str(out)]
        argv += ["--player"] if player else []
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
        said = (proc.stdout + proc.stderr).strip()
        view = "player" if player else "GM"
        if proc.returncode != 0 or "Traceback" in said:
            raise AppPromiseBroken(f"export-png ({view}) exit {proc.returncode}: {said[-1500:]}")
        if not out.exists() or out.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
            raise AppPromiseBroken(f"export-png ({view}) wrote no PNG: {said[-500:]}")
