"""Where a new character goes and what it is called: the defaults the GM's Add character
and Duplicate offer, never rules."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from afdesk.encounter.geometry import Area

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

_NUMBERED = re.compile(r"^(.*?)\s*(\d+)$")


def next_name(enc: Encounter, name: str) -> str:
    """The next free numbered name after ``name``: "Bandit 3" from "Bandit 2", "Gao 2"
    from "Gao"."""
    m = _NUMBERED.match(name.strip())
    base, n = (m.group(1), int(m.group(2))) if m else (name.strip(), 1)
    taken = {c.name for c in enc.roster()}
    n += 1
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


def free_area(enc: Encounter, near: Area | None = None) -> Area | None:
    """The zone's area nearest ``near`` (the zone's middle if None) where nobody stands;
    None if every area is taken (or there is no zone)."""
    if not enc.zone.tiles:
        return None
    c0, r0, c1, r1 = enc.zone.area_bounds()
    if near is None:
        near = ((c0 + c1) // 2, (r0 + r1) // 2)
    best: tuple[tuple[int, int, int], Area] | None = None
    for col in range(c0, c1 + 1):
        for row in range(r0, r1 + 1):
            area = (col, row)
            if not enc.zone.contains(area) or enc.occupants(area):
                continue
            ring = max(abs(col - near[0]), abs(row - near[1]))
            key = (ring, row, col)
            if best is None or key < best[0]:
                best = (key, area)
    return best[1] if best else None
