"""One open encounter: the model, its undo stack, its file, its crash journal.

Every user action becomes an Op pushed here (:meth:`EncounterDocument.push`). A refused Op
changes nothing and its reason is returned to the caller, who shows it where the GM is
looking (:mod:`afdesk.gui.errors`); an applied one is journaled
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

    def __init__(
        self,
        doc: EncounterDocument,
        steps: list[tuple[Op, Op]],
        text: str,
        merge_key: str | None = None,
    ) -> None:
        super().__init__(text)
        self._doc = doc
        self._steps = steps
        self._applied = True
        self.merge_key = merge_key

    def id(self) -> int:
        """Steps pushed with the same merge key merge (QUndoStack asks); -1: never."""
        return _merge_id(self.merge_key) if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Take the steps of ``other``, which the document applied in place of ours (see
        :meth:`EncounterDocument.push_many`)."""
        if not isinstance(other, OpCommand) or other.merge_key != self.merge_key:
            return False
        self._steps = other._steps
        return True

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

    combatantChanged = Signal(str)
    rosterChanged = Signal()
    zoneChanged = Signal()
    reflexChanged = Signal()
    turnChanged = Signal()
    modeChanged = Signal()
    settingsChanged = Signal()
    metaChanged = Signal()
    logChanged = Signal()
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
        self.physical_hands: set[str] = set()
        """Hands whose cards the players hold at the table (typed in each round); not saved."""
        self._forced_modified = modified
        self._journal = None
        self._journal_factory = journal_factory or _default_journal
        self._modified = self.is_modified()
        self.undo_stack.cleanChanged.connect(self._update_modified)
        self.undo_stack.indexChanged.connect(self._update_modified)
        encounter.subscribe(self._on_events)

    # ----------------------------------------------------------------------- changes

    def push(self, op: Op, text: str | None = None, *, merge_key: str | None = None) -> str:
        """Apply ``op`` as one undo step: "" if done, else the reason it was refused (for
        the caller to show where the GM is looking).

        Consecutive pushes with the same ``merge_key`` (say ``"facing:gao"`` for a burst
        of Q / E presses) become one undo step: the new Ops take the place of the last
        step's, applied to the state before it, so they must not depend on it (absolute
        Ops such as SetFacing) and the burst leaves one log line."""
        return self.push_many([op], text, merge_key=merge_key)

    def push_many(
        self, ops: Sequence[Op], text: str | None = None, *, merge_key: str | None = None
    ) -> str:
        """Apply several Ops as one undo step, all or nothing: "" or the refusal
        (``merge_key``: see :meth:`push`)."""
        steps: list[tuple[Op, Op]] = []
        title = text
        self._journal_obj()  # its base is the state before this change
        merged = self._merge_target(merge_key)
        if merged is not None:
            self._undo_steps(merged._steps)
        try:
            for op in ops:
                op = canonical(op)  # widgets hand enums back as strings
                if title is None:
                    title = op.title(self.encounter)
                steps.append((op, self.encounter.apply(op)))
        except IllegalOp as exc:
            self._undo_steps(steps)
            self._restore(merged)
            return self._refuse(sentence(str(exc)))
        except Exception as exc:  # a bug must not reach the table as a traceback
            traceback.print_exc()
            self._undo_steps(steps)
            self._restore(merged)
            return self._refuse(
                f"afdesk could not do that ({type(exc).__name__}: {exc}). Nothing was changed."
            )
        if merged is not None:
            for _step in merged._steps:
                self._journal_undo()
        for op, _ in steps:
            self._journal_do(op)
        self.undo_stack.push(OpCommand(self, steps, title or "Change", merge_key))
        return ""

    def _refuse(self, reason: str) -> str:
        self.refused.emit(reason)
        return reason

    def _merge_target(self, merge_key: str | None) -> OpCommand | None:
        """The step a push with ``merge_key`` merges into: the one just done, if it has the
        same key and is not the saved state (QUndoStack's own rule for mergeWith)."""
        stack = self.undo_stack
        index = stack.index()
        if not merge_key or index == 0 or index == stack.cleanIndex():
            return None
        top = stack.command(index - 1)
        if isinstance(top, OpCommand) and top.merge_key == merge_key:
            return top
        return None

    def _restore(self, merged: OpCommand | None) -> None:
        """A refused merge: the step it was to replace is applied again."""
        if merged is not None:
            merged._steps = [(op, self.encounter.apply(op)) for op, _ in merged._steps]

    def _undo_steps(self, steps: list[tuple[Op, Op]]) -> None:
        for _op, inverse in reversed(steps):
            self.encounter.apply(inverse)

    def push_or_reason(self, ops: Op | Sequence[Op], text: str | None = None) -> str:
        """Apply ``ops`` (one Op or several) as one undo step; "" or the refusal."""
        return self.push_many([ops] if isinstance(ops, Op) else list(ops), text)

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
            kind = ev.kind
            if kind is EventKind.COMBATANT:
                self.combatantChanged.emit(ev.id)
            elif kind is EventKind.ROSTER:
                self.rosterChanged.emit()
            elif kind is EventKind.ZONE:
                self.zoneChanged.emit()
            elif kind is EventKind.REFLEX:
                self.reflexChanged.emit()
            elif kind is EventKind.TURN:
                self.turnChanged.emit()
            elif kind is EventKind.MODE:
                self.modeChanged.emit()
            elif kind is EventKind.SETTINGS:
                self.settingsChanged.emit()
            elif kind is EventKind.META:
                self.metaChanged.emit()
            elif kind is EventKind.LOG:
                self.logChanged.emit()
        if self.selected and self.selected not in self.encounter.combatants:
            self.select("")
        self.changed.emit()


_MERGE_IDS: dict[str, int] = {}


def _merge_id(key: str) -> int:
    """A QUndoCommand id for a merge key (ids are ints; keys are words)."""
    return _MERGE_IDS.setdefault(key, len(_MERGE_IDS) + 1)


def _default_journal(doc: EncounterDocument):
    """A crash journal for ``doc`` in the user's data folder (afdesk.storage)."""
    from afdesk.storage.journal import Journal

    # The journal embeds the base only when it differs from the file (never saved,
    # recovered, or changed on disk since it was opened).
    return Journal.start(name=doc.encounter.meta.name, file=doc.path, base=doc.encounter.state())
