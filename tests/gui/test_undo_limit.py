"""The document's undo stack and its history forget the same oldest steps: after every
push, merge, save, undo and redo of a seeded run beyond the bound they hold the same
steps, the same index and the same saved state, and undo is exact to the bound."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.ops.roster import AdjustCounter, SetFacing
from afdesk.gui import document
from afdesk.gui.document import EncounterDocument
from afdesk.storage import samples


def in_step(doc: EncounterDocument) -> None:
    stack, history = doc.undo_stack, doc.history
    assert stack.count() == len(history.steps) <= stack.undoLimit()
    assert stack.index() == history.index
    assert stack.cleanIndex() == history.clean_index
    assert stack.undoText() == history.undo_text()
    assert stack.redoText() == history.redo_text()
    assert doc.is_modified() == (not stack.isClean())


def test_the_document_bounds_its_history_and_its_view_alike():
    doc = EncounterDocument(samples.build(), journal_factory=lambda d: None)
    assert doc.undo_stack.undoLimit() == document.UNDO_LIMIT == doc.history.limit


@pytest.mark.parametrize("seed", range(3))
def test_the_view_and_the_history_forget_the_same_steps(monkeypatch, tmp_path, seed):
    monkeypatch.setattr(document, "UNDO_LIMIT", 6)
    doc = EncounterDocument(samples.build(), journal_factory=lambda d: None)
    assert doc.undo_stack.undoLimit() == 6 and doc.history.limit == 6
    rng = random.Random(seed)
    start = doc.encounter.state()
    for _ in range(120):
        what = rng.random()
        if what < 0.4:
            assert doc.push(AdjustCounter("huang", "grit", 1)) == ""
        elif what < 0.55:  # a burst of turns: merged into one step
            facing = rng.choice((15.0, 30.0, 45.0))
            assert doc.push(SetFacing("huang", facing, override=True), merge_key="turn") == ""
        elif what < 0.6:
            doc.mark_saved(tmp_path / "x.afenc", 1)
        elif what < 0.85:
            if doc.undo_stack.canUndo():
                doc.undo()
        elif doc.undo_stack.canRedo():
            doc.redo()
        in_step(doc)
    # Undo is exact to the bound: back and forth through every step kept.
    kept = doc.history.index
    seen = [doc.encounter.state()]
    while doc.undo_stack.canUndo():
        doc.undo()
        seen.append(doc.encounter.state())
    assert len(seen) - 1 == kept and doc.history.index == 0
    assert seen[-1] != start  # the oldest steps are forgotten: the start is out of reach
    for state in reversed(seen[:-1]):
        doc.redo()
        assert doc.encounter.state() == state
    in_step(doc)
