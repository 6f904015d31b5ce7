"""Colours and fonts shared by the map, the docks and the player view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Side

SIDE_COLOURS = {
    "band": QColor("#2b6cd4"),
    "opponent": QColor("#c8322d"),
    "denizen": QColor("#c9a227"),
    "follower": QColor("#2e9e5b"),
}
"""Each side's colour, by its value: a ``Side`` (a ``StrEnum``) finds its own. Keyed by
the words so that the window's first frame, which imports this module, imports no model."""
ACTOR = QColor("#ffd21f")
SELECTED = QColor("#ffffff")
OVERLAP = QColor("#e0301e")
REACH = QColor(80, 200, 255, 90)
PATH = QColor("#ffe066")
FALLEN = {"down": QColor("#8e0000"), "out": QColor("#151515")}
"""The plate behind the white DOWN and OUT words across a fallen token (E17): above 7:1,
read from across the table on the players' screen."""


def side_colour(side: Side) -> QColor:
    return QColor(SIDE_COLOURS.get(side, QColor("#888888")))


# ------------------------------------------------------------- colours that carry meaning

MEANINGS = {
    "error": ("#b00020", "#ff8a80"),
    "hint": ("#505050", "#b8b8b8"),
    "good": ("#1b5e20", "#81c784"),
    "note": ("#4e342e", "#d7ccc8"),
    "turn": ("#7a5500", "#ffd54f"),
    "caution": ("#7a4b00", "#ffcc80"),
    "done": ("#6b6b6b", "#a0a0a0"),
}
"""Text colours that say something (a refusal, a hint, a success, the GM's notes, whose
turn, a warning that is not a refusal, what is over for now), each as (for a light
background, for a dark one): :func:`meaning_colour` picks the one that reads on the
widget's own palette, at least 4.5:1 either way (WCAG AA)."""

FILLS = {
    "on": (("#2e7d32", "#ffffff"), ("#66bb6a", "#000000")),
    "prompt": (("#fff4cc", "#000000"), ("#4a3c00", "#fff4cc")),
    "actor": (("#ffe680", "#000000"), ("#6b5500", "#ffffff")),
    "panel": (("#f3f6fb", "#000000"), ("#2b3340", "#f0f0f0")),
}
"""Backgrounds that say something, with the text drawn on them (a toggle that is on, a
prompt for the GM, whose turn it is in a list, a panel of figures), each as
((background, text) in a light theme, the same in a dark one): :func:`meaning_fill` picks
by the palette's window; the text reads on its background at 4.5:1 or more."""

EXPORT_PAGE = {"hint": MEANINGS["hint"][0], "dice": "#f2efe6"}
"""Colours of an exported HTML page (white paper, whatever the app's theme): the hint
colour for a light background, and the dice's tint."""

MIN_CONTRAST = 4.5


def _luminance(c: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def meaning_colour(kind: str, palette: QPalette | None = None) -> QColor:
    """The colour of ``kind`` (one of :data:`MEANINGS`) that reads best on ``palette``'s
    window background (the application's palette without one)."""
    if kind not in MEANINGS:
        raise ValueError(f"no text colour means {kind!r}: one of {', '.join(MEANINGS)}")
    if palette is None:
        palette = QGuiApplication.palette()
    back = palette.color(QPalette.ColorRole.Window)
    light, dark = (QColor(c) for c in MEANINGS[kind])
    return max((light, dark), key=lambda c: contrast(c, back))


def meaning_style(kind: str, widget: QWidget | None = None, extra: str = "") -> str:
    """A style sheet for text that means ``kind``, on ``widget``'s palette: "color: #...;"
    and ``extra`` ("font-weight: bold;")."""
    palette = widget.palette() if widget is not None else None
    return f"color: {meaning_colour(kind, palette).name()};" + (f" {extra}" if extra else "")


def is_dark(palette: QPalette | None = None) -> bool:
    """Whether ``palette``'s window (the application's without one) is dark."""
    if palette is None:
        palette = QGuiApplication.palette()
    return _luminance(palette.color(QPalette.ColorRole.Window)) < 0.25


def meaning_fill(kind: str, palette: QPalette | None = None) -> tuple[QColor, QColor]:
    """(background, text) of ``kind`` (one of :data:`FILLS`) for ``palette``'s theme."""
    if kind not in FILLS:
        raise ValueError(f"no background means {kind!r}: one of {', '.join(FILLS)}")
    back, fore = FILLS[kind][1 if is_dark(palette) else 0]
    return QColor(back), QColor(fore)


def fill_style(kind: str, widget: QWidget | None = None, extra: str = "") -> str:
    """A style sheet with the background and text colours of ``kind`` on ``widget``'s
    palette, and ``extra``."""
    back, fore = meaning_fill(kind, widget.palette() if widget is not None else None)
    sheet = f"background: {back.name()}; color: {fore.name()};"
    return sheet + (f" {extra}" if extra else "")
