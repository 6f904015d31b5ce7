"""Where a countdown chase's rows of areas have fallen away (H4): the countdown die removes
rows each round; afdesk takes them from the zone's top (north) edge down, the way the
board's "N rows gone" and the map show them."""

from typing import TYPE_CHECKING

from afdesk.encounter.chase.state import chase_of

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def fallen_rows(enc: "Encounter") -> tuple[int, int] | None:
    """The first and last area rows fallen away (inclusive), or None when none has: the
    countdown's ``rows_removed`` rows from the zone's top edge, at most the whole zone."""
    c = chase_of(enc).countdown
    if not c.rows or c.rows_removed <= 0 or not enc.zone.tiles:
        return None
    _c0, r0, _c1, r1 = enc.zone.area_bounds()
    return r0, min(r1, r0 + c.rows_removed - 1)
