"""Colours and fonts shared by the map, the docks and the player view."""

from __future__ import annotations

from PySide6.QtGui import QColor

from afdesk.encounter.combatant import Side

SIDE_COLOURS = {
    Side.BAND: QColor("#2b6cd4"),
    Side.OPPONENT: QColor("#c8322d"),
    Side.DENIZEN: QColor("#c9a227"),
    Side.FOLLOWER: QColor("#2e9e5b"),
}
ACTOR = QColor("#ffd21f")
SELECTED = QColor("#ffffff")
OVERLAP = QColor("#e0301e")
REACH = QColor(80, 200, 255, 90)
PATH = QColor("#ffe066")


def side_colour(side: Side) -> QColor:
    return QColor(SIDE_COLOURS.get(side, QColor("#888888")))
