"""The Character dock with nobody selected: it says how to show a character and nothing
else; its groups (turn economy, counters, states, buttons) are made when a character is
first shown, in the room the page kept for them across, so the dock and the map beside
it do not move; a selection given up hides them again, their room kept."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QScrollArea

from afdesk.gui.docks.combatant import NOBODY
from tests.gui.conftest import character_panel, wait_exposed


def _settle() -> None:
    QApplication.sendPostedEvents()
    QApplication.processEvents()


def test_nobody_selected_says_how_to_show_a_character_and_the_page_keeps_its_width(
    playing_doc, qtbot
):
    panel = character_panel(playing_doc, qtbot)
    panel.resize(360, 600)
    panel.show()
    wait_exposed(qtbot, panel)
    page = panel.findChild(QScrollArea).widget()
    assert panel.__dict__.get("details") is None  # nothing but the two lines yet
    assert panel.title.text() == "Select a character to see it here."
    assert panel.subtitle.text() == NOBODY
    wide, min_wide, dock_wide = page.width(), page.minimumSizeHint().width(), panel.sizeHint()

    playing_doc.select("chen")
    _settle()
    assert panel.details is not None and panel.details.isVisible()
    assert "Tenacious Chen" in panel.title.text() and panel.subtitle.text() != NOBODY
    assert panel.guard.isEnabled()
    # the groups came in the room kept for them: as wide as before
    assert page.width() == wide and page.minimumSizeHint().width() == min_wide
    assert panel.sizeHint().width() == dock_wide.width()

    playing_doc.select("")
    _settle()
    assert not panel.details.isVisible() and not panel.guard.isEnabled()
    assert panel.subtitle.text() == NOBODY and page.width() == wide

    playing_doc.select("lan")
    _settle()
    assert panel.details.isVisible() and "Silent Lan" in panel.title.text()


def test_a_part_of_the_groups_asked_for_first_makes_them(playing_doc, qtbot):
    panel = character_panel(playing_doc, qtbot)
    assert panel.__dict__.get("details") is None
    assert not panel.guard.isEnabled()  # made on the spot, for nobody: off
    assert panel.details is not None and panel.states_box is not None
    with pytest.raises(AttributeError):
        panel.no_such_part  # noqa: B018 - any other name is still an error


@pytest.mark.parametrize("points", [9, 14, 18])
def test_the_room_kept_is_as_wide_as_the_groups_at_any_font(playing_doc, qtbot, points):
    panel = character_panel(playing_doc, qtbot)
    font = QFont(panel.font())
    font.setPointSize(points)
    panel.setFont(font)
    panel.show()
    wait_exposed(qtbot, panel)
    page = panel.findChild(QScrollArea).widget()
    _settle()
    room = page.minimumSizeHint().width()
    panel.guard  # noqa: B018 - the groups made, for nobody: hidden, their room kept
    _settle()
    assert not panel.details.isVisible()
    assert page.minimumSizeHint().width() == room


def test_the_groups_follow_the_page_in_the_tab_order(playing_doc, qtbot):
    panel = character_panel(playing_doc, qtbot)
    panel.show()
    wait_exposed(qtbot, panel)
    playing_doc.select("chen")
    _settle()
    after = panel.findChild(QScrollArea).nextInFocusChain()
    chain = []
    while len(chain) < 6:
        if after.focusPolicy() & Qt.FocusPolicy.TabFocus:
            chain.append(after)
        after = after.nextInFocusChain()
    assert chain == [
        panel.guard,
        panel.snap,
        panel.action,
        panel.defend,
        panel.screen_toggle,
        panel.hesitate,
    ]


def _tab_chain(panel) -> list:
    """The panel's widgets Tab reaches from its scroll area on, once round its window."""
    start = panel.findChild(QScrollArea)
    widget, chain = start.nextInFocusChain(), []
    while widget is not start:
        if (
            widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and widget.isVisibleTo(panel)
            and panel.isAncestorOf(widget)
        ):
            chain.append(widget)
        widget = widget.nextInFocusChain()
    return chain


def _label(widget) -> str:
    text = widget.text() if hasattr(widget, "text") else type(widget).__name__
    return text.replace("&", "")


def test_the_states_rows_and_buttons_keep_their_place_in_the_tab_order(playing_doc, qtbot):
    """Rows and buttons the States group puts in after the window was made (a state's row,
    Add state, Momentum marker) are reached in the order they are laid out, before Plain
    check and Edit, not after everything else in the window."""
    from afdesk.encounter.combatant import StateKind
    from afdesk.encounter.ops.roster import AddState

    panel = character_panel(playing_doc, qtbot)
    panel.show()
    wait_exposed(qtbot, panel)
    playing_doc.select("chen")
    _settle()
    assert not playing_doc.push(AddState("chen", StateKind.BLEEDING, markers=2))
    _settle()
    chain = _tab_chain(panel)
    texts = [_label(w) for w in chain]
    states = panel.states
    row = next(r for r in states._rows if r.isVisible())
    assert texts.index("Hesitate") < texts.index("Add state…") < texts.index("Plain check…")
    assert texts.index("Add state…") + 1 == texts.index("Momentum marker…")
    at = chain.index(row.minus)
    assert texts.index("Hesitate") < at < texts.index("Add state…"), "the row, then the buttons"
    assert texts[-2:] == ["Plain check…", "Edit…"], "the page's foot last"
