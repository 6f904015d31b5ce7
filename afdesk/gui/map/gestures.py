"""The map tools' decisions as plain functions (no Qt), so they are tested without a
window: what a press starts, which facing a pointer gives, where a key steps, who Tab
selects next. The tools (``afdesk.gui.map.tools``) read Qt events and call these."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from afdesk.encounter.geometry import Area, Point, facing_towards, normalise_facing


class Gesture(enum.StrEnum):
    """What a left press on the GM's map starts (the move tool's choice)."""

    TURN = "turn"
    """On the selected character's facing knob: turn it (the facing tool)."""
    DRAG = "drag"
    """On a token: select it and drag it (move, place, or say why not)."""
    SELECT = "select"
    """On a hidden character's decoy: select the owner; decoys do not move."""
    BAND = "band"
    """On empty ground: a rubber band selects the tokens inside it; a click without
    moving clears the selection."""
    PAN = "pan"
    """On empty ground with Alt held: pan (the middle button pans anywhere)."""


def press_gesture(*, on_handle: bool, token: str, character: str, pan: bool = False) -> Gesture:
    """The gesture of a press: ``on_handle`` if the facing knob is under it, ``token`` the
    character whose token is under it, ``character`` the one drawn there (a token or a
    decoy's owner); "" for none. ``pan``: Alt is held, so empty ground pans."""
    if on_handle:
        return Gesture.TURN
    if character:
        return Gesture.DRAG if token == character else Gesture.SELECT
    return Gesture.PAN if pan else Gesture.BAND


def banded(
    corners: tuple[Point, Point], centres: dict[str, Point], order: Sequence[str]
) -> list[str]:
    """The characters whose token centres lie in the rectangle between two opposite
    ``corners`` (edges included), in roster ``order``."""
    (ax, ay), (bx, by) = corners
    left, right = min(ax, bx), max(ax, bx)
    top, bottom = min(ay, by), max(ay, by)
    return [
        cid
        for cid in order
        if cid in centres and left <= centres[cid][0] <= right and top <= centres[cid][1] <= bottom
    ]


def is_drag(dx: float, dy: float, threshold: float) -> bool:
    """Whether a press has moved far enough to be a drag (Qt's start-drag distance)."""
    return abs(dx) + abs(dy) >= threshold


def pointer_facing(centre: Point, pointer: Point) -> float:
    """The facing from a token's centre to the pointer, in whole degrees (E11: any angle)."""
    return normalise_facing(float(round(facing_towards(centre, pointer))))


def turned(facing: float, step: float) -> float:
    """A facing turned by ``step`` degrees (Q / E)."""
    return normalise_facing(facing + step)


def stepped(area: Area, delta: tuple[int, int]) -> Area:
    """The area one arrow-key step away."""
    return area[0] + delta[0], area[1] + delta[1]


def next_character(order: Sequence[str], current: str, step: int) -> str:
    """Tab / Shift+Tab: the next (``step`` 1) or previous (-1) character of ``order``
    after ``current``; from no selection, the first or the last. "" if nobody."""
    if not order:
        return ""
    i = list(order).index(current) + step if current in order else (0 if step > 0 else -1)
    return order[i % len(order)]
