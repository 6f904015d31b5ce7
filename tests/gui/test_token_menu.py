"""The token's right-click menu is one column that fits beside the token on a 720 px high
screen: the attacks in front, every other group of commands in a submenu."""

from __future__ import annotations

from PySide6.QtCore import QPoint

from afdesk.gui import actions
from afdesk.storage import samples as sample
from tests.gui.test_map_view import entry_actions, open_view

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
