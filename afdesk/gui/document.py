"""One open encounter: the model, its undo stack, its file, its crash journal.

Every user action becomes an Op pushed here (:meth:`EncounterDocument.push`). A refused Op
changes nothing and its reason goes out on :attr:`refused`; an applied one is journaled
(flushed and fsynced) before control returns to the event loop, and becomes one undo step.
Model events become Qt signals, so views never poll.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter, Event, EventKind, canonical
from afdesk.encounter.ops.base import Op
from afdesk.gui.text import sentence


class Links:
    """Signal connections a view made to one document, undone together when it shows
    another (so an old document never drives the new one's views)."""

    def __init__(self) -> None:
        self._links: list[tuple[object, object]] = []

    def connect(self, signal, slot) -> None:
        signal.connect(slot)
        self._links.append((signal, slot))

    def clear(self) -> None:
        for signal, slot in self._links:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)
        self._links = []


class OpCommand(QUndoCommand):
    """One undo step: one Op, or several applied as one (a macro such as "extend the zone
    and move there"). It arrives already applied; undo applies the inverses, redo the Ops
    again (their dice are inside them, so nothing is re-rolled)."""

    def __init__(self, doc: EncounterDocument, steps: list[tuple[Op, Op]], text: str) -> None:
        super().__init__(text)
        self._doc = doc
        self._steps = steps
        self._applied = True

    @property
    def ops(self) -> list[Op]:
        return [op for op, _ in self._steps]

    def undo(self) -> None:
        for _op, inverse in reversed(self._steps):
            self._doc.encounter.apply(inverse)
            self._doc._journal_undo()
        self._applied = False

    def redo(self) -> None:
        if self._applied:
            return  # pushed after being applied: QUndoStack.push calls redo() once
        steps = []
        for op, _ in self._steps:
            steps.append((op, self._doc.encounter.apply(op)))
            self._doc._journal_redo()
        self._steps = steps
        self._applied = True


class EncounterDocument(QObject):
    """An open encounter and everything about it that is not the model itself."""

    # One signal per kind of model event: combatantChanged(id), rosterChanged, zoneChanged,
    # ..., logChanged (afdesk.encounter.parts.EventKind; a new part brings its own).
    for _kind in EventKind:
        locals()[f"{_kind.value}Changed"] = (
            Signal(str) if _kind is EventKind.COMBATANT else Signal()
        )
    del _kind
    changed = Signal()
    """After every change (any kind), once."""
    refused = Signal(str)
    """An Op was refused: the reason, in words for the GM."""
    selectionChanged = Signal(str)
    modifiedChanged = Signal(bool)
    pathChanged = Signal()
    journalProblem = Signal(str)
    """The crash journal could not keep up (disk full, ...): the GM should save."""

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
        self.undo_stack = QUndoStack(self)
        self.selected = ""
        self._forced_modified = modified
        self._journal = None
        self._journal_factory = journal_factory or _default_journal
        self._modified = self.is_modified()
        self.undo_stack.cleanChanged.connect(self._update_modified)
        self.undo_stack.indexChanged.connect(self._update_modified)
        encounter.subscribe(self._on_events)

    # ----------------------------------------------------------------------- changes

    def push(self, op: Op, text: str | None = None) -> bool:
        """Apply ``op`` as one undo step; False (and :attr:`refused`) if not allowed."""
        return self.push_many([op], text)

    def push_many(self, ops: Sequence[Op], text: str | None = None) -> bool:
        """Apply several Ops as one undo step; all or nothing."""
        steps: list[tuple[Op, Op]] = []
        title = text
        self._journal_obj()  # its base is the state before this change
        try:
            for op in ops:
                op = canonical(op)  # widgets hand enums back as strings
                if title is None:
                    title = op.title(self.encounter)
                steps.append((op, self.encounter.apply(op)))
        except IllegalOp as exc:
            self._undo_steps(steps)
            self.refused.emit(sentence(str(exc)))
            return False
        except Exception as exc:  # a bug must not reach the table as a traceback
            traceback.print_exc()
            self._undo_steps(steps)
            self.refused.emit(
                f"afdesk could not do that ({type(exc).__name__}: {exc}). Nothing was changed."
            )
            return False
        for op, _ in steps:
            self._journal_do(op)
        self.undo_stack.push(OpCommand(self, steps, title or "Change"))
        return True

    def _undo_steps(self, steps: list[tuple[Op, Op]]) -> None:
        for _op, inverse in reversed(steps):
            self.encounter.apply(inverse)

    def push_or_reason(self, ops: Op | Sequence[Op], text: str | None = None) -> str:
        """Apply ``ops`` as one undo step; "" if done, else the reason it was refused."""
        reasons: list[str] = []
        self.refused.connect(reasons.append)
        try:
            ok = self.push_many([ops] if isinstance(ops, Op) else list(ops), text)
        finally:
            self.refused.disconnect(reasons.append)
        return "" if ok else (reasons[-1] if reasons else "Refused.")

    def try_op(self, op: Op) -> str:
        """Why ``op`` would be refused now ("" if it would be applied); changes nothing."""
        reason = self.encounter.refusal(op)
        return sentence(reason) if reason else ""

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
        return self._forced_modified or not self.undo_stack.isClean()

    def _update_modified(self, *_args) -> None:
        modified = self.is_modified()
        if modified != self._modified:
            self._modified = modified
            self.modifiedChanged.emit(modified)

    def mark_saved(self, path: Path, on_disk_version: int | None = None) -> None:
        """After a successful save to ``path``: clean, and the journal starts afresh."""
        changed = path != self.path
        self.path = Path(path)
        self.on_disk_version = on_disk_version
        self._forced_modified = False
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
            except Exception as exc:  # SaveError, OSError: no journal, but say so
                self._journal_failed(exc)
        return self._journal

    def _journal_call(self, call) -> None:
        """Run ``call(journal)``; a failure is reported, never raised into the table."""
        j = self._journal_obj()
        if j is None:
            return
        try:
            call(j)
        except Exception as exc:  # the storage layer's SaveError: disk full, ...
            self._journal_failed(exc)

    def _journal_failed(self, exc: Exception) -> None:
        self.journalProblem.emit(
            sentence(f"the crash journal could not be written: {exc}. Save to keep the changes")
        )

    def _journal_do(self, op: Op) -> None:
        self._journal_call(lambda j: j.record_do(op))

    def _journal_undo(self) -> None:
        self._journal_call(lambda j: j.record_undo())

    def _journal_redo(self) -> None:
        self._journal_call(lambda j: j.record_redo())

    # ------------------------------------------------------------------------ events

    def _on_events(self, events: list[Event]) -> None:
        seen: set[Event] = set()
        for ev in events:
            if ev in seen:
                continue
            seen.add(ev)
            signal = getattr(self, f"{ev.kind.value}Changed")
            if ev.kind is EventKind.COMBATANT:
                signal.emit(ev.id)
            else:
                signal.emit()
        if self.selected and self.selected not in self.encounter.combatants:
            self.select("")
        self.changed.emit()


def _default_journal(doc: EncounterDocument):
    """A crash journal for ``doc`` in the user's data folder (afdesk.storage)."""
    from afdesk.storage.journal import Journal

    # The journal embeds the base only when it differs from the file (never saved,
    # recovered, or changed on disk since it was opened).
    return Journal.start(name=doc.encounter.meta.name, file=doc.path, base=doc.encounter.state())
