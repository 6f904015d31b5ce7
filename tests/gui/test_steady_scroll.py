"""The Character dock's page keeps its height from one character to the next
(afdesk.gui.steady_scroll): a page resized at every turn was painted again whole, which
made a turn cost three times as much once a character's states overflowed the dock. It
takes its content's height again when the dock's size changes or another document shows,
and a taller character always fits."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.roster import AddMomentum, AddState
from afdesk.gui.docks.combatant import CombatantPanel
from afdesk.gui.document import EncounterDocument
from afdesk.storage import samples
from tests.gui.conftest import character_panel, wait_exposed


@pytest.fixture
def panel(playing_doc, qtbot):
    p = character_panel(playing_doc, qtbot)
    p.resize(300, 420)  # a short dock: a character with many states overflows it
    p.show()
    wait_exposed(qtbot, p)
    return p


def _page(panel: CombatantPanel) -> QWidget:
    return panel.findChild(QScrollArea).widget()


def _settle() -> None:
    QApplication.sendPostedEvents()
    QApplication.processEvents()


def _many_states(doc, cid: str) -> None:
    for kind in (StateKind.PREPARED, StateKind.CROUCHED, StateKind.SHAKEN, StateKind.WOUNDED):
        assert doc.push(AddState(cid, kind)) == ""
    assert doc.push(AddState(cid, StateKind.BLEEDING, markers=3)) == ""
    for dice in (2, -2, 2):
        assert doc.push(AddMomentum(cid, dice)) == ""


def test_the_page_keeps_its_height_from_a_busy_character_to_a_plain_one(panel, playing_doc):
    busy, plain = "chen", "lan"
    _many_states(playing_doc, busy)
    playing_doc.select(busy)
    _settle()
    page, viewport = _page(panel), panel.findChild(QScrollArea).viewport()
    tall = page.height()
    assert tall > viewport.height()  # the busy character overflows: a scroll bar
    assert page.height() >= page.heightForWidth(page.width())  # everything fits on it

    playing_doc.select(plain)
    _settle()
    assert playing_doc.encounter.combatants[plain].name in panel.title.text()
    assert page.heightForWidth(page.width()) < tall  # its own content is shorter...
    assert page.height() == tall  # ...and the page is not resized (nor painted whole)

    playing_doc.select(busy)
    _settle()
    assert page.height() == tall


def test_a_taller_character_still_fits_and_another_size_measures_again(panel, playing_doc):
    playing_doc.select("lan")
    _settle()
    page = _page(panel)
    short = page.height()
    _many_states(playing_doc, "chen")
    playing_doc.select("chen")
    _settle()
    assert page.height() > short
    assert page.height() >= page.heightForWidth(page.width())

    playing_doc.select("lan")
    _settle()
    kept = page.height()
    panel.resize(panel.width() + 60, panel.height())  # another dock size: measured anew
    _settle()
    assert page.height() < kept
    assert page.height() >= page.heightForWidth(page.width())

    playing_doc.select("chen")
    _settle()
    kept = page.height()
    playing_doc.select("lan")
    panel.resize(panel.width(), panel.height() - 40)  # a shorter dock (the decisions bar)
    _settle()
    assert page.height() == kept  # the same width: nothing wraps anew, nothing resized


def test_another_document_lets_the_page_take_its_own_height(panel, playing_doc):
    _many_states(playing_doc, "chen")
    playing_doc.select("chen")
    _settle()
    page = _page(panel)
    tall = page.height()
    other = EncounterDocument(samples.build(), journal_factory=lambda d: None)
    panel.set_document(other)
    other.select("lan")
    _settle()
    assert page.height() < tall


def test_with_no_character_the_dock_asks_for_one_wherever_the_gm_picks_it(panel, playing_doc):
    """A chase or a dispute shows its board where the map was: the empty dock does not send
    the GM to a map that is not on screen."""
    playing_doc.select("")
    _settle()
    assert panel.title.text() == "Select a character to see it here."
