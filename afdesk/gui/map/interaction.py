"""What a drag on the map means, asked of the model: where a character may go this action
(E14), which Ops a drop becomes, and why a drop is refused. No Qt widgets here and no
rule of its own: reach comes from :func:`movement.reachable`, reasons from the Ops."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field

from afdesk.encounter import movement
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area, facing_towards, neighbours
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.base import Op
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import ExitCombatant, PlaceCombatant
from afdesk.encounter.ops.zone import draw_extension
from afdesk.encounter.state import Phase
from afdesk.encounter.zone import TILE, Edge
from afdesk.gui import mapgeom
from afdesk.gui.text import sentence


class DragKind(enum.StrEnum):
    MOVE = "move"
    """The character whose turn it is moves by the rules (MoveCombatant)."""
    PLACE = "place"
    """Setup placement, or a GM override (PlaceCombatant; the log marks the override)."""
    REFUSED = "refused"
    """Not allowed now; ``reason`` says why."""


@dataclass
class DragPlan:
    """What dragging one character can do, decided when the drag starts."""

    cid: str
    start: Area
    kind: DragKind
    reason: str = ""
    reach: dict[Area, movement.Step] = field(default_factory=dict)
    budget: int = 0
    maneuver: bool = False
    override: bool = False


@dataclass
class Outcome:
    """What a drop becomes: Ops to push as one undo step, a refusal, or a question about
    the zone's edge (extend or exit)."""

    ops: list[Op] = field(default_factory=list)
    text: str = ""
    reason: str = ""
    edge: Edge | None = None


def override_hint(name: str) -> str:
    return f"Shift-drag to place {name} anyway (GM override)."


def plan_drag(doc, cid: str, override: bool = False) -> DragPlan:
    """How a drag of ``cid`` works now: a move within reach, a placement, or a refusal
    with the model's reason."""
    enc: Encounter = doc.encounter
    c = enc.combatant(cid)
    start = c.area
    if override:
        return DragPlan(cid, start, DragKind.PLACE, override=True)
    if enc.turn.phase is Phase.SETUP:
        return DragPlan(cid, start, DragKind.PLACE)
    if enc.actor == cid:
        budget, maneuver = movement.available(c)
        try:
            reach = movement.reachable(enc, cid, budget)
        except IllegalOp as exc:
            return DragPlan(cid, start, DragKind.REFUSED, sentence(str(exc)))
        # One step, asked of the model: an action already spent, or nowhere to go.
        probe = MoveCombatant(cid, (start, _probe_step(enc, start, reach)), c.facing, maneuver)
        reason = doc.try_op(probe)
        if reason and (maneuver or len(reach) <= 1):
            return DragPlan(cid, start, DragKind.REFUSED, reason)
        return DragPlan(cid, start, DragKind.MOVE, reach=reach, budget=budget, maneuver=maneuver)
    probe = MoveCombatant(cid, (start, _probe_step(enc, start, {})), c.facing)
    reason = doc.try_op(probe) or f"{c.name} cannot move now."
    return DragPlan(cid, start, DragKind.REFUSED, reason)


def _probe_step(enc: Encounter, start: Area, reach: dict) -> Area:
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
        area: (mapgeom.areas_text(movement.as_areas(c, step.cost)), step.stops)
        for area, step in plan.reach.items()
        if area != plan.start
    }


@dataclass
class Preview:
    """The hover of a drag: the path to show, whether a drop there would be taken, a tag."""

    path: list[Area]
    ok: bool
    label: str


def preview(enc: Encounter, plan: DragPlan, area: Area) -> Preview:
    """What dropping at ``area`` would do, for the live preview."""
    if not enc.zone.contains(area):
        edge = enc.zone.edge_beyond(area)
        ok = plan.kind is not DragKind.REFUSED
        return Preview([plan.start, area], ok, f"past the {edge.value} edge" if edge else "")
    if plan.kind is DragKind.PLACE:
        return Preview([plan.start, area], True, "GM override" if plan.override else "place")
    if plan.kind is DragKind.REFUSED:
        return Preview([plan.start, area], False, "not now")
    if area in plan.reach:
        path = movement.path_to(plan.reach, area)
        c = enc.combatant(plan.cid)
        cost = mapgeom.areas_text(movement.as_areas(c, plan.reach[area].cost))
        stop = ", stops" if plan.reach[area].stops else ""
        return Preview(path, True, f"{cost}{stop}")
    return Preview([plan.start, area], False, "out of reach")


def move_facing(path: list[Area], current: float) -> float:
    """The facing after a move: towards where the character went (the GM turns it after)."""
    if len(path) < 2 or path[0] == path[-1]:
        return current
    return facing_towards(path[0], path[-1])


def drop(doc, plan: DragPlan, area: Area) -> Outcome:
    """The Ops for dropping the dragged character at ``area`` inside the zone, the reason
    it is refused, or (outside the zone) the edge it went past."""
    enc: Encounter = doc.encounter
    c = enc.combatant(plan.cid)
    if area == plan.start:
        return Outcome()
    if not enc.zone.contains(area):
        edge = enc.zone.edge_beyond(area)
        if edge is None:  # a hole inside the zone's bounds: nothing to extend or exit
            return Outcome(reason=f"({area[0]}, {area[1]}) is not part of the zone.")
        on_edge = plan.start in mapgeom.edge_areas(enc.zone.area_bounds(), edge.value)
        if plan.kind is DragKind.REFUSED and not on_edge:
            return Outcome(reason=plan.reason)
        return Outcome(edge=edge)
    if plan.kind is DragKind.REFUSED:
        return Outcome(reason=plan.reason)
    if plan.kind is DragKind.PLACE:
        return Outcome([PlaceCombatant(plan.cid, area)], f"Place {c.name}")
    if area in plan.reach:
        path = movement.path_to(plan.reach, area)
        op = MoveCombatant(plan.cid, tuple(path), move_facing(path, c.facing), plan.maneuver)
        return Outcome([op], f"Move {c.name}")
    return Outcome(reason=_refusal(doc, enc, plan, area))


def _refusal(doc, enc: Encounter, plan: DragPlan, area: Area) -> str:
    """The model's reason a move to ``area`` is refused (a straight path, asked)."""
    c = enc.combatant(plan.cid)
    path = tuple(mapgeom.straight_path(plan.start, area))
    op = MoveCombatant(plan.cid, path, move_facing(list(path), c.facing), plan.maneuver)
    reason = doc.try_op(op) if doc is not None else _trial_reason(enc, op)
    if reason:
        return reason
    return f"{c.name} cannot reach ({area[0]}, {area[1]}) this action (E14)."


def _trial_reason(enc: Encounter, op: Op) -> str:
    try:
        enc.apply(op)
    except IllegalOp as exc:
        return sentence(str(exc))
    return ""


def edge_choices(enc: Encounter, edge: Edge) -> list[tuple[str, str]]:
    """The two things a drop past ``edge`` can mean, the edge rule's choice first:
    ("extend", words) and ("exit", words)."""
    rule = enc.zone.edge_rule(edge)
    note = f" ({rule.note})" if rule.note else ""
    extend = ("extend", f"Extend the zone {edge.value}wards and go there")
    override = "" if rule.exits else " (GM override: this edge extends the zone, E9)"
    leave = ("exit", f"Exit the encounter over the {edge.value} edge{note}{override}")
    return [leave, extend] if rule.exits else [extend, leave]


def edge_drop(
    doc, plan: DragPlan, area: Area, edge: Edge, choice: str, rng: random.Random | None = None
) -> Outcome:
    """The Ops for a drop past ``edge``: "extend" draws a new row or column of tiles and
    moves there; "exit" moves to the edge if needed and leaves the encounter (E9). Either
    is one undo step."""
    enc: Encounter = doc.encounter
    c = enc.combatant(plan.cid)
    bounds = enc.zone.area_bounds()
    if choice == "extend":
        if plan.kind is DragKind.REFUSED:
            return Outcome(reason=plan.reason)
        extension = draw_extension(enc, edge, rng)
        target = mapgeom.beyond_band(bounds, edge.value, area, depth=TILE)
        text = f"Extend the zone {edge.value} and move {c.name}"
        if plan.kind is DragKind.PLACE:
            return Outcome([extension, PlaceCombatant(plan.cid, target)], text)
        trial = Encounter.from_state(enc.state())
        trial.apply(extension)
        try:
            reach = movement.reachable(trial, plan.cid, plan.budget)
        except IllegalOp as exc:
            return Outcome(reason=sentence(str(exc)))
        if target not in reach:
            return Outcome(reason=_refusal(None, trial, plan, target))
        path = movement.path_to(reach, target)
        move = MoveCombatant(plan.cid, tuple(path), move_facing(path, c.facing), plan.maneuver)
        return Outcome([extension, move], text)
    line = mapgeom.edge_areas(bounds, edge.value)
    leave = ExitCombatant(plan.cid, edge, override=not enc.zone.edge_rule(edge).exits)
    text = f"{c.name} exits {edge.value}"
    if plan.start in line:
        return Outcome([leave], text)
    if plan.kind is DragKind.REFUSED:
        return Outcome(reason=plan.reason)
    if plan.kind is DragKind.PLACE:
        spot = mapgeom.nearest(line, area)
        return Outcome([PlaceCombatant(plan.cid, spot), leave], text)
    open_spots = [a for a in line if a in plan.reach and not plan.reach[a].stops]
    spots = open_spots or [a for a in line if a in plan.reach]
    if not spots:
        return Outcome(reason=_refusal(doc, enc, plan, mapgeom.nearest(line, area)))
    spot = mapgeom.nearest(spots, area)
    path = movement.path_to(plan.reach, spot)
    move = MoveCombatant(plan.cid, tuple(path), move_facing(path, c.facing), plan.maneuver)
    return Outcome([move, leave], text)
