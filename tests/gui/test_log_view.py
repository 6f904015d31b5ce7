"""The Log dock kept up to date line by line shows exactly the lines a fresh one shows, and
exactly those the filter asks for, through a long seeded run of changes with undos and
redos, a log cut back and restored, and filters changed along the way."""

from __future__ import annotations

import random

import pytest
import shiboken6

from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.restore import Restore
from afdesk.gui.docks.log import LogModel, LogPanel, entry_line, entry_people
from afdesk.gui.document import EncounterDocument
from tests.benchmarks import long_session
from tests.gui.conftest import wait_exposed


def expected(doc: EncounterDocument, text: str, person: str, checks: bool) -> list:
    return [
        e
        for e in doc.encounter.log
        if (not checks or isinstance(e.op, ResolveContest))
        and (not person or person in entry_people(e))
        and text.lower() in entry_line(e).lower()
    ]


def shown(panel: LogPanel) -> list[str]:
    model = panel.view.model()
    return [model.index(r, 0).data() for r in range(model.rowCount())]


def check(panel: LogPanel, doc: EncounterDocument) -> None:
    """The panel lets through the lines the filter asks for; Qt holds the newest of them
    (all of a short log), at most twice the window."""
    text = panel.search.text().strip()
    person = panel.person.currentData() or ""
    want = expected(doc, text, person, panel.kind.currentIndex() == 1)
    assert panel.visible_entries() == want
    model = panel.view.model()
    held = want[model.first :]
    assert model.first == 0 or len(held) >= model.WINDOW
    assert len(held) <= 2 * model.WINDOW
    assert shown(panel) == [entry_line(e) for e in held]
    assert [model.entry(r) for r in range(model.rowCount())] == held
    fresh = LogPanel()
    fresh.set_document(doc)
    fresh.search.setText(panel.search.text())
    fresh.person.setCurrentIndex(fresh.person.findData(person))
    fresh.kind.setCurrentIndex(panel.kind.currentIndex())
    assert fresh.visible_entries() == want
    assert shown(fresh) == [entry_line(e) for e in want[-model.WINDOW :]]
    # Deleted now, as a dock's panel goes with its window: left to the garbage collector,
    # a panel never shown crashed Python 3.13 (its view's wrapper deleted the view after
    # the panel had gone, in whatever order the collector freed their cycle).
    shiboken6.delete(fresh)


def _filters(panel: LogPanel, doc: EncounterDocument, rng: random.Random) -> None:
    people = [c.id for c in doc.encounter.roster()]
    panel.search.setText(rng.choice(["", "", "faces", "GRIT", "e1 r", "bleed", "zzz"]))
    panel.person.setCurrentIndex(panel.person.findData(rng.choice(["", *people])))
    panel.kind.setCurrentIndex(rng.choice([0, 0, 1]))


@pytest.mark.parametrize("window", [1000, 7])
@pytest.mark.parametrize("mix", sorted(long_session.MIXES))
def test_the_log_shows_the_filtered_log_through_a_long_run(
    playing_doc, qtbot, mix, window, monkeypatch
):
    """With the window the app uses (the whole log held) and a window of 7 lines (the
    oldest held lines go, the newest stay)."""
    monkeypatch.setattr(LogModel, "WINDOW", window)
    doc = playing_doc
    panel = LogPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    panel.show()
    rng = random.Random(9)
    for stretch in range(12):
        long_session.run(
            lambda ops: doc.push_many(ops),
            lambda: doc.history.can_undo() and (doc.undo() or True),
            lambda: doc.history.can_redo() and (doc.redo() or True),
            doc.encounter,
            changes=15,
            seed=stretch,
            mix=mix,
        )
        check(panel, doc)
        _filters(panel, doc, rng)
        check(panel, doc)


def test_a_log_cut_back_and_put_back_shows_the_same_lines(playing_doc, qtbot):
    doc = playing_doc
    panel = LogPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    before = shown(panel)
    assert len(before) > 5
    assert doc.push(Restore(log_length=3)) == ""
    assert shown(panel) == before[:3]
    doc.undo()  # the cut lines come back: the same entries, so the same rows
    assert shown(panel) == before
    check(panel, doc)


def test_the_log_is_read_only_and_its_tooltip_is_the_entry(playing_doc, qtbot):
    panel = LogPanel()
    qtbot.addWidget(panel)
    panel.set_document(playing_doc)
    assert panel.view.editTriggers() == panel.view.EditTrigger.NoEditTriggers
    model = panel.view.model()
    assert model.entry(0) is playing_doc.encounter.log[0]
    assert model.entry(model.rowCount()) is None


def test_a_person_who_leaves_the_roster_stops_filtering(playing_doc, qtbot):
    from afdesk.encounter.ops.roster import RemoveCombatant

    doc = playing_doc
    panel = LogPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    gone = next(c.id for c in doc.encounter.roster() if c.id != doc.encounter.actor)
    panel.person.setCurrentIndex(panel.person.findData(gone))
    assert doc.push(RemoveCombatant(gone)) == ""
    assert panel.person.currentData() == ""
    check(panel, doc)


def test_scrolling_to_the_top_brings_back_earlier_lines(playing_doc, qtbot, monkeypatch):
    monkeypatch.setattr(LogModel, "WINDOW", 6)
    doc = playing_doc
    long_session.model_only(doc.encounter, len(doc.encounter.log) + 30)
    panel = LogPanel()
    qtbot.addWidget(panel)
    panel.resize(300, 130)  # fewer lines fit than Qt holds: a scroll bar
    panel.set_document(doc)
    panel.show()
    wait_exposed(qtbot, panel)
    lines = [entry_line(e) for e in doc.encounter.log]
    assert shown(panel) == lines[-6:]
    model = panel.view.model()
    bar = panel.view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() and bar.maximum() > 0)
    bar.setValue(bar.minimum())  # the GM scrolls to the top
    qtbot.waitUntil(lambda: model.rowCount() == 12)
    assert shown(panel) == lines[-12:]
    assert model.first == len(lines) - 12
    while model.show_earlier():
        pass
    assert shown(panel) == lines and model.first == 0


def shown_log(doc: EncounterDocument, qtbot, width: int, height: int) -> LogPanel:
    """A Log panel of ``doc``, ``width`` by ``height``, on screen."""
    panel = LogPanel()
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.set_document(doc)
    panel.show()
    wait_exposed(qtbot, panel)
    return panel


def test_a_hidden_log_scrolls_to_its_end_when_shown(playing_doc, qtbot):
    doc = playing_doc
    panel = shown_log(doc, qtbot, 300, 130)
    panel.hide()
    long_session.run(
        lambda ops: doc.push_many(ops),
        lambda: False,
        lambda: False,
        doc.encounter,
        changes=25,
        seed=3,
    )
    assert panel.view.at_end_when_shown
    panel.show()
    bar = panel.view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    assert not panel.view.at_end_when_shown


def test_a_key_typed_or_taken_back_looks_through_the_lines_it_can_change(playing_doc, qtbot):
    """Typing on looks only through the lines the shorter text let through, and taking a
    key back finds the earlier filter as it was: the keys after the first cost the lines
    that match, not the log's length. A change to the log in between is followed (the
    earlier filters no longer cover it)."""
    doc = playing_doc
    long_session.model_only(doc.encounter, 600)
    panel = LogPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    panel.show()
    model = panel.model
    lines = len(doc.encounter.log)
    for round_ in range(2):
        before = model.examined
        for ch in "faces":
            panel.search.setText(panel.search.text() + ch)
            check(panel, doc)
        matching_f = len(expected(doc, "f", "", False))
        # a whole pass a key would be 5 * lines
        assert model.examined - before <= lines + 4 * matching_f < 5 * lines
        middle = model.examined
        for _ in "faces":
            panel.search.setText(panel.search.text()[:-1])
            check(panel, doc)
        # each filter taken back was kept; after a change, the empty one is looked for again
        assert model.examined - middle == (0 if round_ == 0 else lines)
        long_session.run(  # the log changes: the next round's filters look afresh
            lambda ops: doc.push_many(ops),
            lambda: doc.history.can_undo() and (doc.undo() or True),
            lambda: doc.history.can_redo() and (doc.redo() or True),
            doc.encounter,
            changes=10,
            seed=round_,
        )
        lines = len(doc.encounter.log)
        check(panel, doc)
