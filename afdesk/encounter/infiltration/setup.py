"""The infiltration's setup (N2): guardians are placed first; each intruder then starts
hidden with two decoys in two adjacent areas, inside the tiles the GM allows and never in
a tile holding a guardian; when the players guard, the intruders are instead (player
guardians + 1) shared decoys, each privately standing for an intruder. Then the decoys
move: a Maneuver while hidden moves each one up to the character's speed (N5)."""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy, movement
from afdesk.encounter.actor import require_actor
from afdesk.encounter.combatant import Side, State, StateKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area, adjacent
from afdesk.encounter.infiltration.ops import _inf, _revealed
from afdesk.encounter.infiltration.state import InfiltrationState, infiltration_of
from afdesk.encounter.infiltration.watch import seen_by
from afdesk.encounter.op import Op
from afdesk.encounter.requires import area_text, name, require_area_in_zone
from afdesk.encounter.zone import tile_of

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
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


# ------------------------------------------------------------------ N5 decoys move


class DecoyLoss(msgspec.Struct, frozen=True):
    """A decoy a Maneuver while hidden loses where it ends (N4a, N4b): where, and why."""

    area: Area
    why: str


def decoys_moved(
    enc: "Encounter", c: "Combatant", paths: tuple[tuple[Area, ...], ...]
) -> tuple[tuple[Area, ...], tuple[DecoyLoss, ...]]:
    """Where ``c``'s decoys stand after moving along ``paths`` (N5), and the ones lost
    where they end: in an opponent's area (N4b) or in an opponent's clear line (N4a).
    Refuses a path that does not start at one of its decoys, one past its speed (E14
    costs) and two decoys ending in one area."""
    unit_c = c.replace(economy=msgspec.structs.replace(c.economy, exit_to=None, exit_free=True))
    budget = movement.maneuver_ticks(c)
    decoys = [(d[0], d[1]) for d in c.decoys]
    moved: dict[Area, Area] = {}
    for raw in paths:
        path = [(a[0], a[1]) for a in raw]
        if len(path) < 2:
            raise IllegalOp(f"each path of {c.name}'s decoys needs at least one step (N5)")
        start = path[0]
        if start not in decoys:
            raise IllegalOp(f"{c.name} has no decoy at {area_text(start)} to move (N5)")
        if start in moved:
            raise IllegalOp(f"{c.name}'s decoy at {area_text(start)} moves once (N5)")
        cost = movement.path_cost(enc, unit_c.replace(area=start), path)
        if cost > budget:
            have = movement.as_areas(c, budget)
            need = movement.as_areas(c, cost)
            raise IllegalOp(
                f"{c.name}'s decoy at {area_text(start)} moves up to {c.name}'s speed, "
                f"{have} area(s); that path costs {need} (N5, E14)"
            )
        moved[start] = path[-1]
    after = tuple(moved.get(d, d) for d in decoys)
    if len(set(after)) != len(after):
        raise IllegalOp(f"two of {c.name}'s decoys cannot end in one area (N5)")
    inf: InfiltrationState = infiltration_of(enc)
    foes = {
        oid: (o.area[0], o.area[1])
        for oid in inf.opponents(c.id)
        if (o := enc.combatants.get(oid)) is not None
        and o.area is not None
        and not o.hidden
        and not o.exited
    }
    lost: list[DecoyLoss] = []
    for end in moved.values():
        there = [enc.combatant(o).name for o, a in foes.items() if a == end]
        if there:
            lost.append(DecoyLoss(end, f"in {', '.join(there)}'s area (N4b)"))
            continue
        eyes = seen_by(enc, c.id, end)
        if eyes:
            who = ", ".join(enc.combatant(e).name for e in eyes)
            lost.append(DecoyLoss(end, f"in {who}'s clear line (N4a)"))
    return after, tuple(lost)


class MoveDecoys(Op, frozen=True):
    """Maneuver while hidden (N5): the action moves each decoy up to the character's
    speed by E14 costs (``paths``: one per decoy moved, from its area). A decoy that ends
    in an opponent's area (N4b) or in an opponent's clear line (N4a) is lost; the last
    one lost reveals the character there (N5) and the first intruder revealed raises the
    alarm (N6). The character stays at the decoy it was at."""

    id: str
    paths: tuple[tuple[Area, ...], ...]
    label = "Maneuver while hidden"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "move decoys")
        c = require_actor(enc, self.id, "maneuver", str(ActionKind.MANEUVER))
        if not c.hidden:
            raise IllegalOp(f"{c.name} is not hidden: a Maneuver moves it, not decoys (N5)")
        if not self.paths:
            raise IllegalOp(f"no decoy of {c.name}'s to move (N5)")
        t = enc.turn
        c = economy.use_action(c, ActionKind.MANEUVER, t.exchange, t.round)
        after, lost = decoys_moved(enc, c, self.paths)
        old = [(d[0], d[1]) for d in c.decoys]
        area = (c.area[0], c.area[1]) if c.area is not None else None
        if area in old:
            area = after[old.index(area)]
        gone = {x.area for x in lost}
        kept = tuple(d for d in after if d not in gone)
        if not kept:
            c = c.without_state(StateKind.HIDDEN).replace(area=lost[-1].area, decoys=())
            enc.set_part("infiltration", _revealed(enc, inf, c.id))
        else:
            c = c.replace(decoys=kept, area=area if area in kept else kept[0])
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        who = name(enc, self.id)
        moves = ", ".join(f"{area_text(p[0])} -> {area_text(p[-1])}" for p in self.paths if p)
        text = f"{who} maneuvers while hidden: decoys {moves} (N5)"
        c = enc.combatants.get(self.id)
        if c is None:
            return text
        try:
            _after, lost = decoys_moved(enc, c, self.paths)
        except IllegalOp:
            return text
        text += "".join(f"; the decoy at {area_text(x.area)} is lost, {x.why}" for x in lost)
        if lost and len(lost) == len(c.decoys):
            text += f"; {who} is revealed at {area_text(lost[-1].area)} (N5)"
            inf: InfiltrationState = infiltration_of(enc)
            if self.id in inf.intruders and not inf.alarm:
                text += "; the alarm is raised (N6)"
        return text
