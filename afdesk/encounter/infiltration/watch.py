"""Pure functions over an infiltration (N3, N4a): the watch step proposed for each unaware
guardian, and which decoys are seen and by whom. The model and the GUI ask them; neither
changes anything."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.geometry import Area, distance, facing_towards, neighbours
from afdesk.encounter.geometry import clear_line as _clear
from afdesk.encounter.infiltration.state import InfiltrationState, infiltration_of

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class WatchStep(msgspec.Struct, frozen=True):
    """A watch step (N3): the guardian, where it goes, the facing it takes, the decoy."""

    id: str
    area: Area
    facing: float
    decoy: Area


def decoys_of(enc: Encounter, inf: InfiltrationState, ids: tuple[str, ...]) -> list[Area]:
    """The decoys of those of ``ids`` who are hidden and still in the encounter."""
    out: list[Area] = []
    for cid in ids:
        c = enc.combatants.get(cid)
        if c is not None and not c.exited and c.hidden:
            out.extend((a[0], a[1]) for a in c.decoys)
    return out


def watch_step(enc: Encounter, guardian: str, fumbled: bool = False) -> WatchStep | None:
    """The step the app proposes for an unaware guardian's watch (N3): one area toward the
    nearest decoy of an intruder (E12 distance; on a Fumble, away from it), facing that
    decoy. None when the guardian is not on the map, is down (speed 0, E17) or there is
    no decoy. Ties: the step
    whose centre is nearest (farthest) in a straight line, then the compass order."""
    inf: InfiltrationState = infiltration_of(enc)
    g = enc.combatants.get(guardian)
    if g is None or g.area is None or g.exited or g.has(StateKind.DOWN):
        return None
    here = (g.area[0], g.area[1])
    decoys = decoys_of(enc, inf, inf.opponents(guardian) or inf.intruders)
    if not decoys:
        return None
    decoy = min(decoys, key=lambda d: (distance(here, d), _sq(here, d)))
    steps = [n for n in neighbours(here) if enc.zone.contains(n)]
    if not steps:
        return None
    sign = -1 if fumbled else 1
    best = min(steps, key=lambda n: (sign * distance(n, decoy), sign * _sq(n, decoy)))
    return WatchStep(guardian, best, facing_towards(best, decoy), decoy)


def _sq(a: Area, b: Area) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


WATCHED = "watch"
"""The mark a watch step leaves in the guardian's ``economy.resolved`` (what its turn
resolved once, E3): gone when its next turn starts, so one watch step a turn (N3)."""


def watch_refusal(enc: Encounter, guardian: str) -> str:
    """Why ``guardian`` takes no watch step now, or "" (N3): one a turn, and only for an
    unaware guardian."""
    inf: InfiltrationState = infiltration_of(enc)
    g = enc.combatants.get(guardian)
    if g is None:
        return f"there is no character {guardian!r}"
    if not inf.unaware(guardian):
        return f"{g.name} is not an unaware guardian: no watch step (N3)"
    if WATCHED in g.economy.resolved:
        return (
            f"{g.name} has already taken its watch step this turn: one a turn, the next "
            f"on {g.name}'s next turn (N3)"
        )
    return ""


def watch_steps(enc: Encounter) -> tuple[WatchStep, ...]:
    """The proposed watch step of every unaware guardian on the map that has not taken
    this turn's yet (N3)."""
    inf: InfiltrationState = infiltration_of(enc)
    out = []
    for gid in inf.guardians:
        if not watch_refusal(enc, gid):
            step = watch_step(enc, gid)
            if step is not None:
                out.append(step)
    return tuple(out)


def _eyes(enc: Encounter, inf: InfiltrationState, owner: str) -> list[tuple[str, Area, float]]:
    """Who looks at ``owner``'s decoys: each opponent on the map (where it stands, or
    each of its decoys while it is hidden), with its facing (N4a)."""
    eyes: list[tuple[str, Area, float]] = []
    for oid in inf.opponents(owner):
        o = enc.combatants.get(oid)
        if o is None or o.exited or (o.area is None and not o.decoys):
            continue
        if o.hidden and o.decoys:
            eyes.extend((oid, (d[0], d[1]), o.facing) for d in o.decoys)
        elif o.area is not None:
            eyes.append((oid, (o.area[0], o.area[1]), o.facing))
    return eyes


def clear_line_on(enc: Encounter, observer: Area, facing: float, target: Area) -> bool:
    """:func:`afdesk.encounter.geometry.clear_line` with the encounter's Cover areas (E13)
    and the areas the GM marked obscured (N4a)."""
    inf: InfiltrationState = infiltration_of(enc)
    cover = [a for a, t in enc.terrain.items() if t.cover]
    return _clear(observer, facing, target, cover, inf.obscured)


def seen_decoys(enc: Encounter) -> dict[tuple[str, Area], tuple[str, ...]]:
    """Every decoy of a hidden character that an opponent, or an opponent's decoy, has a
    clear line to (N4a), with who sees it: ``{(owner, decoy area): (observer ids)}``
    (:func:`seen_lines`, grouped by decoy)."""
    seen: dict[tuple[str, Area], dict[str, None]] = {}
    for line in seen_lines(enc):
        seen.setdefault((line.owner, line.decoy), {})[line.observer] = None
    return {key: tuple(who) for key, who in seen.items()}


def seen_by(enc: Encounter, hider: str, area: Area) -> tuple[str, ...]:
    """The opponents with a clear line on ``area`` for ``hider`` (N4a): a Hide there is
    refused while any has."""
    inf: InfiltrationState = infiltration_of(enc)
    return tuple(
        dict.fromkeys(
            oid for oid, at, f in _eyes(enc, inf, hider) if clear_line_on(enc, at, f, area)
        )
    )


def decoy_reach(enc: Encounter, cid: str, start: Area) -> dict[Area, tuple[Area, ...]]:
    """Where ``cid``'s decoy at ``start`` can go on a Maneuver while hidden (N5): every
    area within the character's speed by E14 costs (adjacent steps, Rough 2, the speed
    its terrain needs), with the cheapest path (``start`` first). A path ends in an
    opponent's area (E14: entering its overlap ends the move; the decoy is lost there,
    N4b). ``start`` itself is left out."""
    import heapq  # with the first decoy reach asked for, not with the mode

    from afdesk.encounter import movement

    c = enc.combatants.get(cid)
    if c is None:
        return {}
    budget = movement.maneuver_ticks(c)
    unit = movement.tick_unit(c)
    foes = {
        (o.area[0], o.area[1])
        for oid in infiltration_of(enc).opponents(cid)
        if (o := enc.combatants.get(oid)) is not None
        and o.area is not None
        and not o.hidden
        and not o.exited
    }
    best: dict[Area, int] = {start: 0}
    prev: dict[Area, Area] = {}
    heap = [(0, start)]
    while heap:
        cost, area = heapq.heappop(heap)
        if cost > best[area] or (area != start and area in foes):
            continue
        for nxt in neighbours(area):
            if not enc.zone.contains(nxt):
                continue
            step = movement.step_cost(c, enc.terrain_at(nxt), unit)
            if step is None or cost + step > budget or cost + step >= best.get(nxt, budget + 1):
                continue
            best[nxt], prev[nxt] = cost + step, area
            heapq.heappush(heap, (cost + step, nxt))
    out: dict[Area, tuple[Area, ...]] = {}
    for end in best:
        if end == start:
            continue
        path = [end]
        while path[-1] != start:
            path.append(prev[path[-1]])
        out[end] = tuple(reversed(path))
    return out


class SeenLine(msgspec.Struct, frozen=True):
    """One clear line that eliminates a decoy (N4a): who sees it from where, and whose
    decoy at which area. The GM's map draws one line per :class:`SeenLine`."""

    observer: str
    at: Area
    owner: str
    decoy: Area


def seen_lines(enc: Encounter) -> tuple[SeenLine, ...]:
    """Every clear line from an opponent (or an opponent's decoy) to a hidden character's
    decoy (N4a): the same facts as :func:`seen_decoys`, with where each observer stands."""
    inf: InfiltrationState = infiltration_of(enc)
    out: list[SeenLine] = []
    for owner in (*inf.intruders, *inf.guardians):
        c = enc.combatants.get(owner)
        if c is None or c.exited or not c.hidden:
            continue
        eyes = _eyes(enc, inf, owner)
        for d in c.decoys:
            area = (d[0], d[1])
            out.extend(
                SeenLine(oid, at, owner, area)
                for oid, at, f in eyes
                if clear_line_on(enc, at, f, area)
            )
    return tuple(out)


def confirm_all_refusal(enc: Encounter) -> str:
    """Why Confirm all has nothing to confirm now (N3): every unaware guardian has taken
    this turn's watch step, or none is unaware (or on the map, or standing)."""
    inf = infiltration_of(enc)
    unaware = [g for g in inf.guardians if inf.unaware(g) and g in enc.combatants]
    if unaware and all(WATCHED in enc.combatants[g].economy.resolved for g in unaware):
        return (
            "every unaware guardian has taken its watch step this turn: one a turn, the "
            "next on each guardian's next turn (N3)"
        )
    if any(WATCHED in enc.combatants[g].economy.resolved for g in unaware):
        return (
            "the unaware guardians who have not stepped this turn have no step to take "
            "(off the map, down or no decoy to go toward); the others stepped already (N3)"
        )
    return "no unaware guardian has a watch step to confirm (N3)"
