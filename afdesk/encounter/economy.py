"""The turn economy (E3-E8): what a turn gives, what it takes, what states ask.

Durations count the character's own turns: "until your next turn" ends when its turn number
``economy.turns + 1`` starts; a Screen's "until the turn after that" one turn later (E7).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import msgspec

from afdesk.encounter.combatant import Combatant, Economy, State, StateKind, bleeding_hits
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area, neighbours
from afdesk.encounter.words import plural

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class SnapKind(enum.StrEnum):
    """Snaps (E5), plus standing up from down (E17)."""

    CREEP = "creep"
    CROUCH = "crouch"
    DISTRACT = "distract"
    FEND = "fend"
    EQUIP = "equip"
    HUSTLE = "hustle"
    LOOK = "look"
    ORDER = "order"
    PREPARE = "prepare"
    QUIP = "quip"
    STAND = "stand"

    @property
    def label(self) -> str:
        return "Stand up" if self is SnapKind.STAND else self.value.capitalize()


class ActionKind(enum.StrEnum):
    """Actions (E6)."""

    ATTACK = "attack"
    CONVINCE = "convince"
    DEFEND = "defend"
    HIDE = "hide"
    MANEUVER = "maneuver"
    RECOVER = "recover"
    RECRUIT = "recruit"
    SCREEN = "screen"
    HESITATE = "hesitate"
    SECOND_SNAP = "second-snap"
    OTHER = "other"

    @property
    def label(self) -> str:
        return {"second-snap": "Second snap"}.get(self.value, self.value.capitalize())


def start_turn(c: Combatant, exchange: int, round_no: int) -> Combatant:
    """E3: the guard resets, a snap and an action arrive; effects "until your next turn"
    end. A Screen took this turn's action (E7); Down takes it for Recover (E17)."""
    turns = c.economy.turns + 1
    states = tuple(s for s in c.states if s.until is None or s.until > turns)
    lost = c.economy.lose_next_action
    econ = Economy(
        turns=turns,
        guards=1,
        snaps=1,
        action=not lost,
        action_used="screen" if lost else "",
        acted_round=(exchange, round_no) if lost else c.economy.acted_round,
    )
    return msgspec.structs.replace(c, states=states, economy=econ)


def end_turn(c: Combatant) -> Combatant:
    """An unused snap is lost at the end of the turn (E5); so is an unused action, unless
    the character hesitates with it (E6)."""
    keep = c.has(StateKind.HESITATING) and c.economy.action
    return c.with_economy(snaps=0, action=keep, movement=0, exit_free=False, exit_to=None)


def end_round(c: Combatant) -> Combatant:
    """A hesitated action not taken by the end of the round is lost: never two actions in
    one round (E6)."""
    if c.has(StateKind.HESITATING):
        c = c.without_state(StateKind.HESITATING).with_economy(action=False)
    return c


def require_action(c: Combatant, kind: str, exchange: int, round_no: int) -> None:
    """Refuse with the reason when ``c`` has no action for ``kind`` now."""
    econ = c.economy
    if not econ.action:
        if econ.action_used == "screen":
            raise IllegalOp(f"{c.name} has no action this turn: the Screen took it (E7)")
        if econ.action_used:
            raise IllegalOp(f"{c.name} has already used the action this turn ({econ.action_used})")
        raise IllegalOp(f"{c.name} has no action now")
    if c.has(StateKind.DOWN) and kind != ActionKind.RECOVER:
        raise IllegalOp(
            f"{c.name} is down: the action is lost until Recover removes the down state (E17)"
        )
    if econ.acted_round == (exchange, round_no) and not c.has(StateKind.HESITATING):
        raise IllegalOp(f"{c.name} already acted this round: never two actions in one round (E6)")


def use_action(c: Combatant, kind: str, exchange: int, round_no: int) -> Combatant:
    require_action(c, kind, exchange, round_no)
    c = c.with_economy(action=False, action_used=str(kind), acted_round=(exchange, round_no))
    if c.has(StateKind.HESITATING):
        c = c.without_state(StateKind.HESITATING)
    return c


def require_snap(c: Combatant) -> None:
    if c.economy.snaps < 1:
        raise IllegalOp(f"{c.name} has no snap left this turn (E5)")


def use_snap(c: Combatant) -> Combatant:
    require_snap(c)
    return c.with_economy(snaps=c.economy.snaps - 1)


def hustled(c: Combatant, succeeded: bool) -> Combatant:
    """Hustle: on a successful move check, extra areas of half the speed, at least 1 after
    a Maneuver (E5)."""
    if not succeeded:
        return c
    from afdesk.encounter import movement

    maneuvered = c.economy.action_used == str(ActionKind.MANEUVER)
    return c.with_economy(movement=c.economy.movement + movement.hustle_ticks(c, maneuvered))


def crept(c: Combatant, succeeded: bool, decoy: Area | None = None) -> Combatant:
    """Creep: while hidden, a sneak check or lose a decoy (E5)."""
    if not c.hidden:
        raise IllegalOp(f"{c.name} is not hidden: Creep is for hidden characters (E5)")
    if succeeded or not c.decoys:
        return c
    return c.without_decoy((decoy[0], decoy[1]) if decoy else c.decoys[0])


def require_guard(c: Combatant) -> None:
    if c.economy.guards < 1:
        raise IllegalOp(
            f"{c.name}'s guard is already used: it returns on {c.name}'s next turn (E4)"
        )


def use_guard(c: Combatant) -> Combatant:
    require_guard(c)
    return c.with_economy(guards=c.economy.guards - 1)


def state_until(c: Combatant, kind: StateKind, turns_ahead: int = 1, **kw: Any) -> Combatant:
    return c.with_state(State(kind, until=c.economy.turns + turns_ahead, **kw))


def adjacent_cover(enc: Encounter, c: Combatant) -> bool:
    """Crouch needs cover next to the character (E5); its own area counts too."""
    if c.area is None:
        return False
    return enc.terrain_at(c.area).cover or any(enc.terrain_at(a).cover for a in neighbours(c.area))


def turn_prompts(enc: Encounter, c: Combatant) -> list[str]:
    """What the character's states ask of it at the start of its turn (E3, E10, E17)."""
    out = []
    if c.has(StateKind.DOWN):
        out.append("Down: the action is lost until Recover (or a snap to stand) removes it")
    done = c.economy.resolved  # ongoing states resolve once on each turn (E3)
    bleeding = c.state(StateKind.BLEEDING)
    if bleeding and bleeding.markers and "bleeding" not in done:
        hits = plural(bleeding_hits(bleeding.markers), "hit")
        out.append(f"Bleeding {bleeding.markers}: suffer {hits}, then remove one marker")
    burning = c.state(StateKind.BURNING)
    if burning and "burning" not in done:
        out.append(f"{burning.label()}: resolve the fire")
    if c.has(StateKind.BLINDED) and "blinded" not in done:
        out.append("Blinded: resolve it this turn")
    if c.has(StateKind.FALLING):
        out.append("Falling: resolve the fall (the action may try to stop it first)")
    if c.has(StateKind.TEETER):
        out.append("Teetering: a second teeter means a fall")
    if c.has(StateKind.STALL):
        out.append("Stall: -2 on all checks until recovered")
    if c.area is not None:
        t = enc.terrain_at(c.area)
        if t.slippery:
            out.append("Slippery ground: a balance check, or fall down (E10)")
        if t.water and not c.has(StateKind.FLYING):
            out.append("In water: swim speed, and may drown (E10)")
    if c.hidden:
        out.append(f"Hidden with {len(c.decoys)} decoy(s)")
    if c.economy.action_used == "screen":
        out.append("The Screen took this turn's action (E7)")
    out.extend(c.economy.pending)  # what the terrain asked this turn (E10)
    return out
