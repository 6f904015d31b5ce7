"""The application's style, keeping the dock title bars' icons it makes.

Qt's common style asks for the close and float buttons' icons every time it lays out a
dock's title bar (to measure them), and makes each anew from the image files, reading and
decoding them every time: about 6 ms of a start that lays out ten docks several times,
and more at every turn that moves the docks (the decisions bar showing or going). This
proxy keeps each such icon, per palette, and passes everything else to the style it
wraps, unchanged."""

from __future__ import annotations

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

_KEPT = frozenset(
    {
        QStyle.StandardPixmap.SP_TitleBarCloseButton,
        QStyle.StandardPixmap.SP_TitleBarNormalButton,
        QStyle.StandardPixmap.SP_DockWidgetCloseButton,
    }
)
"""The icons a dock's title bar measures at each layout."""


class KeptIcons(QProxyStyle):
    """The style the application had, its dock title bar icons made once per palette."""

    def __init__(self, style: QStyle | None = None) -> None:
        super().__init__(style)
        self._icons: dict[tuple[QStyle.StandardPixmap, int], QIcon] = {}

    def standardIcon(
        self,
        standardIcon: QStyle.StandardPixmap,
        option: QStyleOption | None = None,
        widget: QWidget | None = None,
    ) -> QIcon:
        if standardIcon not in _KEPT:
            return super().standardIcon(standardIcon, option, widget)
        key = (standardIcon, option.palette.cacheKey() if option is not None else 0)
        icon = self._icons.get(key)
        if icon is None:
            if len(self._icons) > 64:  # palettes come and go (a theme switched): forget
                self._icons.clear()
            icon = self._icons[key] = super().standardIcon(standardIcon, option, widget)
        return icon


def install(app: QApplication) -> KeptIcons:
    """Run ``app`` with its own style wrapped in :class:`KeptIcons` (before any widget is
    made: a new style polishes every widget again)."""
    style = app.style()
    if isinstance(style, KeptIcons):
        return style
    kept = KeptIcons(style.name())
    app.setStyle(kept)
    return kept


__all__ = ["KeptIcons", "install"]
