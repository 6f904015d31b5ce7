"""The Character dock's States group changes its rows and buttons in one layout pass: a row
or button shown or hidden in the visible group laid the dock's page out again each time
(0.6 ms a time: a switch between a character with six states and two kinds of Momentum
marker and one with none took 50 ms of a GM action), and it keeps the focus where it is
(E3, R12)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.roster import AddMomentum, AddState
from tests.gui.conftest import character_panel, wait_exposed

PILED = (
    StateKind.BURNING,
    StateKind.SHAKEN,
    StateKind.WOUNDED,
    StateKind.BLINDED,
    StateKind.BLEEDING,
    StateKind.PREPARED,
)


class _Counts(QObject):
    """How many events of ``kind`` the widgets it filters get."""

    def __init__(self, kind: QEvent.Type) -> None:
        super().__init__()
        self.kind = kind
        self.count = 0

    def eventFilter(self, watched, event) -> bool:
        if event.type() == self.kind:
            self.count += 1
        return False


def _piled(doc, cid: str) -> None:
    for kind in PILED:
        assert doc.push(AddState(cid, kind, 1 if kind is StateKind.BLEEDING else 0)) == ""
    for dice in (2, -2, 2):
        assert doc.push(AddMomentum(cid, dice, "a shout")) == ""


def shown_panel(doc, qtbot):
    """A Character dock 360x900 on ``doc``, shown."""
    panel = character_panel(doc, qtbot)
    panel.resize(360, 900)
    panel.show()
    wait_exposed(qtbot, panel)
    return panel


def test_a_character_with_many_states_is_laid_out_once(playing_doc, qtbot):
    doc = playing_doc
    panel = shown_panel(doc, qtbot)
    _piled(doc, "gao")
    doc.select("lan")
    QApplication.processEvents()
    box = panel.states_box
    assert box.isVisible() and panel.states.none.isVisible()
    resizes = _Counts(QEvent.Type.Resize)
    box.installEventFilter(resizes)
    doc.select("gao")
    shown = [r.text.text() for r in panel.states._rows if not r.isHidden()]
    assert len(shown) == len(PILED) + 2  # a row per state and per kind of marker
    assert box.isVisible() and panel.states.none.isHidden()
    doc.select("lan")
    assert all(r.isHidden() for r in panel.states._rows)
    assert box.isVisible() and panel.states.none.isVisible()
    box.removeEventFilter(resizes)
    # one layout pass each way (eight rows and their buttons shown, then hidden)
    assert resizes.count <= 2


def _focus_on_add_state(doc, qtbot):
    """Gao's Character dock in an active window, the focus on its Add state button."""
    panel = character_panel(doc, qtbot)
    panel.show()
    wait_exposed(qtbot, panel)
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow)
    doc.select("gao")
    add = panel.states._always[0]
    add.setFocus()
    assert QApplication.focusWidget() is add
    return panel, add


def test_the_focus_stays_on_the_states_group(playing_doc, qtbot):
    doc = playing_doc
    panel, add = _focus_on_add_state(doc, qtbot)
    # rows come, the buttons stay as they are
    assert doc.push(AddState("gao", StateKind.PREPARED)) == ""
    for dice in (2, -2):
        assert doc.push(AddMomentum("gao", dice, "a shout")) == ""
    assert len([r for r in panel.states._rows if not r.isHidden()]) == 3
    assert QApplication.focusWidget() is add


def test_the_focus_stays_on_add_state_when_a_button_comes(playing_doc, qtbot):
    doc = playing_doc
    panel, add = _focus_on_add_state(doc, qtbot)
    bleed = panel.states.bleed
    assert bleed.isHidden()
    # Bleeding starts (E3): its "Bleed now" button joins the buttons, which are placed anew
    assert doc.push(AddState("gao", StateKind.BLEEDING, 1)) == ""
    assert not bleed.isHidden()
    assert QApplication.focusWidget() is add
    assert not add.isHidden()


def test_a_row_that_only_changes_its_text_does_not_hide_the_group(playing_doc, qtbot):
    doc = playing_doc
    panel = shown_panel(doc, qtbot)
    assert doc.push(AddState("gao", StateKind.SHAKEN)) == ""
    assert doc.push(AddState("lan", StateKind.WOUNDED)) == ""
    doc.select("lan")
    QApplication.processEvents()
    box = panel.states_box
    hides = _Counts(QEvent.Type.Hide)
    box.installEventFilter(hides)
    doc.select("gao")  # one row each: its text changes, nothing comes or goes
    (shown,) = [r.text.text() for r in panel.states._rows if not r.isHidden()]
    assert shown.startswith("Shaken")
    box.removeEventFilter(hides)
    assert hides.count == 0  # hiding and showing the group would lay the page out twice
