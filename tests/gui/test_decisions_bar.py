"""The decisions bar above the map: harm at grit shows whoever is selected, with its
buttons, until decided."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.roster import AdjustCounter
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples as sample


@pytest.fixture
def window(qtbot, playing_doc):
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.rng = random.Random(7)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    w.set_document(playing_doc)
    return w


def _two_at_grit(doc):
    """Two characters on the map hit up to their grit: two harm decisions wait (E17)."""
    a, b = [c for c in doc.encounter.roster() if c.on_map and c.grit > 0][:2]
    for c in (a, b):
        assert doc.push(AdjustCounter(c.id, "hits", c.grit - c.hits)) == ""
    return a, b


def test_harm_at_grit_is_asked_above_the_map_whoever_is_selected(window):
    doc = window.doc
    enc = doc.encounter
    bar = window.decisions
    assert bar.parentWidget() is None  # nothing has waited yet: no tool bar made
    actor = enc.actor
    victim = next(c for c in enc.roster() if c.id != actor and c.on_map and c.grit > 0)
    doc.select(actor)  # the attacker stays selected, as after Apply
    assert doc.push(AdjustCounter(victim.id, "hits", victim.grit - victim.hits)) == ""
    assert bar.parentWidget().isVisible()
    [row] = bar.rows
    assert victim.name in row.text.text() and "Down, out or nothing?" in row.text.text()
    assert [b.text() for b in row.buttons] == ["Down", "Out", "Nothing"]
    assert doc.selected == actor
    row.buttons[0].click()  # Down (E17)
    assert enc is doc.encounter and doc.encounter.combatants[victim.id].has(StateKind.DOWN)
    assert bar.rows == [] and bar.parentWidget().isVisible()  # it stays, saying so
    assert bar.idle.isVisible() and "Nothing waits" in bar.idle.text()
    doc.undo()  # undone: the decision waits again
    assert len(bar.rows) == 1 and bar.parentWidget().isVisible() and bar.idle.isHidden()


def test_the_bar_follows_the_document_shown(window):
    _two_at_grit(window.doc)
    window.doc.undo()
    window.doc.undo()
    assert window.decisions.parentWidget().isVisible()  # nothing waits: it stays
    fresh = EncounterDocument(sample.build(), journal_factory=lambda d: None)
    window.set_document(fresh)
    assert window.decisions.doc is fresh
    # another encounter, where nothing has waited yet: the bar is gone until something does
    assert not window.decisions.parentWidget().isVisible()
    assert window.decisions.minimumHeight() == 0


def test_the_players_screen_shows_down_on_the_token(window):
    from afdesk.gui.map.scene import MapScene

    doc = window.doc
    enc = doc.encounter
    victim = next(c for c in enc.roster() if c.on_map and c.grit > 0 and not c.hidden)
    assert doc.push(AdjustCounter(victim.id, "hits", victim.grit - victim.hits)) == ""
    window.decisions.rows[0].buttons[0].click()  # Down
    player = MapScene(doc, player=True)
    token = player.tokens[victim.id]
    assert token.fallen == "DOWN" and "DOWN" not in token.badge_texts()  # the plate (E17)


def test_rows_are_kept_and_show_the_next_decisions(window):
    """Decisions that come and go do not make widgets on every change (each new row piled
    up until the event loop deleted the old one, and the window laid all of them out): the
    bar holds at most as many rows as it ever showed at once, and a kept row's buttons
    decide the decision it shows now (E17)."""
    from afdesk.gui.docks.decisions import DecisionRow

    doc = window.doc
    enc = doc.encounter
    bar = window.decisions
    a, b = _two_at_grit(doc)
    assert [r.decision.about for r in bar.rows] == [a.id, b.id]
    for _ in range(30):
        doc.undo()
        assert len(bar.rows) == 1
        doc.redo()
        assert len(bar.rows) == 2
    assert len(bar.findChildren(DecisionRow)) == 2
    bar.rows[0].buttons[1].click()  # a is out: b's decision moves into the first row
    assert not enc.combatants[a.id].on_map  # out of the fight
    [row] = bar.rows
    assert row.decision.about == b.id and b.name in row.text.text()
    assert [x.text() for x in row.buttons] == ["Down", "Out", "Nothing"]
    hidden = [r for r in bar.findChildren(DecisionRow) if r not in bar.rows]
    assert len(hidden) == 1 and hidden[0].isHidden()
    row.buttons[0].click()  # Down, for b: the row decides what it shows now
    assert enc.combatants[b.id].has(StateKind.DOWN)
    assert not enc.combatants[a.id].has(StateKind.DOWN)
    assert bar.rows == [] and len(bar.findChildren(DecisionRow)) == 2


def test_the_bar_keeps_its_height_and_the_map_does_not_move(window, qtbot):
    """Rows coming and going leave the bar as tall as the most rows it held, whether
    something waits or not, so that the turns that bring and take a decision (an actor's
    ongoing state, E3) do not move the map under it: a bar that followed its rows, or
    went, had the map laid out, scaled and painted again whole at each such turn."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    class Resizes(QObject):
        count = 0

        def eventFilter(self, watched, event) -> bool:
            if event.type() == QEvent.Type.Resize:
                self.count += 1
            return False

    doc = window.doc
    bar = window.decisions
    _two_at_grit(doc)
    QApplication.processEvents()
    two, view = bar.height(), window.map.viewport().size()
    doc.undo()  # one decision left
    QApplication.processEvents()
    assert len(bar.rows) == 1
    assert bar.height() == two and window.map.viewport().size() == view
    resizes = Resizes()
    window.map.installEventFilter(resizes)
    for _ in range(5):  # one decision, none, two, turn after turn
        doc.undo()  # nothing waits: the bar stays, as tall, and says so
        for _ in range(3):  # the bar, its tool bar, the window: laid out in turn
            QApplication.processEvents()
        assert bar.parentWidget().isVisible() and bar.idle.isVisible() and bar.rows == []
        assert bar.height() == two
        doc.redo()
        for _ in range(3):
            QApplication.processEvents()
        assert len(bar.rows) == 1 and bar.idle.isHidden() and bar.height() == two
        doc.redo()
        for _ in range(3):
            QApplication.processEvents()
        assert len(bar.rows) == 2 and bar.height() == two
        doc.undo()
    window.map.removeEventFilter(resizes)
    assert resizes.count == 0


def test_a_refusal_adds_its_height_only_while_it_shows(window, monkeypatch):
    """A decision refused says why under the rows, the bar taller meanwhile; once nothing
    waits, the bar is as tall as its most rows again, not as with the refusal for the rest
    of the encounter."""
    from PySide6.QtWidgets import QApplication

    def settle():
        for _ in range(3):
            QApplication.processEvents()

    doc, bar = window.doc, window.decisions
    _two_at_grit(doc)
    settle()
    two = bar.height()

    def refused(op, text=None, beside=None):
        beside.setText("Refused: " + "a long reason why this cannot be done now " * 3)
        return False

    monkeypatch.setattr(bar.ctx, "push", refused)
    bar.rows[0].buttons[0].click()
    settle()
    assert bar.refusal.isVisible() and bar.height() > two
    monkeypatch.undo()
    doc.undo()
    doc.undo()  # nothing waits
    settle()
    assert bar.idle.isVisible() and bar.refusal.isHidden()
    assert bar.height() == two
