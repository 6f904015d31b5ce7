"""The one undo history (afdesk.encounter.history): steps of (Op, inverse), groups, merging,
the clean index and the events the journal and the undo view follow (item 6)."""

from __future__ import annotations

import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import Change, History, Step
from afdesk.encounter.ops.meta import Rename
from afdesk.encounter.ops.roster import AdjustCounter, SetFacing
from afdesk.storage.samples import build


@pytest.fixture
def history():
    h = History(build())
    heard = []
    h.subscribe(heard.append)
    h.heard = heard  # type: ignore[attr-defined]
    return h


def changes(h) -> list[tuple[str, tuple[str, ...], bool]]:
    return [
        (e.change.value, tuple(type(o).__name__ for o in e.step.ops), e.merged) for e in h.heard
    ]


def test_push_undo_redo_are_exact_and_heard(history):
    enc = history.encounter
    start = enc.state()
    step = history.push(AdjustCounter("huang", "hits", 2))
    after = enc.state()
    assert step.text == "Hits of Green-Jade Huang" and history.undo_text() == step.text
    assert history.undo() == step and enc.state() == start
    assert history.redo_text() == step.text and not history.can_undo()
    history.redo()
    assert enc.state() == after
    assert changes(history) == [
        ("do", ("AdjustCounter",), False),
        ("undo", ("AdjustCounter",), False),
        ("redo", ("AdjustCounter",), False),
    ]
    with pytest.raises(IndexError):
        history.redo()


def test_a_refused_step_changes_nothing_and_is_not_heard(history):
    start = history.encounter.state()
    with pytest.raises(IllegalOp):
        history.push([AdjustCounter("huang", "hits", 1), AdjustCounter("nobody", "hits", 1)])
    assert history.encounter.state() == start and history.index == 0 and history.heard == []


def test_a_group_is_one_step_and_all_or_nothing(history):
    enc = history.encounter
    start = enc.state()
    with history.group("Two things"):
        history.push(AdjustCounter("huang", "hits", 1))
        history.push(Rename("The ford"))
    assert history.index == 1 and history.undo_text() == "Two things"
    assert changes(history) == [("do", ("AdjustCounter", "Rename"), False)]
    history.undo()
    assert enc.state() == start
    with pytest.raises(IllegalOp), history.group("Broken"):
        history.push(AdjustCounter("huang", "hits", 1))
        history.push(AdjustCounter("nobody", "hits", 1))
    assert enc.state() == start and history.index == 0 and history.can_redo()


def test_steps_with_the_same_merge_key_become_one_step_and_one_log_line(history):
    enc = history.encounter
    start = enc.state()
    lines = len(enc.log)
    for facing in (15.0, 30.0, 45.0):
        history.push(SetFacing("huang", facing), merge_key="turn:huang")
    assert history.index == 1 and len(enc.log) == lines + 1
    assert enc.combatants["huang"].facing == 45.0
    assert history.steps[0].ops == (SetFacing("huang", 45.0),)
    assert changes(history)[-2:] == [
        ("undo", ("SetFacing",), False),
        ("do", ("SetFacing",), True),
    ]
    history.push(SetFacing("chen", 90.0), merge_key="turn:chen")  # another key: a new step
    assert history.index == 2
    history.undo()
    history.undo()
    assert enc.state() == start


def test_a_refused_merge_keeps_the_step_it_would_have_replaced(history):
    enc = history.encounter
    history.push(SetFacing("huang", 15.0), merge_key="k")
    before = enc.state()
    with pytest.raises(IllegalOp):
        history.push(SetFacing("nobody", 30.0), merge_key="k")
    assert enc.state() == before and history.index == 1


def test_no_merge_into_the_saved_step_and_the_clean_index(history):
    history.push(SetFacing("huang", 15.0), merge_key="k")
    history.set_clean()
    assert history.is_clean()
    history.push(SetFacing("huang", 30.0), merge_key="k")
    assert history.index == 2 and not history.is_clean()
    history.undo()
    assert history.is_clean()
    history.undo()
    history.push(Rename("Elsewhere"))  # the saved state can no longer be reached
    assert history.clean_index == -1 and not history.is_clean()


def test_a_change_behind_its_back_is_heard(history):
    history.encounter.apply(Rename("Bypassed"))
    assert [e.change for e in history.heard] == [Change.OUTSIDE]
    history.encounter.refusal(Rename("Asked only"))  # a dry run is no change
    assert len(history.heard) == 1


def test_steps_from_before_the_history_can_be_undone_and_redone(history):
    """What recovery needs when a journal began after some changes (storage.recovery)."""
    enc = history.encounter
    op = Rename("Made earlier")
    inverse = enc.apply(op)
    made = enc.state()
    history.push(AdjustCounter("huang", "hits", 1))
    history.undo()
    history.undo_unknown(Step(((op, inverse),), "Rename"))
    assert enc.state() == build().state() and history.index == 0
    history.redo()
    assert enc.state() == made
    history.redo()
    history.undo()
    history.undo()
    history.redo_unknown([op])
    assert enc.state() == made and history.can_redo()


def test_typed_ops_are_kept_as_given_and_still_checked_by_the_model(history):
    """A journal's Ops come from a typed decoder: the step holds them as they are; the
    model still refuses a bad one."""
    op = SetFacing("huang", 90.0, override=True)
    assert history.push(op, typed=True).ops[0] is op
    other = SetFacing("huang", 45.0, override=True)
    held = history.push(other).ops[0]
    assert held == other and held is not other  # converted to the declared types
    with pytest.raises(IllegalOp):
        history.push(AdjustCounter("nobody", "hits", 1), typed=True)
    assert history.index == 2
