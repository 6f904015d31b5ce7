"""The undo history's bound: a step beyond the limit forgets the oldest one, the steps
kept undo and redo exactly, and the saved state goes with its step (as QUndoStack's undo
limit does, which the document's view uses)."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.history import History
from afdesk.encounter.ops.meta import Rename
from afdesk.encounter.ops.roster import AdjustCounter
from afdesk.storage.samples import build


def test_the_oldest_steps_are_forgotten_and_the_rest_undo_exactly():
    h = History(build(), limit=5)
    states = [h.encounter.state()]
    for i in range(12):
        h.push(AdjustCounter("huang", "grit", 1), f"step {i}")
        states.append(h.encounter.state())
    assert len(h.steps) == 5 and h.index == 5
    assert [s.text for s in h.steps] == [f"step {i}" for i in range(7, 12)]
    for back in range(1, 6):
        h.undo()
        assert h.encounter.state() == states[12 - back]
    assert not h.can_undo()
    with pytest.raises(IndexError):
        h.undo()
    for forward in range(1, 6):
        h.redo()
        assert h.encounter.state() == states[7 + forward]


def test_the_saved_state_is_forgotten_with_its_step():
    h = History(build(), limit=3)
    h.push(Rename("One"))
    h.push(Rename("Two"))
    h.set_clean()  # saved after two steps: index 2
    h.push(Rename("Three"))
    assert h.clean_index == 2
    h.push(Rename("Four"))  # forgets One: the saved state is now 1 step in
    assert h.clean_index == 1 and len(h.steps) == 3
    h.undo()
    h.undo()
    assert h.is_clean() and h.encounter.meta.name == "Two"
    h.redo()
    h.redo()
    h.push(Rename("Five"))  # forgets Two, the step the saved state followed... still kept
    assert h.clean_index == 0
    h.push(Rename("Six"))  # ... and now gone for good
    assert h.clean_index == -1 and not h.is_clean()


def test_a_new_step_after_undos_drops_the_redo_steps_first():
    h = History(build(), limit=3)
    for name in ("One", "Two", "Three"):
        h.push(Rename(name), name)
    h.undo()
    h.undo()
    h.push(Rename("Four"), "Four")  # One, Four: nothing beyond the limit
    assert [s.text for s in h.steps] == ["One", "Four"]
    assert h.index == 2 and not h.can_redo()
    h.undo()
    h.undo()
    assert h.encounter.meta.name == build().meta.name


def test_an_undo_limit_is_at_least_one_step():
    with pytest.raises(ValueError, match="at least 1"):
        History(build(), limit=0)


@pytest.mark.parametrize("seed", range(4))
def test_a_bounded_history_undoes_as_an_unbounded_one_within_the_bound(seed):
    """The same seeded pushes, undos and redos into a bounded and an unbounded history:
    the same encounter after each, and the same answers to undo and redo while the
    bounded one still holds the step."""
    rng = random.Random(seed)
    bounded, full = History(build(), limit=4), History(build())
    for _ in range(80):
        what = rng.random()
        if what < 0.5:
            delta = rng.choice((1, 2))
            for h in (bounded, full):
                h.push(AdjustCounter("huang", "grit", delta))
        elif what < 0.8:
            if bounded.can_undo():
                bounded.undo()
                full.undo()
        elif bounded.can_redo():
            assert full.can_redo()
            bounded.redo()
            full.redo()
        assert bounded.encounter.state() == full.encounter.state()
        assert len(bounded.steps) <= 4
        if bounded.can_undo():
            assert bounded.undo_text() == full.undo_text()
        assert bounded.redo_text() == full.redo_text()
