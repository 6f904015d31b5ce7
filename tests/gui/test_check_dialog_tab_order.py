"""The check dialog's Tab order follows what the eye reads: the header, the panels top to
bottom ("No defense" and the defenses among them), then Apply and Cancel last (the panels
rebuilt after the dialog was made came after Cancel)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QRadioButton, QWidget

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.gui.dialogs.contest import ContestDialog
from tests.gui.test_contest_dialog import duel  # noqa: F401 - the fixture


def _tab_through(dlg, start: QWidget, steps: int = 60) -> list[QWidget]:
    start.setFocus()
    seen = [start]
    for _ in range(steps):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        w = QApplication.focusWidget()
        if w is None or w is seen[0]:
            break
        seen.append(w)
    return seen


def test_no_defense_comes_before_apply_and_cancel(duel, qtbot):  # noqa: F811
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.activateWindow()
    qtbot.waitUntil(dlg.isActiveWindow)
    order = _tab_through(dlg, dlg.action_box)
    cancel = dlg.buttons.button(QDialogButtonBox.StandardButton.Cancel)
    none = next(b for b in dlg.findChildren(QRadioButton) if b.text() == "&No defense")
    assert none in order and cancel in order, [type(w).__name__ for w in order]
    assert order.index(none) < order.index(cancel)
    assert order.index(dlg.target_box) < order.index(none)
    # The action buttons come last, after every panel.
    assert order[-2:] == [dlg.apply_button, cancel] or order[-1] is cancel
