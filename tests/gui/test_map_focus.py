"""After a click on a dock's button the keyboard is the map's again: digits and arrows act
on the map without clicking it first; Tab still walks the docks' buttons."""

from __future__ import annotations

import random

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QPushButton

from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples
from tests.gui.conftest import wait_exposed


def _window(qtbot):
    enc = samples.build()
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.set_document(doc)
    w.resize(1280, 720)
    w.show()
    wait_exposed(qtbot, w)
    QApplication.processEvents()
    return w, doc


def _dock_button(w) -> QPushButton:
    for dock in w.findChildren(QDockWidget):
        if not dock.isVisible():
            continue
        for b in dock.findChildren(QPushButton):
            if b.isVisible() and b.isEnabled() and b.focusPolicy() & Qt.FocusPolicy.ClickFocus:
                return b
    raise AssertionError("no enabled button shown in a dock")


def test_a_click_on_a_dock_button_gives_the_keyboard_back_to_the_map(qtbot):
    w, _doc = _window(qtbot)
    w.map.setFocus()
    assert w.map.hasFocus()
    button = _dock_button(w)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert w.map.hasFocus(), QApplication.focusWidget()
    # the keyboard walks the docks as before: focus given by Tab (no click) stays
    button.setFocus(Qt.FocusReason.TabFocusReason)
    assert button.hasFocus()
