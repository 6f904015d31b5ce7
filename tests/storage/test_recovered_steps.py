"""Recovery hands back the replayed steps, not only the state: adopted into a History,
they undo back to the file the journal started from and redo to the crash."""

from __future__ import annotations

import pytest

from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.storage import load, recovery
from afdesk.storage.journal import recover_report
from tests.storage.test_journal import _crash, _only_pending, _saved_live, random_play


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_recovered_steps_undo_to_the_file_and_redo_to_the_crash(tmp_path, data_dir, seed):
    path, live = _saved_live(tmp_path)
    random_play(live, seed, 30)  # dos, undos and redos, seeded
    _crash(live.journal)
    report = recover_report(_only_pending())
    assert report.state == live.enc.state()
    assert len(report.steps) == len(live.session.undo_stack)
    history = History(Encounter.from_state(report.state), limit=1000)
    history.adopt(report.steps)
    assert history.index == len(report.steps) and not history.is_clean()
    while history.can_undo():
        history.undo()
    assert history.encounter.state() == load(path).state
    while history.can_redo():
        history.redo()
    assert history.encounter.state() == report.state


def test_a_limit_keeps_the_newest_recovered_steps(tmp_path, data_dir):
    _path, live = _saved_live(tmp_path)
    random_play(live, 5, 30)
    _crash(live.journal)
    report = recover_report(_only_pending())
    assert len(report.steps) > 3
    history = History(Encounter.from_state(report.state), limit=3)
    history.adopt(report.steps)
    assert history.steps == report.steps[-3:]
    for _ in range(3):
        history.undo()
    assert not history.can_undo()


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_journal_begun_at_the_file_is_clean_once_every_step_is_undone(tmp_path, data_dir, seed):
    """Recovery says where the saved file lies among its steps: undone back there, the
    recovered encounter is the file again, so it is clean (QUndoStack's clean index)."""
    path, live = _saved_live(tmp_path)
    random_play(live, seed, 30)
    _crash(live.journal)
    report = recover_report(_only_pending())
    assert report.clean == 0
    history = History(Encounter.from_state(report.state), limit=1000)
    history.adopt(report.steps, report.clean)
    assert history.is_clean() == (not report.steps)
    while history.can_undo():
        history.undo()
    assert history.is_clean() and history.encounter.state() == load(path).state
    if history.can_redo():
        history.redo()
        assert not history.is_clean()


def test_a_journal_begun_at_an_unsaved_encounter_is_never_clean(tmp_path, data_dir):
    from afdesk.storage.journal import Journal
    from afdesk.storage.samples import build
    from tests.storage.test_journal import Live

    live = Live(build(), Journal.start("New fight", base=build().state()))
    random_play(live, 4, 12)
    _crash(live.journal)
    report = recover_report(_only_pending())
    assert report.clean == -1
    history = History(Encounter.from_state(report.state), limit=1000)
    history.adopt(report.steps, report.clean)
    while history.can_undo():
        history.undo()
    assert not history.is_clean()  # no file holds where the journal began


def test_a_limit_that_forgets_the_saved_point_forgets_the_clean_state(tmp_path, data_dir):
    _path, live = _saved_live(tmp_path)
    random_play(live, 5, 30)
    _crash(live.journal)
    report = recover_report(_only_pending())
    history = History(Encounter.from_state(report.state), limit=3)
    history.adopt(report.steps, report.clean)
    while history.can_undo():
        history.undo()
    assert history.clean_index == -1 and not history.is_clean()
    with pytest.raises(ValueError, match="clean index"):
        history.adopt(report.steps, len(report.steps) + 1)


def test_the_replay_keeps_the_newest_steps_a_document_keeps(tmp_path, data_dir, monkeypatch):
    """The replay's History holds what a document's does (UNDO_LIMIT): the older steps go
    while it replays, and the clean point with them once it is forgotten."""
    _path, live = _saved_live(tmp_path)
    random_play(live, 5, 30)
    _crash(live.journal)
    monkeypatch.setattr(recovery, "UNDO_LIMIT", 1_000_000)
    whole = recover_report(_only_pending())
    assert len(whole.steps) > 4 and whole.clean == 0
    monkeypatch.setattr(recovery, "UNDO_LIMIT", 4)
    report = recover_report(_only_pending())
    assert report.state == whole.state == live.enc.state()
    assert report.steps == whole.steps[-4:]
    assert report.clean == -1
