"""The token's right-click menu is one column that fits beside the token on a 720 px high
screen: the attacks in front, every other group of commands in a submenu."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from afdesk.gui import actions
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.view import MapView
from afdesk.gui.token_menu import install
from afdesk.storage import samples as sample
from tests.gui.test_map_view import entry_actions, open_view, token_at

HEIGHT = 720


def test_the_token_menu_is_one_short_column_with_submenus(qtbot):
    view, doc = open_view(qtbot, sample.build())
    for cid in doc.encounter.combatants:
        menu = view.context_menu(cid)
        hint = menu.sizeHint()
        assert hint.height() <= HEIGHT // 2 and hint.width() <= 400, (cid, hint)
        subs = [a.menu() for a in menu.actions() if a.menu() is not None]
        titles = {m.title().replace("&", "") for m in subs}
        assert {"Checks", "Snaps"} <= titles or not actions.entries(doc, cid)
        for sub in subs:
            assert sub.sizeHint().height() <= HEIGHT, sub.title()
        menu.popup(QPoint(0, 0))
        shown = [a for a in menu.actions() if a.isVisible()]
        assert len({menu.actionGeometry(a).x() for a in shown}) == 1  # one column
        menu.close()
        # Every entry is still there, in the same order, in the menu or a submenu.
        expected = [e.key for e in actions.entries(doc, cid)]
        assert [a.data() for a in entry_actions(menu)] == expected


def test_the_map_opens_the_menu_it_is_given_and_none_without(qtbot):
    """The map knows no command: a view that was given no character menu opens none on a
    right-click; :func:`afdesk.gui.token_menu.install` gives it the token menu."""
    doc = EncounterDocument(sample.build(), journal_factory=lambda d: None)
    view = MapView(doc)
    qtbot.addWidget(view)
    view.resize(1100, 760)
    with qtbot.waitExposed(view):
        view.show()
    cid = next(iter(doc.encounter.combatants))
    pos = token_at(view, cid)
    right_click = QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos)
    )
    assert view.context_menu(cid) is None
    QApplication.sendEvent(view.viewport(), right_click)
    assert view._menu is None
    install(view)
    QApplication.sendEvent(view.viewport(), right_click)
    assert view._menu is not None and view._menu.isVisible()
    assert [a.data() for a in entry_actions(view._menu)] == [
        e.key for e in actions.entries(doc, cid)
    ]
    view._menu.close()
