"""Moving on the map (E11, E14)."""

from collections.abc import Iterable
from typing import TYPE_CHECKING

from afdesk.encounter import economy, movement
from afdesk.encounter.actor import require_actor
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area, direction_name, normalise_facing
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.requires import area_text, name, require_on_map

if TYPE_CHECKING:
    from fractions import Fraction

    from afdesk.encounter.interface import Encounter


def _areas(value: "Fraction") -> str:
    if value.denominator == 1:
        n = value.numerator
        return f"{n} area" + ("" if n == 1 else "s")
    return f"{float(value):.1f} areas"


def _terrain_words(enc: "Encounter", areas: Iterable[Area]) -> str:
    """What on these areas made them dear, for a refusal: "Rough costs 2, " ..."""
    words = []
    terrain = [enc.terrain_at(a) for a in areas]
    if any(t.rough for t in terrain):
        words.append("Rough costs 2")
    if any(t.steep for t in terrain):
        words.append("Steep needs the climb speed")
    if any(t.water for t in terrain):
        words.append("Water needs the swim speed")
    return "".join(f"{w}, " for w in words)


class MoveCombatant(Op, frozen=True):
    """The character whose turn it is moves along ``path`` and then picks a facing (E11,
    E14). ``maneuver`` spends the action on a Maneuver first (a drag does it when no
    movement is left); otherwise the move uses what a Maneuver or Hustle left. ``jump``:
    the path is the start and the landing area, and only those count (E14)."""

    id: str
    path: tuple[Area, ...]
    facing: float
    maneuver: bool = False
    jump: bool = False
    label = "Move"

    def execute(self, enc: "Encounter") -> None:
        c = require_actor(enc, self.id, "move")
        require_on_map(c, "move")
        path: list[Area] = [(a[0], a[1]) for a in self.path]  # decoded paths hold lists
        if len(path) < 2:
            raise IllegalOp(f"{c.name} needs a path of at least one step to move")
        if self.jump and len(path) != 2:
            raise IllegalOp(f"a jump goes from {c.name}'s area to the landing area (E14)")
        t = enc.turn
        if self.maneuver:
            c = economy.use_action(c, ActionKind.MANEUVER, t.exchange, t.round)
            c = c.with_economy(movement=c.economy.movement + movement.maneuver_ticks(c))
        budget = c.economy.movement
        if budget <= 0:
            raise IllegalOp(
                f"{c.name} has no movement left: Maneuver (the action) or Hustle (a snap and "
                "a move check) first"
            )
        if self.jump:
            cost = movement.jump_cost(enc, c, path[0], path[1])
        else:
            cost = movement.path_cost(enc, c, path)
        if cost > budget:
            have = movement.as_areas(c, budget)
            need = movement.as_areas(c, cost)
            raise IllegalOp(
                f"{c.name} can move {_areas(have)} more; that path costs {_areas(need)} "
                f"({_terrain_words(enc, path[1:])}E14)"
            )
        end = path[-1]
        left = budget - cost
        if enc.opponents_in(end, c):
            left = 0  # entering an opponent's overlap ends the move (E14)
        if c.economy.exit_to is not None and not c.economy.exit_free:
            left = 0  # a lost leave-overlap check: one step in front, then the move ends
        entered = [end] if self.jump else path[1:]
        asks = movement.entering_prompts(enc, c, entered)
        c = c.replace(area=end, facing=normalise_facing(self.facing))
        c = c.with_economy(
            movement=left,
            exit_free=False,
            exit_to=None,
            pending=(*c.economy.pending, *asks),
        )
        enc.put(c)
        current_mode(enc).entered(enc, c.id, entered)  # a guardian and decoys (N4b)

    def describe(self, enc: "Encounter") -> str:
        c = enc.combatants.get(self.id)
        who = name(enc, self.id)
        start, end = self.path[0], self.path[-1]
        verb = "jumps" if self.jump else "moves"
        text = f"{who} {verb} {area_text(start)} -> {area_text(end)}"
        if c is not None:
            try:
                steps = [(a[0], a[1]) for a in self.path]
                ticks = (
                    movement.jump_cost(enc, c, steps[0], steps[-1])
                    if self.jump
                    else movement.path_cost(enc, c, steps)
                )
                text += f" ({_areas(movement.as_areas(c, ticks))})"
            except IllegalOp:
                pass
            foes = enc.opponents_in((end[0], end[1]), c)
            if foes:
                text += f" into an overlap with {', '.join(f.name for f in foes)}"
            steps = [(a[0], a[1]) for a in self.path]
            asks = movement.entering_prompts(enc, c, steps[-1:] if self.jump else steps[1:])
            text += f", facing {direction_name(self.facing)}"
            text += "".join(f" — {a}" for a in asks)
            entered = steps[-1:] if self.jump else steps[1:]
            return text + current_mode(enc).entered_note(enc, self.id, entered)
        return text + f", facing {direction_name(self.facing)}"

    def title(self, enc: "Encounter") -> str:
        return f"Move {name(enc, self.id)}"
