"""The one undo history of an encounter: steps of (Op, inverse), undo, redo, merge, events.

Every change the GM makes is a :class:`Step`: one or more Ops applied together (a macro
such as "extend the zone and move there"), each with the inverse ``Encounter.apply``
returned, and the words the undo menu shows. The history owns the encounter's undo and redo;
everything else follows it through its :class:`StepEvent` s:

- the GUI's ``QUndoStack`` is a view of it (one ``QUndoCommand`` per step),
- the crash journal writes each event's Ops to disk (:mod:`afdesk.storage.journal`),
- recovery replays a journal into a history (:mod:`afdesk.storage.recovery`).

Merging: a step pushed with the same ``merge_key`` as the step before it (a burst of key
presses turning one character) replaces that step: the earlier Ops are undone and the new
ones applied from where they started, so the new Ops must say the whole change (an absolute
facing, not "15 degrees more"), and the log gets one line, not one per press. As in Qt, a
step is never merged into the step the file was saved at.

Pure Python, like the rest of the model: nothing here knows of Qt.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import msgspec

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter, canonical
from afdesk.encounter.op import Op
from afdesk.encounter.parts import Event
from afdesk.encounter.steps import StepList


class Step(msgspec.Struct, frozen=True):
    """One undo step: Ops applied together, with their inverses, in the order applied."""

    changes: tuple[tuple[Op, Op], ...]
    text: str
    merge_key: str | None = None

    @property
    def ops(self) -> tuple[Op, ...]:
        return tuple(op for op, _ in self.changes)


class Change(enum.StrEnum):
    """What happened to the history."""

    DO = "do"
    """A new step was applied (``merged``: it replaced the step before, undone just before)."""
    UNDO = "undo"
    """A step was undone: its inverses were applied, last first."""
    REDO = "redo"
    """A step was applied again (with fresh inverses)."""
    OUTSIDE = "outside"
    """The encounter changed without its history (a bug, or a tool that bypassed it): what
    follows the history (the journal) must take the encounter as it is now."""


class StepEvent(msgspec.Struct, frozen=True):
    """What a subscriber hears: the change and the step it concerns."""

    change: Change
    step: Step | None = None
    merged: bool = False


Listener = Callable[[StepEvent], None]


UNDO_LIMIT = 1000
"""How many steps a document's GM can undo, and a crash journal's replay keeps: older ones
are forgotten (a three-hour session's history would otherwise grow without bound, and the
Undo history dock with it)."""


class History(StepList[Step, StepEvent]):
    """The undo history of one encounter (see the module).

    ``push`` raises :class:`IllegalOp` (and changes nothing) when an Op is refused.

    With a ``limit``, a new step beyond it forgets the oldest (as ``QUndoStack`` does with
    its undo limit, so that its view stays in step): the steps kept undo exactly as
    before, the saved state is forgotten with its step, and a three-hour session keeps a
    bounded history (every step holds its Ops and the parts they changed).
    """

    def __init__(self, encounter: Encounter, limit: int | None = None) -> None:
        super().__init__()
        if limit is not None and limit < 1:
            raise ValueError(f"an undo limit is at least 1 step, not {limit}")
        self.limit = limit
        self.encounter = encounter
        self._busy = False
        self._group: list[tuple[Op, Op]] | None = None
        self._group_text = ""
        encounter.subscribe(self._on_encounter)

    def close(self) -> None:
        """Stop following the encounter."""
        self.encounter.unsubscribe(self._on_encounter)

    # ---------------------------------------------------------------------- reading

    def _on_encounter(self, events: list[Event]) -> None:
        if not self._busy:
            self._emit(StepEvent(Change.OUTSIDE))

    # ---------------------------------------------------------------------- changes

    def push(
        self,
        ops: Op | Sequence[Op],
        text: str | None = None,
        *,
        merge_key: str | None = None,
        typed: bool = False,
        described: Sequence[str | None] = (),
    ) -> Step:
        """Apply ``ops`` as one step (all or nothing) and return it.

        ``text`` is the undo menu's words (default: the first Op's title). With a
        ``merge_key`` equal to the previous step's, the new step replaces it (see the
        module). Any exception (:class:`IllegalOp` for a refusal) leaves everything as it was.
        ``typed``: the Ops come from a typed decoder (a journal's lines), so their fields
        already have their declared types and the step holds them as they are (the model
        still checks every Op it applies). ``described``: the log line of each Op, where
        the caller has it already (a journal's replay; see ``Encounter.apply``).
        """
        ops = [ops] if isinstance(ops, Op) else list(ops)
        if not typed:  # widgets hand enums back as strings: the step holds the real types
            ops = [canonical(op) for op in ops]
        if self._group is not None:
            self._group.extend(self._apply_all(ops))
            return Step(tuple(self._group), self._group_text)
        target = self._merge_target(merge_key)
        if target is not None:
            return self._merge(target, ops, text, merge_key)
        title = text if text is not None else (ops[0].title(self.encounter) if ops else "")
        changes = self._apply_all(ops, described)
        step = Step(tuple(changes), title or "Change", merge_key)
        self._record(step)
        self._emit(StepEvent(Change.DO, step))
        return step

    @contextmanager
    def group(self, text: str) -> Iterator[None]:
        """Everything pushed inside ``with history.group("Next turn"):`` becomes one step;
        an exception inside undoes all of it."""
        if self._group is not None:
            yield  # nested: part of the outer group
            return
        self._group, self._group_text = [], text
        try:
            yield
        except BaseException:
            changes, self._group = self._group, None
            self._revert(changes)
            raise
        changes, self._group = self._group, None
        if changes:
            step = Step(tuple(changes), text)
            self._record(step)
            self._emit(StepEvent(Change.DO, step))

    def undo(self) -> Step:
        """Undo the last applied step; ``IndexError`` if there is none."""
        if not self.can_undo():
            raise IndexError("nothing to undo")
        step = self._steps[self._index - 1]
        self._revert(list(step.changes))
        self._index -= 1
        self._emit(StepEvent(Change.UNDO, step))
        return step

    def redo(self) -> Step:
        """Apply the next undone step again; ``IndexError`` if there is none."""
        if not self.can_redo():
            raise IndexError("nothing to redo")
        old = self._steps[self._index]
        step = msgspec.structs.replace(old, changes=tuple(self._apply_all(list(old.ops))))
        self._steps[self._index] = step
        self._index += 1
        self._emit(StepEvent(Change.REDO, step))
        return step

    def undo_unknown(self, step: Step) -> None:
        """Undo ``step``, made before this history began (a journal started after it):
        its inverses are applied and it becomes the next step to redo."""
        self._revert(list(step.changes))
        self._steps.insert(self._index, step)
        if self._clean > self._index:
            self._clean += 1
        self._emit(StepEvent(Change.UNDO, step))

    def redo_unknown(self, ops: Sequence[Op], text: str = "") -> Step:
        """Redo Ops undone before this history began: applied as a step, and the steps
        this history can redo stay redoable."""
        step = Step(tuple(self._apply_all(list(ops))), text or "Change")
        self._steps.insert(self._index, step)
        self._index += 1
        if self._clean >= self._index:
            self._clean += 1
        self._emit(StepEvent(Change.REDO, step))
        return step

    def adopt(self, steps: Sequence[Step], clean: int = -1) -> None:
        """Take ``steps``, already applied to the encounter (a crash journal's replay,
        oldest first), as the steps to undo: the history before them is forgotten, and
        beyond the limit the oldest are too. ``clean`` is how many of them lead from the
        file as saved to the state the file holds (-1: none does, the journal started
        from an encounter the file does not hold); undoing back there is clean again,
        unless the limit forgot that point. Nothing is applied and no one is told: the
        encounter does not change."""
        if not -1 <= clean <= len(steps):
            raise ValueError(f"a clean index is -1 or 0 to {len(steps)}, not {clean}")
        kept = list(steps)
        if self.limit is not None:
            kept = kept[-self.limit :]
        forgotten = len(steps) - len(kept)
        self._steps = kept
        self._index = len(kept)
        self._clean = clean - forgotten if clean >= forgotten else -1

    # -------------------------------------------------------------------- internals

    def _merge_target(self, merge_key: str | None) -> Step | None:
        """The step a new step with ``merge_key`` replaces (None: it is a new step). The
        same rule as QUndoStack's, so that its view merges exactly when this does."""
        if merge_key is None or self._index == 0 or self._index == self._clean:
            return None
        top = self._steps[self._index - 1]
        return top if top.merge_key == merge_key else None

    def _merge(self, old: Step, ops: list[Op], text: str | None, key: str | None) -> Step:
        self._revert(list(old.changes))
        try:
            title = text if text is not None else (ops[0].title(self.encounter) if ops else "")
            changes = self._apply_all(ops)
        except BaseException:
            self._apply_all(list(old.ops))  # back as it was (the dice are in the Ops)
            raise
        del self._steps[self._index :]
        if self._clean > self._index:
            self._clean = -1
        step = Step(tuple(changes), title or old.text, key)
        self._steps[self._index - 1] = step
        self._emit(StepEvent(Change.UNDO, old))
        self._emit(StepEvent(Change.DO, step, merged=True))
        return step

    def _record(self, step: Step) -> None:
        del self._steps[self._index :]
        if self._clean > self._index:
            self._clean = -1  # the saved state was undone and is now gone for good
        self._steps.append(step)
        self._index += 1
        if self.limit is not None and len(self._steps) > self.limit:
            gone = len(self._steps) - self.limit
            del self._steps[:gone]
            self._index -= gone
            if self._clean != -1:
                self._clean = -1 if self._clean < gone else self._clean - gone

    def _apply_all(
        self, ops: list[Op], described: Sequence[str | None] = ()
    ) -> list[tuple[Op, Op]]:
        changes: list[tuple[Op, Op]] = []
        self._busy = True
        try:
            for i, op in enumerate(ops):
                told = described[i] if i < len(described) else None
                changes.append((op, self.encounter.apply(op, described=told)))
        except BaseException:
            self._revert(changes)
            raise
        finally:
            self._busy = False
        return changes

    def _revert(self, changes: list[tuple[Op, Op]]) -> None:
        was, self._busy = self._busy, True
        try:
            for _op, inverse in reversed(changes):
                self.encounter.apply(inverse)
        finally:
            self._busy = was


__all__ = ["UNDO_LIMIT", "Change", "History", "IllegalOp", "Step", "StepEvent"]
