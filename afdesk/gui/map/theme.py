"""How the map looks: the GM's theme and the high-contrast player (projector) theme,
terrain property glyphs and state badges."""

from __future__ import annotations

from functools import lru_cache

import msgspec
from PySide6.QtGui import QColor, QFont

from afdesk.encounter import features
from afdesk.encounter.combatant import Combatant
from afdesk.encounter.zone import AreaTerrain, SegmentProps

FONT_FAMILY = "DejaVu Sans"


def font(size: float, *, bold: bool = False) -> QFont:
    """A map font of ``size`` scene units (pixel size scales with the view)."""
    return QFont(_font(max(1, round(size)), bold))


@lru_cache(maxsize=64)
def _font(size: int, bold: bool) -> QFont:
    f = QFont(FONT_FAMILY)
    f.setStyleHint(QFont.StyleHint.SansSerif)
    f.setPixelSize(size)
    f.setBold(bold)
    return f


class MapTheme(msgspec.Struct, frozen=True):
    """Line widths, colours and sizes, in scene units (an area is 64)."""

    name: str
    background: QColor
    grid: QColor
    grid_width: float
    tile_border: QColor
    tile_width: float
    pattern_alpha: int
    segment_width: float
    token_outline: QColor
    token_outline_width: float
    text_scale: float
    badge_scale: float
    show_selection: bool
    show_gm_notes: bool
    legend_text: QColor
    legend_back: QColor


GM = MapTheme(
    name="gm",
    background=QColor("#1d2126"),
    grid=QColor(0, 0, 0, 70),
    grid_width=1.0,
    tile_border=QColor(20, 20, 20, 220),
    tile_width=3.5,
    pattern_alpha=70,
    segment_width=2.5,
    token_outline=QColor("#101010"),
    token_outline_width=2.5,
    text_scale=1.0,
    badge_scale=1.0,
    show_selection=True,
    show_gm_notes=True,
    legend_text=QColor("#f2f2f2"),
    legend_back=QColor(20, 24, 28, 235),
)

PLAYER = MapTheme(
    name="player",
    background=QColor("#000000"),
    grid=QColor(0, 0, 0, 110),
    grid_width=1.5,
    tile_border=QColor(0, 0, 0, 255),
    tile_width=5.0,
    pattern_alpha=95,
    segment_width=3.5,
    token_outline=QColor("#ffffff"),
    token_outline_width=3.5,
    text_scale=1.15,
    badge_scale=1.35,
    show_selection=False,
    show_gm_notes=False,
    legend_text=QColor("#ffffff"),
    legend_back=QColor(0, 0, 0, 245),
)


# ---------------------------------------------------------------- terrain properties


class Glyph(msgspec.Struct, frozen=True):
    """A terrain property as drawn on the map: a short mark in a coloured circle."""

    key: str
    mark: str
    colour: QColor
    words: str


GLYPHS = {
    "water": Glyph("water", "W", QColor("#1560c0"), "Water: swim speed"),
    "rough": Glyph("rough", "R", QColor("#8a4f1c"), "Rough: entering costs 2"),
    "slippery": Glyph("slippery", "S", QColor("#0f8fa6"), "Slippery: balance check"),
    "cover": Glyph("cover", "C", QColor("#2d4a22"), "Cover: -2 to attacks across"),
    "ledge": Glyph("ledge", "L", QColor("#8c1c1c"), "Ledge: fall on Interference"),
    "steep": Glyph("steep", "St", QColor("#b0600f"), "Steep: climb speed"),
    "altitude": Glyph("altitude", "▲", QColor("#5b4a8a"), "Altitude (height)"),
    "custom": Glyph("custom", "✱", QColor("#6b6b6b"), "GM property (hover)"),
}


def glyphs_of(props: SegmentProps | AreaTerrain) -> list[tuple[Glyph, str]]:
    """The glyphs of a segment's properties, each with its mark (altitude shows its
    height: ▲3)."""
    out = []
    for key in ("water", "rough", "slippery", "cover", "ledge", "steep"):
        if getattr(props, key):
            g = GLYPHS[key]
            out.append((g, g.mark))
    if props.altitude:
        out.append((GLYPHS["altitude"], f"▲{props.altitude}"))
    if props.custom:
        out.append((GLYPHS["custom"], GLYPHS["custom"].mark))
    return out


def segment_colour(props: SegmentProps) -> QColor:
    """The outline colour of a segment: its most dangerous property first."""
    for key in ("ledge", "water", "steep", "slippery", "rough", "cover"):
        if getattr(props, key):
            return QColor(GLYPHS[key].colour)
    if props.altitude:
        return QColor(GLYPHS["altitude"].colour)
    return QColor(GLYPHS["custom"].colour)


# ----------------------------------------------------------------------------- badges


class Badge(msgspec.Struct, frozen=True):
    """A small label on a token: a state or a Momentum marker."""

    text: str
    back: QColor
    fore: QColor | None = None
    """Text colour; white if None."""


def badges(c: Combatant) -> list[Badge]:
    """The badges of a character: every state it is in, with its markers, as its row says
    (afdesk.encounter.features: Fend, Quip, prepared, crouched, down, ...), then one badge
    per kind of Momentum marker with its count (R12)."""
    out = []
    for row in features.standings(c):  # in reserve: the GM sees where it waits, never the players
        out.append(Badge(row.badge, _colour(row.colour)))
    for st in features.shown_states(c):
        out.append(Badge(features.badge_text(st), _colour(features.state_row(st.kind).colour)))
    for dice, count in momentum_counts(c):
        text = f"{dice:+d}" if count == 1 else f"{dice:+d}×{count}"
        if dice >= 0:
            out.append(Badge(text, _colour("#f2c200"), _colour("#111111")))
        else:
            out.append(Badge(text, _colour("#4a148c")))
    return out


def momentum_counts(c: Combatant) -> list[tuple[int, int]]:
    """(dice, how many) for each kind of Momentum marker ``c`` holds, in the order each
    kind first came (R12): a character holding hundreds shows a handful of counts."""
    counts: dict[int, int] = {}
    for m in c.momentum:
        counts[m.dice] = counts.get(m.dice, 0) + 1
    return list(counts.items())


@lru_cache(maxsize=64)
def _colour(name: str) -> QColor:
    return QColor(name)
