"""The Op that sets and clears map art: the GM's own pictures under the zone's tiles (E9).

One Op per import or clearing, so one undo step, journaled. It is not logged: a log entry
holds its Op with every field, so each import would keep another copy of its pictures in
the encounter file (up to the 24 MiB art limit each time); the log is the GM's record of
play, and the undo history names the step ("Map art: 9 tiles").
"""

from typing import TYPE_CHECKING

from afdesk.encounter.art import ART_TOTAL_BYTES, TileArt, art_problem
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def _where(col: int, row: int) -> str:
    return f"({col}, {row})"


class SetMapArt(Op, frozen=True):
    """Put the pictures of ``put`` under their tiles (replacing what was there) and take
    the pictures of the ``clear`` places away."""

    put: tuple[TileArt, ...] = ()
    clear: tuple[tuple[int, int], ...] = ()
    logged = False
    label = "Map art"

    def execute(self, enc: "Encounter") -> None:
        if not self.put and not self.clear:
            raise IllegalOp("no picture to put and none to clear: the map art stays as it is")
        zone = enc.zone
        seen: set[tuple[int, int]] = set()
        for art in self.put:
            where = _where(art.col, art.row)
            if zone.tile_at(art.col, art.row) is None:
                raise IllegalOp(f"the zone has no tile at {where} to put a picture under (E9)")
            if art.slot in seen:
                raise IllegalOp(f"two pictures for the tile at {where}; a tile has one")
            seen.add(art.slot)
            why = art_problem(art)
            if why:
                raise IllegalOp(f"the picture for the tile at {where}: {why}")
        for col, row in self.clear:
            if enc.art.at(col, row) is None and (col, row) not in seen:
                raise IllegalOp(f"the tile at {_where(col, row)} has no map art to clear")
        new = enc.art.changed(self.put, self.clear)
        total = new.total_bytes()
        if total > ART_TOTAL_BYTES:
            raise IllegalOp(
                f"the map art would take {total / 2**20:.1f} MiB; an encounter's map art "
                f"takes at most {ART_TOTAL_BYTES // 2**20} MiB (clear some tiles' art, or "
                "import smaller pictures)"
            )
        enc.set_part("art", new)

    def _tiles(self) -> str:
        n = len({a.slot for a in self.put} | set(self.clear))
        return f"{n} tile" + ("" if n == 1 else "s")

    def describe(self, enc: "Encounter") -> str:
        if not self.put:
            return f"Map art cleared from {self._tiles()}"
        return f"Map art under {self._tiles()}"

    def title(self, enc: "Encounter") -> str:
        if not self.put:
            return f"Clear map art ({self._tiles()})"
        return f"Map art ({self._tiles()})"


__all__ = ["SetMapArt"]
