"""The infiltration's setup (N2): guardians are placed first; each intruder then starts
hidden with two decoys in two adjacent areas, inside the tiles the GM allows and never in
a tile holding a guardian; when the players guard, the intruders are instead (player
guardians + 1) shared decoys, each privately standing for an intruder."""

from typing import TYPE_CHECKING

from afdesk.encounter.combatant import Side, State, StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area, adjacent
from afdesk.encounter.infiltration.ops import _inf
from afdesk.encounter.infiltration.state import InfiltrationState
from afdesk.encounter.op import Op
from afdesk.encounter.requires import area_text, name, require_area_in_zone
from afdesk.encounter.zone import tile_of

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def guardian_tiles(enc: "Encounter", inf: InfiltrationState) -> set[tuple[int, int]]:
    """The tiles holding a guardian (N2): no intruder's decoy starts there. Refuses while a
    guardian is not yet on the map: guardians are placed first (N2)."""
    tiles: set[tuple[int, int]] = set()
    if not inf.guardians:
        raise IllegalOp("name the guardians first: they are placed before the intruders (N2)")
    for gid in inf.guardians:
        g = enc.combatant(gid)
        if g.area is None or g.exited:
            raise IllegalOp(f"place the guardians first (N2): {g.name} is not on the map")
        tiles.add(tile_of((g.area[0], g.area[1])))
    return tiles


def check_decoy_spot(
    enc: "Encounter",
    area: Area,
    guarded: set[tuple[int, int]],
    allowed: tuple[tuple[int, int], ...],
    whose: str,
) -> None:
    """``area`` may hold a starting decoy (N2): in the zone, in a tile the GM allows (any,
    if ``allowed`` is empty), in no tile holding a guardian."""
    require_area_in_zone(enc, area, whose)
    tile = tile_of(area)
    if allowed and tile not in allowed:
        raise IllegalOp(
            f"{whose} at {area_text(area)} is outside the tiles the GM allows for the "
            "intruders (N2)"
        )
    if tile in guarded:
        raise IllegalOp(f"{whose} at {area_text(area)} is in a tile holding a guardian (N2)")


class SetUpIntruder(Op, frozen=True):
    """An intruder starts hidden (E17) with two decoys in two adjacent areas (N2), in the
    tiles the GM allows (``tiles``; empty: any) and in no tile holding a guardian, once
    every guardian is on the map and before the alarm (N6: after it, hiding is E6's Hide
    action). The intruder is at its first decoy (N5: undecided until
    revealed)."""

    id: str
    decoys: tuple[Area, ...]
    tiles: tuple[tuple[int, int], ...] = ()
    label = "Intruder hidden"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "set up an intruder")
        c = enc.combatant(self.id)
        if self.id not in inf.intruders:
            raise IllegalOp(f"{c.name} is not an intruder: only intruders start hidden (N2)")
        if inf.alarm:
            raise IllegalOp(
                f"the alarm is raised: {c.name} no longer starts hidden; hiding now is the "
                "Hide action (N2, N6, E6)"
            )
        decoys = tuple((a[0], a[1]) for a in self.decoys)
        if len(decoys) != 2:
            raise IllegalOp(f"{c.name} starts with two decoys, not {len(decoys)} (N2)")
        if not adjacent(decoys[0], decoys[1]):
            raise IllegalOp(
                f"{c.name}'s decoys at {area_text(decoys[0])} and {area_text(decoys[1])} "
                "are not in two adjacent areas (N2)"
            )
        guarded = guardian_tiles(enc, inf)
        for d in decoys:
            check_decoy_spot(enc, d, guarded, self.tiles, f"{c.name}'s decoy")
        enc.put(
            c.with_state(State(StateKind.HIDDEN)).replace(area=decoys[0], decoys=decoys, exited="")
        )

    def describe(self, enc: "Encounter") -> str:
        where = " and ".join(area_text(d) for d in self.decoys)
        return f"{name(enc, self.id)} starts hidden with decoys at {where} (N2)"


class SetUpSharedDecoys(Op, frozen=True):
    """When the players guard (N2): the intruders are (player guardians + 1) shared decoys,
    each standing for the intruder the GM notes privately (``stands_for``, one per decoy;
    the players' screen never shows whose). Each intruder named starts hidden at its
    first decoy; every intruder stands behind at least one (afdesk's reading: an intruder
    with no decoy would be revealed at once, N5)."""

    decoys: tuple[Area, ...]
    stands_for: tuple[str, ...]
    tiles: tuple[tuple[int, int], ...] = ()
    label = "Shared decoys"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "set up the shared decoys")
        players = [g for g in inf.guardians if enc.combatant(g).side is Side.BAND]
        if not players:
            raise IllegalOp(
                "shared decoys are for when the players guard (N2): no guardian is a "
                "player character; hide each intruder with two decoys instead"
            )
        want = len(players) + 1
        decoys = tuple((a[0], a[1]) for a in self.decoys)
        if len(decoys) != want:
            raise IllegalOp(
                f"{len(players)} player guardian(s) face {want} shared decoys, not "
                f"{len(decoys)} (N2)"
            )
        if len(self.stands_for) != len(decoys):
            raise IllegalOp("each shared decoy stands for one intruder (N2)")
        if len(set(decoys)) != len(decoys):
            raise IllegalOp("two shared decoys cannot share an area (N2)")
        for cid in self.stands_for:
            if cid not in inf.intruders:
                raise IllegalOp(f"{name(enc, cid)} is not an intruder (N2)")
        missing = [i for i in inf.intruders if i not in self.stands_for]
        if missing:
            who = ", ".join(name(enc, i) for i in missing)
            raise IllegalOp(f"no shared decoy stands for {who}: each intruder needs one (N2)")
        guarded = guardian_tiles(enc, inf)
        for d in decoys:
            check_decoy_spot(enc, d, guarded, self.tiles, "a shared decoy")
        for cid in inf.intruders:
            own = tuple(d for d, who in zip(decoys, self.stands_for, strict=True) if who == cid)
            c = enc.combatant(cid)
            enc.put(
                c.with_state(State(StateKind.HIDDEN)).replace(area=own[0], decoys=own, exited="")
            )

    def describe(self, enc: "Encounter") -> str:
        where = ", ".join(area_text(d) for d in self.decoys)
        return f"The intruders are {len(self.decoys)} shared decoys at {where} (N2)"
