"""Movement (E14): which areas a character can reach this action, at what cost, by what path.

Costs are integer *ticks*. A character's tick unit T is the least common multiple of its
speeds, so entering an area with speed s costs T / s ticks (twice that on Rough): the speed
that applies is swim in Water, climb on Steep, fly while flying (which ignores segments
without altitude), run elsewhere. A Maneuver gives T ticks, one action's worth of movement;
a Hustle gives half the run speed in areas (at least 1 after a Maneuver, E5). Costs are
shown to the GM in areas of running (ticks * run / T).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from afdesk.encounter.combatant import Combatant, StateKind, opposed
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import NEIGHBOURS, Area, crossed_areas, in_front
from afdesk.encounter.zone import PLAIN, AreaTerrain

if TYPE_CHECKING:
    from fractions import Fraction

    from afdesk.encounter.interface import Encounter


def tick_unit(c: Combatant) -> int:
    s = c.speeds
    speeds = [v for v in (s.run, s.climb, s.swim, s.fly) if v > 0]
    return math.lcm(*speeds) if speeds else 1


def step_cost(c: Combatant, terrain: AreaTerrain, unit: int) -> int | None:
    """Ticks to enter an area of ``terrain``; None if the character cannot enter it."""
    s = c.speeds
    if c.has(StateKind.FLYING) and s.fly > 0:
        if terrain.altitude <= 0:
            return unit // s.fly
        speed = s.fly
    elif terrain.water:
        speed = s.swim
    elif terrain.steep:
        speed = s.climb
    else:
        speed = s.run
    if speed <= 0:
        return None
    cost = unit // speed
    return cost * 2 if terrain.rough else cost


def maneuver_ticks(c: Combatant) -> int:
    """One action of movement (E6 Maneuver); none while down (speed 0, E17)."""
    if c.has(StateKind.DOWN) or c.speeds.run <= 0:
        return 0
    return tick_unit(c)


def hustle_ticks(c: Combatant, maneuvered: bool) -> int:
    """Hustle: half the speed in areas, rounded down; at least 1 after a Maneuver (E5)."""
    if c.has(StateKind.DOWN) or c.speeds.run <= 0:
        return 0
    areas = c.speeds.run // 2
    if maneuvered:
        areas = max(areas, 1)
    return areas * (tick_unit(c) // c.speeds.run)


def available(c: Combatant) -> tuple[int, bool]:
    """The movement a character can use now, in ticks, and whether it must first spend its
    action on a Maneuver (no movement left from a Maneuver or Hustle, E5, E6)."""
    if c.economy.movement > 0:
        return c.economy.movement, False
    return maneuver_ticks(c), True


def as_areas(c: Combatant, ticks: int) -> Fraction:
    """Ticks in areas of running, for display (``fractions`` is imported here: its
    import cost the start about half a millisecond)."""
    from fractions import Fraction

    if c.speeds.run <= 0:
        return Fraction(0)
    return Fraction(ticks * c.speeds.run, tick_unit(c))


class Step(NamedTuple):
    cost: int
    """Ticks from the start."""
    prev: Area | None
    stops: bool
    """The move must end here (an opponent's overlap, E14)."""


def exit_limits(enc: Encounter, c: Combatant) -> tuple[Area, ...] | None:
    """Where a character in an overlap with opponents may step (E14).

    None: no limit; otherwise the only areas it may step to (possibly none). Raises
    :class:`IllegalOp` if it must first make its move check.
    """
    if c.area is None:
        return None
    foes = enc.opponents_in(c.area, c)
    if not foes:
        return None
    if c.economy.exit_free:
        return None
    exit_to = c.economy.exit_to
    if exit_to is None:
        names = ", ".join(f.name for f in foes)
        raise IllegalOp(
            f"{c.name} is in an overlap with {names}: leaving it needs a move check that "
            "they may contest (E14)."
        )
    return exit_to


def reachable(enc: Encounter, cid: str, budget: int | None = None) -> dict[Area, Step]:
    """Every area the character can reach with ``budget`` ticks (default: what it has
    left), with the cheapest path. Entering an opponent's overlap ends the move (E14)."""
    import heapq  # with the first reach asked for, not with the model

    c = enc.combatant(cid)
    if c.area is None:
        return {}
    if budget is None:
        budget = c.economy.movement
    unit = tick_unit(c)
    start = c.area
    limits = exit_limits(enc, c)
    terrain = enc.terrain
    zone_contains = enc.zone.contains
    occupancy = enc.occupancy
    combatants = enc.combatants
    side = c.side
    out: dict[Area, Step] = {start: Step(0, None, False)}
    best = {start: 0}
    heap = [(0, start)]
    foe_areas: dict[Area, bool] = {}
    while heap:
        cost, area = heapq.heappop(heap)
        if cost > best.get(area, cost):
            continue
        if out[area].stops:
            continue
        options: tuple[Area, ...] = NEIGHBOURS
        if area == start and limits is not None:
            options = tuple((a[0] - area[0], a[1] - area[1]) for a in limits)
        for dc, dr in options:
            nxt = (area[0] + dc, area[1] + dr)
            if area == start and limits is not None and nxt not in limits:
                continue
            if not zone_contains(nxt):
                continue
            step = step_cost(c, terrain.get(nxt, PLAIN), unit)
            if step is None:
                continue
            total = cost + step
            if total > budget or total >= best.get(nxt, total + 1):
                continue
            stops = foe_areas.get(nxt)
            if stops is None:
                stops = any(
                    opposed(combatants[o].side, side)
                    and not combatants[o].hidden
                    and not combatants[o].in_reserve
                    for o in occupancy.get(nxt, ())
                )
                foe_areas[nxt] = stops
            if limits is not None and area == start:
                stops = True  # leaving after a lost check: one step, then the move ends
            best[nxt] = total
            out[nxt] = Step(total, area, stops)
            heapq.heappush(heap, (total, nxt))
    return out


def path_to(steps: dict[Area, Step], area: Area) -> list[Area]:
    """The path from the start to ``area`` (start included)."""
    path = [area]
    prev = steps[area].prev
    while prev is not None:
        path.append(prev)
        prev = steps[prev].prev
    return path[::-1]


def path_cost(enc: Encounter, c: Combatant, path: list[Area]) -> int:
    """Check a path step by step (E14) and return its cost in ticks.

    Raises :class:`IllegalOp` with the reason for a step off the zone, a step that is not
    to an adjacent area, terrain the character cannot enter, or moving on out of an
    opponent's overlap.
    """
    if not path or path[0] != c.area:
        raise IllegalOp(f"a move of {c.name} must start where {c.name} stands")
    unit = tick_unit(c)
    limits = exit_limits(enc, c)
    total = 0
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            raise IllegalOp(
                f"{c.name}'s path jumps from ({a[0]}, {a[1]}) to ({b[0]}, {b[1]}): each step "
                "goes to an adjacent area"
            )
        if not enc.zone.contains(b):
            raise IllegalOp(f"({b[0]}, {b[1]}) is outside the zone")
        if i == 1 and limits is not None and b not in limits:
            raise IllegalOp(
                f"{c.name} lost the move check to leave the overlap: only an adjacent area in "
                "front of the winning opponent's flank is open, and the move ends there (E14)."
            )
        if i == 2 and limits is not None:
            raise IllegalOp(
                f"{c.name} lost the move check to leave the overlap: the move ends after one "
                "step (E14)."
            )
        if i > 1 and enc.opponents_in(a, c):
            foe = enc.opponents_in(a, c)[0]
            raise IllegalOp(
                f"{c.name} cannot move on through ({a[0]}, {a[1]}): entering {foe.name}'s "
                "overlap ends the move (E14)."
            )
        step = step_cost(c, enc.terrain_at(b), unit)
        if step is None:
            t = enc.terrain_at(b)
            kind = "swim" if t.water else "climb" if t.steep else "run"
            raise IllegalOp(
                f"{c.name} cannot enter ({b[0]}, {b[1]}): it needs a {kind} speed, and "
                f"{c.name}'s is 0"
            )
        total += step
    return total


def entering_prompts(enc: Encounter, c: Combatant, entered: list[Area]) -> list[str]:
    """What entering these areas asks of ``c`` (E10): Slippery, a balance check or fall
    down. (Flying ignores segments without altitude.)"""
    flying = c.has(StateKind.FLYING)
    out = []
    for a in entered:
        t = enc.terrain_at(a)
        if t.slippery and not (flying and t.altitude <= 0):
            out.append(
                f"{c.name} entered Slippery ground at ({a[0]}, {a[1]}): a balance check, or "
                "fall down (E10)"
            )
            break
    return out


def interference_prompts(enc: Encounter, c: Combatant, interfered: bool) -> list[str]:
    """A check with Interference on a Ledge or a Steep slope makes ``c`` fall (E10)."""
    if not interfered or c.area is None or c.has(StateKind.FLYING):
        return []
    t = enc.terrain_at(c.area)
    where = f"({c.area[0]}, {c.area[1]})"
    if t.ledge:
        return [
            f"{c.name} gained Interference on the Ledge at {where}: falls to the bottom of "
            "the segment (E10)"
        ]
    if t.steep:
        return [f"{c.name} gained Interference on the Steep slope at {where}: falls (E10)"]
    return []


def jump_cost(enc: Encounter, c: Combatant, start: Area, end: Area) -> int:
    """Check a jump from ``start`` to ``end`` and return its cost in ticks (E14).

    A jump counts only its start and end areas: the terrain and the opponents between are
    jumped over, unless a segment between has altitude (it is in the way). It reaches up to
    the jump speed in areas; its cost is that share of one action's movement (the Rough
    of the landing area doubles it); landing in an opponent's overlap ends the move.
    """
    if start != c.area:
        raise IllegalOp(f"a jump of {c.name} must start where {c.name} stands")
    if not enc.zone.contains(end):
        raise IllegalOp(f"({end[0]}, {end[1]}) is outside the zone")
    speed = c.speeds.jump
    if speed <= 0 or c.has(StateKind.DOWN):
        raise IllegalOp(f"{c.name} cannot jump: the jump speed is 0 (E14)")
    d = max(abs(start[0] - end[0]), abs(start[1] - end[1]))
    if d < 1:
        raise IllegalOp(f"{c.name} needs a landing area to jump to")
    if d > speed:
        raise IllegalOp(f"({end[0]}, {end[1]}) is {d} areas away; {c.name} jumps {speed} (E14)")
    limits = exit_limits(enc, c)
    if limits is not None and end not in limits:
        raise IllegalOp(
            f"{c.name} lost the move check to leave the overlap: only an adjacent area in "
            "front of the winning opponent's flank is open, and the move ends there (E14)."
        )
    high = [a for a, t in enc.terrain.items() if t.altitude > 0]
    walls = crossed_areas(start, end, high)
    if walls:
        w = walls[0]
        raise IllegalOp(
            f"{c.name} cannot jump over ({w[0]}, {w[1]}): its segment has altitude, so it "
            "counts and is in the way (E14)"
        )
    unit = tick_unit(c)
    cost = -(-d * unit // speed)  # rounded up
    return cost * 2 if enc.terrain_at(end).rough else cost


def front_exits(enc: Encounter, area: Area, winners: list[Combatant]) -> tuple[Area, ...]:
    """Adjacent areas in front of every winning opponent's flank (E14)."""
    placed = [(w.area, w.facing) for w in winners if w.area is not None]
    out = []
    for dc, dr in NEIGHBOURS:
        nxt = (area[0] + dc, area[1] + dr)
        if enc.zone.contains(nxt) and all(in_front(a, f, nxt) for a, f in placed):
            out.append(nxt)
    return tuple(out)
