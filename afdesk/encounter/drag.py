"""What moving a character to an area means now, in Ops: the GM drags a token (or steps it
with a key) and the model says which Ops that becomes, or why not (E9, E14).

- During turns the character whose turn it is moves within reach (:func:`movement.reachable`),
  with the movement it has left, otherwise by spending its action on a Maneuver (E5, E6).
- In setup, and as a GM override (Shift), a drop places the character (PlaceCombatant; the
  log marks the override).
- Past the zone's edge the GM chooses: extend the zone and go there, or exit (E9).

No rule of its own: reach comes from :mod:`movement`, reasons from the Ops themselves (asked
with :meth:`Encounter.refusal`, a dry run). Reasons are the model's words; the GUI makes them
sentences.
"""

from __future__ import annotations

import enum
import random
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import movement
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import (
    Area,
    beyond_band,
    edge_areas,
    facing_towards,
    nearest,
    neighbours,
    straight_path,
)
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import ExitCombatant, PlaceCombatant
from afdesk.encounter.ops.zone import draw_extension
from afdesk.encounter.state import Phase
from afdesk.encounter.zone import TILE, Edge

if TYPE_CHECKING:
    from fractions import Fraction


class DragKind(enum.StrEnum):
    MOVE = "move"
    """The character whose turn it is moves by the rules (MoveCombatant)."""
    PLACE = "place"
    """Setup placement, or a GM override (PlaceCombatant; the log marks the override)."""
    REFUSED = "refused"
    """Not allowed now; ``reason`` says why."""


class DragPlan(msgspec.Struct):
    """What moving one character can do, decided when the drag starts (so the reach is
    worked out once, not at every mouse move)."""

    cid: str
    start: Area | None
    kind: DragKind
    reason: str = ""
    reach: dict[Area, movement.Step] = msgspec.field(default_factory=dict)
    budget: int = 0
    maneuver: bool = False
    override: bool = False


class Outcome(msgspec.Struct):
    """What a drop becomes: Ops to push as one undo step, a refusal, or a question about
    the zone's edge (extend or exit)."""

    ops: list[Op] = msgspec.field(default_factory=list)
    text: str = ""
    reason: str = ""
    edge: Edge | None = None


class EdgeChoice(enum.StrEnum):
    """What a drop past the zone's edge means (E9)."""

    EXTEND = "extend"
    EXIT = "exit"


def override_hint(name: str, *, keys: bool = False) -> str:
    """How the GM places a character anyway: with the mouse, or (``keys``) with the arrow
    keys that were used."""
    if keys:
        return f"Hold Shift with the arrow key to move {name} anyway (GM override)."
    return f"Shift-drag to place {name} anyway (GM override)."


LEAVE_OVERLAP = "Leave the overlap (move check)"
"""The check that opens the way out of an overlap (E14), as the GM's menus name it."""


def must_leave_overlap(enc: Encounter, cid: str) -> bool:
    """Whether ``cid`` stands in an overlap with opponents and has not yet made the move
    check that leaving it needs (E14)."""
    c = enc.combatants.get(cid)
    if c is None or c.area is None or c.economy.exit_free or c.economy.exit_to is not None:
        return False
    return bool(enc.opponents_in(c.area, c))


def way_out(enc: Encounter, cid: str) -> str:
    """The way out of a refused move from an overlap (E14): the move check, named as the
    map's menu names it; "" when the character is not held in an overlap."""
    if not must_leave_overlap(enc, cid):
        return ""
    name = enc.combatants[cid].name
    return (
        f'Make the move check first: "{LEAVE_OVERLAP}", at the top of {name}\'s menu on '
        "the map (right-click the token)."
    )


def areas_text(value: Fraction | float) -> str:
    """A movement cost in areas for a label: 1, 1.5, 2."""
    f = float(value)
    return str(int(f)) if f == int(f) else f"{f:.1f}".rstrip("0").rstrip(".")


def plan_drag(enc: Encounter, cid: str, override: bool = False) -> DragPlan:
    """How a move of ``cid`` works now: within reach, a placement, or a refusal with the
    model's reason."""
    c = enc.combatant(cid)
    start = c.area
    if override:
        return DragPlan(cid, start, DragKind.PLACE, override=True)
    if enc.turn.phase is Phase.SETUP:
        return DragPlan(cid, start, DragKind.PLACE)
    if start is not None and enc.actor == cid:
        budget, maneuver = movement.available(c)
        try:
            reach = movement.reachable(enc, cid, budget)
        except IllegalOp as exc:
            # Held in an overlap (E14): the refusal says how out, not only why not.
            reason = " ".join(filter(None, (str(exc), way_out(enc, cid))))
            return DragPlan(cid, start, DragKind.REFUSED, reason)
        # One step, asked of the model: an action already spent, or nowhere to go.
        probe = MoveCombatant(cid, (start, _probe_step(enc, start, reach)), c.facing, maneuver)
        reason = enc.refusal(probe)
        if reason and (maneuver or len(reach) <= 1):
            return DragPlan(cid, start, DragKind.REFUSED, reason)
        return DragPlan(cid, start, DragKind.MOVE, reach=reach, budget=budget, maneuver=maneuver)
    reason = ""
    if start is not None:
        reason = enc.refusal(MoveCombatant(cid, (start, _probe_step(enc, start, {})), c.facing))
    return DragPlan(cid, start, DragKind.REFUSED, reason or f"{c.name} cannot move now.")


def _probe_step(enc: Encounter, start: Area, reach: dict[Area, movement.Step]) -> Area:
    """A neighbour to try a one-step move to: in reach if any, else in the zone."""
    for area in neighbours(start):
        if area in reach:
            return area
    for area in neighbours(start):
        if enc.zone.contains(area):
            return area
    return next(iter(neighbours(start)))


def reach_labels(enc: Encounter, plan: DragPlan) -> dict[Area, tuple[str, bool]]:
    """Each reachable area (not the start) with its cost in areas and whether the move
    stops there (an opponent's overlap, E14)."""
    if plan.kind is not DragKind.MOVE:
        return {}
    c = enc.combatant(plan.cid)
    return {
        area: (areas_text(movement.as_areas(c, step.cost)), step.stops)
        for area, step in plan.reach.items()
        if area != plan.start
    }


class Preview(msgspec.Struct):
    """The hover of a drag: the path to show, whether a drop there would be taken, a tag."""

    path: list[Area]
    ok: bool
    label: str


def preview(enc: Encounter, plan: DragPlan, area: Area) -> Preview:
    """What dropping at ``area`` would do, for the live preview."""
    start = [plan.start] if plan.start is not None else []
    if not enc.zone.contains(area):
        edge = enc.zone.edge_beyond(area)
        ok = plan.kind is not DragKind.REFUSED
        return Preview([*start, area], ok, f"past the {edge.value} edge" if edge else "")
    if plan.kind is DragKind.PLACE:
        return Preview([*start, area], True, "GM override" if plan.override else "place")
    if plan.kind is DragKind.REFUSED:
        return Preview([*start, area], False, "not now")
    if area in plan.reach:
        path = movement.path_to(plan.reach, area)
        c = enc.combatant(plan.cid)
        cost = areas_text(movement.as_areas(c, plan.reach[area].cost))
        stop = ", stops" if plan.reach[area].stops else ""
        return Preview(path, True, f"{cost}{stop}")
    return Preview([*start, area], False, "out of reach")


def move_facing(path: list[Area], current: float) -> float:
    """The facing after a move: towards where the character went (the GM turns it after)."""
    if len(path) < 2 or path[0] == path[-1]:
        return current
    return facing_towards(path[0], path[-1])


def _move(plan: DragPlan, path: list[Area], facing: float) -> MoveCombatant:
    return MoveCombatant(plan.cid, tuple(path), move_facing(path, facing), plan.maneuver)


def drop(enc: Encounter, plan: DragPlan, area: Area) -> Outcome:
    """The Ops for dropping the character at ``area`` inside the zone, the reason it is
    refused, or (outside the zone) the edge it went past."""
    c = enc.combatant(plan.cid)
    if area == plan.start:
        return Outcome()
    if not enc.zone.contains(area):
        edge = enc.zone.edge_beyond(area)
        if edge is None:  # a hole inside the zone's bounds: nothing to extend or exit
            return Outcome(reason=f"({area[0]}, {area[1]}) is not part of the zone.")
        rule = enc.zone.edge_rule(edge)
        if rule.blocked:  # neither an exit nor an extension
            note = f" ({rule.note})" if rule.note else ""
            return Outcome(
                reason=f"The {edge.value} edge is blocked{note}: nobody leaves that way."
            )
        on_edge = plan.start in edge_areas(enc.zone.area_bounds(), edge.value)
        if plan.kind is DragKind.REFUSED and not on_edge:
            return Outcome(reason=plan.reason)
        return Outcome(edge=edge)
    if plan.kind is DragKind.REFUSED:
        return Outcome(reason=plan.reason)
    if plan.kind is DragKind.PLACE:
        return Outcome([PlaceCombatant(plan.cid, area)], f"Place {c.name}")
    if area in plan.reach:
        return Outcome(
            [_move(plan, movement.path_to(plan.reach, area), c.facing)], f"Move {c.name}"
        )
    if plan.start is not None:
        # Where a walk cannot go a jump may: only its start and end count (E14).
        hop = (plan.start, area)
        jump = MoveCombatant(plan.cid, hop, move_facing(list(hop), c.facing), plan.maneuver, True)
        if not enc.refusal(jump):
            return Outcome([jump], f"Jump {c.name}")
    return Outcome(reason=_refusal(enc, plan, area))


def _refusal(enc: Encounter, plan: DragPlan, area: Area) -> str:
    """The model's reason a move to ``area`` is refused (a straight path, asked)."""
    c = enc.combatant(plan.cid)
    start = plan.start if plan.start is not None else area
    reason = enc.refusal(_move(plan, straight_path(start, area), c.facing))
    if reason:
        return reason
    return f"{c.name} cannot reach ({area[0]}, {area[1]}) this action (E14)."


def edge_choices(enc: Encounter, edge: Edge) -> list[tuple[EdgeChoice, str]]:
    """The two things a drop past ``edge`` can mean, with their words; the edge rule's
    choice first (E9)."""
    rule = enc.zone.edge_rule(edge)
    note = f" ({rule.note})" if rule.note else ""
    extend = (EdgeChoice.EXTEND, f"Extend the zone {edge.value}wards and go there")
    override = "" if rule.exits else " (GM override: this edge extends the zone, E9)"
    leave = (EdgeChoice.EXIT, f"Exit the encounter over the {edge.value} edge{note}{override}")
    return [leave, extend] if rule.exits else [extend, leave]


def edge_drop(
    enc: Encounter,
    plan: DragPlan,
    area: Area,
    edge: Edge,
    choice: EdgeChoice | str,
    rng: random.Random | None = None,
) -> Outcome:
    """The Ops for a drop past ``edge``: "extend" draws a new row or column of tiles and
    moves there; "exit" moves to the edge if needed and leaves the encounter (E9). Either
    is one undo step."""
    if EdgeChoice(choice) is EdgeChoice.EXTEND:
        return _extend(enc, plan, area, edge, rng)
    return _exit(enc, plan, area, edge)


def _extend(
    enc: Encounter, plan: DragPlan, area: Area, edge: Edge, rng: random.Random | None
) -> Outcome:
    if plan.kind is DragKind.REFUSED:
        return Outcome(reason=plan.reason)
    c = enc.combatant(plan.cid)
    extension = draw_extension(enc, edge, rng)
    target = beyond_band(enc.zone.area_bounds(), edge.value, area, depth=TILE)
    text = f"Extend the zone {edge.value} and move {c.name}"
    if plan.kind is DragKind.PLACE:
        return Outcome([extension, PlaceCombatant(plan.cid, target)], text)
    trial = Encounter.from_state(enc.state())
    trial.apply(extension)
    try:
        reach = movement.reachable(trial, plan.cid, plan.budget)
    except IllegalOp as exc:
        return Outcome(reason=str(exc))
    if target not in reach:
        return Outcome(reason=_refusal(trial, plan, target))
    return Outcome([extension, _move(plan, movement.path_to(reach, target), c.facing)], text)


def _exit(enc: Encounter, plan: DragPlan, area: Area, edge: Edge) -> Outcome:
    c = enc.combatant(plan.cid)
    line = edge_areas(enc.zone.area_bounds(), edge.value)
    leave = ExitCombatant(plan.cid, edge, override=not enc.zone.edge_rule(edge).exits)
    text = f"{c.name} exits {edge.value}"
    if plan.start in line:
        return Outcome([leave], text)
    if plan.kind is DragKind.REFUSED:
        return Outcome(reason=plan.reason)
    if plan.kind is DragKind.PLACE:
        spot = nearest(line, area)
        assert spot is not None  # a zone has at least one tile, so an edge has areas
        return Outcome([PlaceCombatant(plan.cid, spot), leave], text)
    open_spots = [a for a in line if a in plan.reach and not plan.reach[a].stops]
    spots = open_spots or [a for a in line if a in plan.reach]
    if not spots:
        spot = nearest(line, area)
        assert spot is not None
        return Outcome(reason=_refusal(enc, plan, spot))
    spot = nearest(spots, area)
    assert spot is not None
    return Outcome([_move(plan, movement.path_to(plan.reach, spot), c.facing), leave], text)
