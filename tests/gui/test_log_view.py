"""The Log dock kept up to date line by line shows exactly the lines a fresh one shows, and
exactly those the filter asks for, through a long seeded run of changes with undos and
redos, a log cut back and restored, and filters changed along the way."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.ops.check import ResolveContest
from afdesk.encounter.ops.restore import Restore
from afdesk.gui.docks.log import LogPanel, entry_line, entry_people
from afdesk.gui.document import EncounterDocument
from tests.benchmarks import long_session


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
    text = panel.search.text().strip()
    person = panel.person.currentData() or ""
    want = expected(doc, text, person, panel.kind.currentIndex() == 1)
    assert panel.visible_entries() == want
    assert shown(panel) == [entry_line(e) for e in want]
    fresh = LogPanel()
    fresh.set_document(doc)
    fresh.search.setText(panel.search.text())
    fresh.person.setCurrentIndex(fresh.person.findData(person))
    fresh.kind.setCurrentIndex(panel.kind.currentIndex())
    assert shown(fresh) == shown(panel)
    model = panel.view.model()
    assert [model.entry(r) for r in range(model.rowCount())] == want


def _filters(panel: LogPanel, doc: EncounterDocument, rng: random.Random) -> None:
    people = [c.id for c in doc.encounter.roster()]
    panel.search.setText(rng.choice(["", "", "faces", "GRIT", "e1 r", "bleed", "zzz"]))
    panel.person.setCurrentIndex(panel.person.findData(rng.choice(["", *people])))
    panel.kind.setCurrentIndex(rng.choice([0, 0, 1]))


@pytest.mark.parametrize("mix", sorted(long_session.MIXES))
def test_the_log_shows_the_filtered_log_through_a_long_run(playing_doc, qtbot, mix):
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
