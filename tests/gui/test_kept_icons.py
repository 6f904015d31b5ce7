"""The application's style keeps the dock title bars' icons (afdesk.gui.kept_icons): Qt's
common style made them anew from their image files at every layout of every dock's title
bar (43 us each, 120 at a start with ten docks), and draws them the same."""

from __future__ import annotations

import subprocess
import sys

from PySide6.QtCore import QSize
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleFactory, QStyleOption

from afdesk.gui.kept_icons import KeptIcons

CLOSE = QStyle.StandardPixmap.SP_TitleBarCloseButton
FLOAT = QStyle.StandardPixmap.SP_TitleBarNormalButton


def test_a_title_bar_icon_is_made_once_per_palette(qapp, monkeypatch):
    made: list[QStyle.StandardPixmap] = []
    plain = QProxyStyle.standardIcon

    def counting(self, which, option=None, widget=None):
        made.append(which)
        return plain(self, which, option, widget)

    monkeypatch.setattr(QProxyStyle, "standardIcon", counting)
    style = KeptIcons("fusion")
    first = style.standardIcon(CLOSE)
    for _ in range(5):
        assert style.standardIcon(CLOSE).cacheKey() == first.cacheKey()
        style.standardIcon(FLOAT)
    assert made == [CLOSE, FLOAT]
    other = QStyleOption()
    other.palette = QPalette(QPalette().color(QPalette.ColorRole.Window).darker())
    style.standardIcon(CLOSE, other)  # another palette (a theme switched): made for it
    assert made == [CLOSE, FLOAT, CLOSE]
    style.standardIcon(QStyle.StandardPixmap.SP_DialogOkButton)  # any other: the style's
    style.standardIcon(QStyle.StandardPixmap.SP_DialogOkButton)
    assert made.count(QStyle.StandardPixmap.SP_DialogOkButton) == 2


def test_the_kept_icons_draw_as_the_style_draws_them(qapp):
    base, kept = QStyleFactory.create("fusion"), KeptIcons("fusion")
    for which in (CLOSE, FLOAT):
        for _ in range(2):  # made, then kept
            mine = kept.standardIcon(which).pixmap(QSize(16, 16)).toImage()
            assert mine == base.standardIcon(which).pixmap(QSize(16, 16)).toImage()


def test_the_app_runs_with_the_kept_icons_once():
    code = (
        "from afdesk.gui.app import make_app\n"
        "from afdesk.gui.kept_icons import KeptIcons\n"
        "app = make_app([])\n"
        "style = app.style()\n"
        "assert isinstance(style, KeptIcons), type(style)\n"
        "assert make_app([]).style() is style\n"
        "assert not isinstance(style.baseStyle(), KeptIcons)\n"
        "print('ok', style.baseStyle().name())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "ok"
