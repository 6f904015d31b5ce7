"""One open encounter: the model, its undo stack, its file, its crash journal.

Every user action becomes an Op pushed here (:meth:`EncounterDocument.push`). A refused Op
changes nothing and push returns its reason, which the caller shows where the GM is
looking (:mod:`afdesk.gui.errors`); an applied one becomes a step of the
encounter's :class:`~afdesk.encounter.history.History`, which the journal follows (flushed
and fsynced before control returns to the event loop) and the ``QUndoStack`` shows. Model
events become Qt signals, so views never poll.
"""

from __future__ import annotations

import contextlib
import traceback
import weakref
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import UNDO_LIMIT, History, Step, StepEvent
from afdesk.encounter.model import Encounter, Event, EventKind
from afdesk.encounter.op import Op
from afdesk.encounter.parts import all_parts
from afdesk.gui.text import sentence
from afdesk.storage.errors import SaveError


def merge_id(merge_key: str | None) -> int:
    """The ``QUndoCommand.id()`` of steps pushed with ``merge_key`` (-1: never merged)."""
    if merge_key is None:
        return -1
    return zlib.crc32(merge_key.encode("utf-8")) & 0x7FFFFFFF


class StepCommand(QUndoCommand):
    """The view of one step of the document's :class:`History`. It arrives already applied;
    undo and redo ask the history (which the journal follows). It merges with the command
    before it exactly when the history merged the step into the one before (same merge key,
    not at the saved state: the rule of QUndoStack and of History alike)."""

    def __init__(self, doc: EncounterDocument, step: Step, merged: bool) -> None:
        super().__init__(step.text)
        # A weak reference: the stack (C++) owns its commands, so a command that held the
        # history strongly would put itself in the document's reference cycle, and when the
        # garbage collector breaks that cycle it frees the command's Python half while the
        # stack still holds it; the stack's destructor then crashes (a segfault in
        # QUndoStack::clear, tests/gui/test_document.py).
        self._history = weakref.ref(doc.history)
        self._step = step
        self._id = merge_id(step.merge_key)
        self._merged = merged
        self._applied = True

    @property
    def ops(self) -> list[Op]:
        """The Ops of this step, as applied."""
        return list(self._step.ops)

    def id(self) -> int:
        return self._id

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, StepCommand) or not other._merged:
            return False
        self.setText(other.text())
        self._step = other._step
        return True

    def _live_history(self) -> History:
        history = self._history()
        if history is None:
            raise RuntimeError("the document of this undo step is gone")
        return history

    def undo(self) -> None:
        self._live_history().undo()
        self._applied = False

    def redo(self) -> None:
        if self._applied:
            return  # pushed after being applied: QUndoStack.push calls redo() once
        self._live_history().redo()
        self._applied = True


class EncounterDocument(QObject):
    """An open encounter and everything about it that is not the model itself."""

    # One signal per kind of model event: combatantChanged(id), rosterChanged, zoneChanged,
    # ..., logChanged (afdesk.encounter.parts.EventKind), and one per installed mode's part
    # (chaseChanged, ...: a part brings its own). A mode registered later (a plug-in's, a
    # test's) is heard through partChanged(name).
    for _kind in dict.fromkeys([*EventKind, *(p.event for p in all_parts())]):
        locals()[f"{_kind}Changed"] = Signal(str) if _kind == EventKind.COMBATANT else Signal()
    del _kind
    partChanged = Signal(str)
    """A part with no signal of its own changed (its name)."""
    changed = Signal()
    """After every change (any kind), once."""
    selectionChanged = Signal(str)
    modifiedChanged = Signal(bool)
    pathChanged = Signal()
    journalProblem = Signal(str)
    """The crash journal could not keep up (disk full, ...): the GM should save."""
    protectionChanged = Signal(str)
    """:meth:`unprotected` changed: "" when every change is safe from a crash again, else
    why the changes are not (the window shows it until they are)."""

    def __init__(
        self,
        encounter: Encounter,
        path: Path | None = None,
        *,
        on_disk_version: int | None = None,
        journal_factory: Callable[[EncounterDocument], object] | None = None,
        modified: bool = False,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.encounter = encounter
        self.path = Path(path) if path else None
        self.on_disk_version = on_disk_version
        self.disk_digest: str | None = None
        """SHA-256 of the file as opened or last saved: a save checks it is still so."""
        self.history = History(encounter, limit=UNDO_LIMIT)
        """The one undo history (afdesk.encounter.history); :attr:`undo_stack` is its view.
        Undo and redo through the view (or :meth:`undo`), which keeps both in step."""
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(UNDO_LIMIT)  # forgets the oldest step as the history does
        self.selected = ""
        self.physical_hands: set[str] = set()
        """Hands whose cards the players hold at the table (typed in each round); not saved."""
        self._forced_modified = modified
        self._journal = None
        self._journal_factory = journal_factory or _default_journal
        self._journal_problem = ""
        """Why the crash journal does not hold the changes now ('' while it does)."""
        self._modified = self.is_modified()
        self._unprotected = ""
        self.revision = 0
        """Counts the model's changes (every applied Op, undo and redo): what is worked out
        from the encounter alone stays right while it is unchanged (:meth:`memo`)."""
        self.emitting = False
        """True while the signals of one change go out: a view that follows several of
        them may wait for :attr:`changed`, the last, and show the change once."""
        self._memo: dict[object, object] = {}
        self._memo_revision = 0
        self.undo_stack.cleanChanged.connect(self._update_modified)
        self.undo_stack.indexChanged.connect(self._update_modified)
        encounter.subscribe(self._on_events)
        self.history.subscribe(self._on_step)

    def __del__(self) -> None:
        # The document, its history, its undo stack and the views that follow it reference
        # each other, so the garbage collector frees them together, in no set order. Python
        # finalizes them all (this method) before it tears any of them down, so the stack
        # drops its commands now, while they are whole; left to the stack's C++ destructor,
        # that happened after their Python halves were gone and crashed the process
        # (QUndoStack::clear, found by tests/gui/test_document.py).
        with contextlib.suppress(RuntimeError):  # the C++ half may already be gone
            self.undo_stack.clear()

    # ----------------------------------------------------------------------- changes

    def push(self, op: Op, text: str | None = None, *, merge_key: str | None = None) -> str:
        """Apply ``op`` as one undo step: "" if done, else the reason it was refused (in
        words for the GM, for the caller to show where the GM is looking).

        Steps pushed one after another with the same ``merge_key`` become one undo step and
        one log line (a burst of key presses turning a character): each must then say the
        whole change, see :mod:`afdesk.encounter.history`.
        """
        return self.push_many([op], text, merge_key=merge_key)

    def push_many(
        self, ops: Sequence[Op], text: str | None = None, *, merge_key: str | None = None
    ) -> str:
        """Apply several Ops as one undo step, all or nothing: "" or the refusal's reason."""
        self._journal_obj()  # its base is the state before this change
        before = self.history.index
        try:
            step = self.history.push(list(ops), text, merge_key=merge_key)
        except IllegalOp as exc:
            return sentence(str(exc))
        except Exception as exc:  # a bug in an Op: no traceback at the table, nothing changed
            traceback.print_exc()
            return f"afdesk could not do that ({type(exc).__name__}: {exc}). Nothing was changed."
        merged = self.history.index == before
        self.undo_stack.push(StepCommand(self, step, merged))
        return ""

    def adopt_steps(self, steps: Sequence[Step], clean: int = -1) -> None:
        """Take the steps a crash journal's replay made (already applied to this encounter,
        oldest first) as its undo history, so that the GM can undo what was recovered
        (:func:`afdesk.storage.recovery.recover_report`). ``clean``: after how many of
        them the encounter is the file as saved (-1: at none), where undo makes the
        document unmodified again (QUndoStack's clean index). Before the journal starts:
        its base is the encounter as recovered, and undoing an adopted step journals its
        inverse."""
        self.history.adopt(steps, clean)
        self.undo_stack.clear()
        self.undo_stack.resetClean()  # no step is the saved state unless ``clean`` says
        at = self.history.clean_index
        for i, step in enumerate(self.history.steps):
            if i == at:
                self.undo_stack.setClean()
            self.undo_stack.push(StepCommand(self, step, merged=False))
        if at == len(self.history.steps):
            self.undo_stack.setClean()
        self._update_modified()

    def undo(self) -> None:
        """Undo the last step (through the undo stack, which the history follows)."""
        self.undo_stack.undo()

    def redo(self) -> None:
        self.undo_stack.redo()

    def try_op(self, op: Op) -> str:
        """Why ``op`` would be refused now ("" if it would be applied); changes nothing.
        Asked again before the encounter changes, the answer is remembered (the menus, the
        docks and the window all ask after every change)."""
        try:
            key = ("try_op", op)
            hash(key)
        except TypeError:  # an Op built with lists (from widgets): asked every time
            return self._refusal(op)
        return self.memo(key, lambda: self._refusal(op))

    def _refusal(self, op: Op) -> str:
        reason = self.encounter.refusal(op)
        return sentence(reason) if reason else ""

    def memo(self, key: object, compute: Callable[[], object]):
        """``compute()``, worked out once while the encounter stays unchanged: ``key`` must
        name everything the answer depends on beside the encounter."""
        if self._memo_revision != self.revision:
            self._memo.clear()
            self._memo_revision = self.revision
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    # --------------------------------------------------------------------- selection

    def select(self, cid: str) -> None:
        if cid != self.selected:
            self.selected = cid
            self.selectionChanged.emit(cid)

    # ------------------------------------------------------------------ file state

    @property
    def title(self) -> str:
        return self.path.name if self.path else f"{self.encounter.meta.name} (unsaved)"

    def is_modified(self) -> bool:
        return self._forced_modified or not self.history.is_clean()

    def _update_modified(self, *_args) -> None:
        modified = self.is_modified()
        if modified != self._modified:
            self._modified = modified
            self.modifiedChanged.emit(modified)
        self._update_protection()

    # ------------------------------------------------------------------ protection

    def unprotected(self) -> str:
        """ "" if no change can be lost to a crash now (none since the file was saved, or
        all of them in the crash journal), else why they can, in words. The window shows
        it for as long as it is so, and no message says nothing is lost while it is."""
        if not self.is_modified():
            return ""
        if self._journal_problem:
            return self._journal_problem
        if self._journal is None:
            return "the crash journal is not running"
        return ""

    def check_protection(self) -> str:
        """:meth:`unprotected`, made sure of before a message depends on it: the journal's
        last line is waited for on disk, and a journal that failed is tried again from the
        whole encounter (it may have room again)."""
        if self.is_modified():
            journal = self._journal_obj()
            if journal is not None and hasattr(journal, "flush"):
                self._journal_call(lambda j: j.flush())
            if self._journal_problem and hasattr(journal, "restart"):
                self._journal_call(lambda j: j.restart())
        return self.unprotected()

    def _update_protection(self) -> None:
        now = self.unprotected()
        if now != self._unprotected:
            self._unprotected = now
            self.protectionChanged.emit(now)

    def secure_journal(self) -> str:
        """After an unexpected error: make sure the crash journal holds the encounter (start
        it, or restart it from the whole encounter after a failed write); its state in
        words."""
        journal = self._journal_obj()
        if journal is None:
            return "the crash journal could not be started"
        if getattr(journal, "problem", ""):
            self._journal_call(lambda j: j.restart())
        problem = getattr(journal, "problem", "")
        where = getattr(journal, "path", "")
        return f"not written: {problem}" if problem else f"written ({where})"

    def about_to_save(self, path: Path) -> None:
        """Just before the encounter is saved to ``path``: the journal marks it, so a crash
        between the save and :meth:`mark_saved` recovers from the saved file."""
        if self._journal is not None and hasattr(self._journal, "saving"):
            self._journal_call(lambda j: j.saving(path))

    def mark_saved(self, path: Path, on_disk_version: int | None = None) -> None:
        """After a successful save to ``path``: clean, and the journal starts afresh."""
        changed = path != self.path
        self.path = Path(path)
        self.on_disk_version = on_disk_version
        self._forced_modified = False
        self.history.set_clean()
        self.undo_stack.setClean()
        if self._journal is not None:
            self._journal_call(lambda j: j.rebase(file=self.path))
        self._update_modified()
        if changed:
            self.pathChanged.emit()

    def close(self, *, clean: bool) -> None:
        """Stop journaling. A clean close deletes the journal; otherwise it stays for
        recovery."""
        self.encounter.unsubscribe(self._on_events)
        self.history.unsubscribe(self._on_step)
        self.history.close()
        if self._journal is not None:
            self._journal_call(lambda j: j.close(clean=clean))
            self._journal = None

    # ----------------------------------------------------------------------- journal

    def start_journal(self) -> None:
        """Journal now rather than at the first change (a recovered encounter)."""
        self._journal_obj()

    def _journal_obj(self):
        if self._journal is None:
            try:
                self._journal = self._journal_factory(self)
            except (SaveError, OSError) as exc:  # no journal, but say so
                self._journal_failed(exc)
            else:
                self._journal_problem = ""
                self._update_protection()
        return self._journal

    def _journal_call(self, call) -> None:
        """Run ``call(journal)``; a failure is reported, never raised into the table."""
        j = self._journal_obj()
        if j is None:
            return
        try:
            call(j)
        except (SaveError, OSError) as exc:  # disk full, permissions, ...
            self._journal_failed(exc)
            return
        # A journal may also fail without raising (a restart that found the disk still
        # full): its own ``problem`` says so.
        problem = getattr(j, "problem", "")
        self._journal_problem = f"the crash journal cannot be written: {problem}" if problem else ""
        self._update_protection()

    def _journal_failed(self, exc: Exception) -> None:
        detail = exc.detail if isinstance(exc, SaveError) else str(exc)
        self._journal_problem = f"the crash journal could not be written: {detail}"
        self._update_protection()
        self.journalProblem.emit(sentence(f"{self._journal_problem}. Save to keep the changes"))

    def _on_step(self, event: StepEvent) -> None:
        """The journal follows the history; a failed write is reported, never raised."""
        if self._journal is None:
            self._journal_obj()  # a journal started now holds this change in its base
            return
        self._journal_call(lambda j: j.record(event))

    # ------------------------------------------------------------------------ events

    def _on_events(self, events: list[Event]) -> None:
        self.revision += 1
        seen: set[Event] = set()
        outer, self.emitting = self.emitting, True
        try:
            for ev in events:
                if ev in seen:
                    continue
                seen.add(ev)
                signal = getattr(self, f"{ev.kind}Changed", None)
                if signal is None:
                    self.partChanged.emit(ev.kind)
                elif ev.kind == EventKind.COMBATANT:
                    signal.emit(ev.id)
                else:
                    signal.emit()
            if self.selected and self.selected not in self.encounter.combatants:
                self.select("")
        finally:
            self.emitting = outer
        self.changed.emit()


def _default_journal(doc: EncounterDocument):
    """A crash journal for ``doc`` in the user's data folder (afdesk.storage)."""
    from afdesk.storage.journal import Journal

    # The journal embeds the base only when it differs from the file (never saved,
    # recovered, or changed on disk since it was opened).
    journal = Journal.start(name=doc.encounter.meta.name, file=doc.path, base=doc.encounter.state())
    return journal.follow(doc.history, subscribe=False)
