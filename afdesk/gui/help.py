"""Help > Keyboard (F1) and Help > Manual: a card of every key, and the short illustrated
guide shipped with the app (``resources/manual``), both in a text browser within the app
(no network: the browser loads only files beside the guide).

The card is built from the window's own actions (each menu action's shortcut as the window
has it) and the modes' boards' tabs (their own mnemonics), so it cannot go stale; the keys
that widgets read themselves are :mod:`afdesk.gui.help_text`'s.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMenu,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from afdesk.gui import help_text, modes, screens
from afdesk.paths import manual_dir

Row = tuple[str, str, str]
"""(section, keys, what they do)."""


def _plain(text: str) -> str:
    """A menu text as read: no mnemonic marker, no trailing ellipsis."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def _keys(action: QAction) -> str:
    fmt = QKeySequence.SequenceFormat.NativeText
    return " or ".join(k.toString(fmt) for k in action.shortcuts() if not k.isEmpty())


def mnemonic(text: str) -> str:
    """The Alt+letter of a text with a mnemonic ("Sta&ge" -> "Alt+G"), or ""."""
    i = text.replace("&&", "\0\0").find("&")
    return f"Alt+{text[i + 1].upper()}" if 0 <= i < len(text) - 1 else ""


def _menu_rows(menu: QMenu, section: str, seen: set[int], rows: list[Row]) -> None:
    for act in menu.actions():
        sub = act.menu()
        if isinstance(sub, QMenu):
            _menu_rows(sub, f"{section} > {_plain(sub.title())}", seen, rows)
        elif _keys(act) and id(act) not in seen:
            seen.add(id(act))
            rows.append((section, _keys(act), _plain(act.text())))


def keyboard_rows(window: QWidget) -> list[Row]:
    """Every key of ``window``: its menus' actions in menu order, the window's other
    actions with a shortcut, the map's, the fog tool's and the zone editor's keys, the
    modes' boards' tabs and the players' window's keys."""
    rows: list[Row] = []
    seen: set[int] = set()
    bar = window.menuBar() if hasattr(window, "menuBar") else None
    if bar is not None:
        for act in bar.actions():
            menu = act.menu()
            if isinstance(menu, QMenu):
                _menu_rows(menu, _plain(menu.title()), seen, rows)
    for act in window.findChildren(QAction):
        if _keys(act) and id(act) not in seen:
            seen.add(id(act))
            rows.append(("Window", _keys(act), _plain(act.text())))
    rows += [("On the map", k, w) for k, w in help_text.MAP_KEYS]
    rows += [("Fog tool", k, w) for k, w in help_text.FOG_KEYS]
    rows += [("Zone editor", k, w) for k, w in help_text.EDITOR_KEYS]
    views = getattr(window, "mode_views", None)
    for shows in modes.registered() if views is not None else ():
        if shows.make_board is None:
            continue
        title = shows.board[:1].upper() + shows.board[1:]
        tabs = views.board(shows.mode).findChild(QTabWidget)
        if tabs is not None:
            for i in range(tabs.count()):
                key = mnemonic(tabs.tabText(i))
                if key:
                    rows.append((title, key, f"the {_plain(tabs.tabText(i))} tab"))
            rows.append((title, "Alt+letter", help_text.BOARD_HINT))
    rows += [("Players' window", k, w) for k, w in help_text.PLAYER_KEYS]
    return rows


def keyboard_html(rows: list[Row]) -> str:
    """The card: one table per section, the keys in bold."""
    out = ["<html><body style='font-size: 11pt;'>"]
    section = None
    for where, keys, what in rows:
        if where != section:
            if section is not None:
                out.append("</table>")
            section = where
            out.append(f"<h3>{html.escape(where)}</h3><table cellspacing='0' cellpadding='3'>")
        out.append(
            f"<tr><td width='38%'><b>{html.escape(keys)}</b></td><td>{html.escape(what)}</td></tr>"
        )
    if section is not None:
        out.append("</table>")
    out.append("</body></html>")
    return "".join(out)


class HelpBrowser(QDialog):
    """A text browser in a dialog that fits the screen, with a Close button."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(False)
        self.browser.setOpenLinks(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def fit(self, width: int, height: int) -> None:
        """At most ``width`` x ``height``, inside the screen's available part."""
        area = screens.available(self.parentWidget() or self)
        w = min(width, area.width() - 2 * screens.FRAME)
        h = min(height, area.height() - screens.TITLE_BAR - screens.FRAME)
        self.resize(w, h)


def keyboard_card(window: QWidget) -> HelpBrowser:
    """Help > Keyboard: every key of ``window`` (see :func:`keyboard_rows`)."""
    dialog = HelpBrowser("Keyboard", window)
    dialog.setObjectName("keyboardCard")
    dialog.browser.setHtml(keyboard_html(keyboard_rows(window)))
    dialog.fit(720, 900)
    return dialog


def manual_page() -> QUrl:
    """The guide's first page, shipped with the app."""
    return QUrl.fromLocalFile(str(manual_dir() / "index.html"))


def manual(window: QWidget) -> HelpBrowser:
    """Help > Manual: the illustrated guide, read from the app's own files."""
    dialog = HelpBrowser("afdesk manual", window)
    dialog.setObjectName("manual")
    dialog.browser.setSearchPaths([str(manual_dir())])
    dialog.browser.setSource(manual_page())
    dialog.fit(1000, 900)
    return dialog


__all__ = ["keyboard_card", "keyboard_html", "keyboard_rows", "manual", "manual_page", "mnemonic"]
