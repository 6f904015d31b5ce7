"""The Op that fogs and reveals regions of the zone for the table's screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.fog import Fog, Region
from afdesk.encounter.op import Op

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class SetFog(Op, frozen=True):
    """Hide (``hidden``) or reveal a region's areas on the players' screen. ``what`` is the
    region's name for the log ("the Ford"); the fog is a set of areas, so revealing a
    segment of a fogged tile leaves the rest of the tile fogged."""

    areas: tuple[tuple[int, int], ...]
    hidden: bool
    what: str = ""
    label = "Fog"

    @classmethod
    def of(cls, region: Region, hidden: bool) -> SetFog:
        return cls(tuple(region.areas), hidden, region.name)

    def execute(self, enc: Encounter) -> None:
        if not self.areas:
            raise IllegalOp("no areas to fog or reveal: pick a tile, a segment or an area")
        outside = [a for a in self.areas if not enc.zone.contains(a)]
        if outside:
            c, r = outside[0]
            raise IllegalOp(f"area ({c}, {r}) is outside the zone: it cannot be fogged")
        fog: Fog = enc.fog
        new = fog.with_areas(self.areas, self.hidden)
        if new == fog:
            what = self.what or "that"
            raise IllegalOp(f"{what} is already {'fogged' if self.hidden else 'revealed'}")
        enc.set_part("fog", new)

    def describe(self, enc: Encounter) -> str:
        what = self.what or f"{len(self.areas)} areas"
        return f"{'Fogged' if self.hidden else 'Revealed'} {what}"

    def title(self, enc: Encounter) -> str:
        return self.describe(enc)


__all__ = ["SetFog"]
