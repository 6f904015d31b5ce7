"""The workspaces' declarations: for each of the GM's tasks (preparing a zone, playing a
battle, a chase, the campaign) which docks show, in which area, beside or behind which
(tabs), and how much of the window each column or row takes. Qt-free data, read by
:mod:`afdesk.gui.workspaces`, which switches them with the task and keeps the GM's own
arrangement of each (as Krita's workspaces or Qt Creator's modes do).

The shares are of the window's width (a left or right column) or height (the bottom row).
At 1280x720 (a small screen: one side column) the map gets at least half the width in
Play, and the right column runs the window's whole height so that the Character dock
shows its attack buttons without scrolling.
"""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    """One dock of a workspace."""

    dock: str
    """The dock's object name (``combatantDock``, ...)."""
    area: str
    """``left``, ``right`` or ``bottom``."""
    share: float = 0.0
    """The column's share of the window's width (left, right) or the row's of its height
    (bottom); 0 for a dock tabbed behind another (it has that one's size)."""
    behind: str = ""
    """The dock this one is a tab behind ('' for the first of its place)."""
    least: int = 0
    """The column's least width or the row's least height (px), whatever the share."""


class Workspace(NamedTuple):
    name: str
    title: str
    """The View > Workspace entry (with its mnemonic)."""
    places: tuple[Place, ...]
    front: tuple[str, ...]
    """The docks raised in front of their tabs."""
    small: tuple[Place, ...] = ()
    """The places on a small screen (below 1400x820, a 1280x720 laptop) if they differ:
    fewer columns, so that the map keeps at least half the width."""
    side_columns_full_height: bool = True
    """The left and right columns take the bottom corners, so the bottom row lies under
    the map only (the right column keeps the whole height for the Character dock)."""

    def places_for(self, small: bool) -> tuple[Place, ...]:
        return self.small if small and self.small else self.places

    def docks(self, small: bool = False) -> tuple[str, ...]:
        return tuple(p.dock for p in self.places_for(small))


PANELS, LOG = 340, 165
"""The Reflex and Character panels' own width (px): their column is never laid out
narrower, so that the first frame (drawn before the panels arrive) already has it; the
Log's row (with the tab bar below it) is never lower than its filters and three lines."""

PLAY, PREPARE, CHASE, CAMPAIGN = "play", "prepare", "chase", "campaign"

SELF_SHOWN = frozenset({"unplacedDock", "infiltrationDock"})
"""Docks that show themselves while they hold something (the Unplaced dock, while someone
waits off the map) in every workspace: a switch leaves them as they are."""

WORKSPACES: dict[str, Workspace] = {
    w.name: w
    for w in (
        Workspace(
            PLAY,
            "&Play",
            (
                Place("reflexDock", "left", 0.17, least=PANELS),
                Place("combatantDock", "right", 0.23, least=PANELS),
                Place("reservesDock", "right", behind="combatantDock"),
                Place("historyDock", "right", behind="combatantDock"),
                Place("logDock", "bottom", 0.2, least=LOG),
            ),
            front=("combatantDock", "logDock"),
            # One column: the Reflex a tab beside the Character dock, the undo history
            # beside the Log (three short tabs a column, never "Cha… Undo h… Re… R…").
            small=(
                Place("combatantDock", "right", 0.27, least=PANELS),
                Place("reflexDock", "right", behind="combatantDock"),
                Place("reservesDock", "right", behind="combatantDock"),
                Place("logDock", "bottom", 0.2, least=LOG),
                Place("historyDock", "bottom", behind="logDock"),
            ),
        ),
        Workspace(
            PREPARE,
            "P&repare",
            (
                Place("zoneEditorDock", "left", 0.2),
                Place("paletteDock", "right", 0.2),
                Place("combatantDock", "right", behind="paletteDock"),
                Place("historyDock", "right", behind="paletteDock"),
            ),
            front=("zoneEditorDock", "paletteDock"),
            small=(
                Place("zoneEditorDock", "left", 0.2),
                Place("historyDock", "left", behind="zoneEditorDock"),
                Place("paletteDock", "right", 0.22),
                Place("combatantDock", "right", behind="paletteDock"),
            ),
        ),
        Workspace(
            CHASE,
            "&Chase",
            (
                Place("reflexDock", "left", 0.17, least=PANELS),
                Place("combatantDock", "right", 0.23, least=PANELS),
                Place("historyDock", "right", behind="combatantDock"),
                Place("logDock", "bottom", 0.25, least=LOG),
            ),
            front=("combatantDock", "logDock"),
            small=(
                Place("combatantDock", "right", 0.27, least=PANELS),
                Place("reflexDock", "right", behind="combatantDock"),
                Place("logDock", "bottom", 0.22, least=LOG),
                Place("historyDock", "bottom", behind="logDock"),
            ),
        ),
        Workspace(
            CAMPAIGN,
            "Ca&mpaign",
            (
                Place("campaignDock", "left", 0.24),
                Place("reflexDock", "left", behind="campaignDock"),
                Place("combatantDock", "right", 0.22, least=PANELS),
                Place("reservesDock", "right", behind="combatantDock"),
                Place("historyDock", "right", behind="combatantDock"),
                Place("logDock", "bottom", 0.2, least=LOG),
            ),
            front=("campaignDock", "combatantDock", "logDock"),
            small=(
                Place("campaignDock", "left", 0.24),
                Place("combatantDock", "right", 0.27, least=PANELS),
                Place("reflexDock", "right", behind="combatantDock"),
                Place("reservesDock", "right", behind="combatantDock"),
                Place("logDock", "bottom", 0.2, least=LOG),
                Place("historyDock", "bottom", behind="logDock"),
            ),
        ),
    )
}

TASK_DOCKS = {"paletteDock": PREPARE, "zoneEditorDock": PREPARE}
"""Docks that their task shows and hides (the zone editor's, while it is open): hidden in
every other workspace, whatever its saved arrangement says."""

ORDER = (PREPARE, PLAY, CHASE, CAMPAIGN)
"""The View > Workspace menu's order."""


def for_task(*, editing: bool, mode: str, campaign: bool) -> str:
    """The workspace a task asks for: the zone editor open -> Prepare; a mode with a
    workspace of its own (``mode``: a chase's is Chase) -> that one; the campaign dock just
    opened -> Campaign; else Play."""
    if editing:
        return PREPARE
    if mode:
        return mode
    if campaign:
        return CAMPAIGN
    return PLAY
