"""One row per thing a character can do or be: its snaps (E5), actions (E6) and states
(E5-E7, E14, E17), each declared once, as data.

A row says what the thing is called and which rule it comes from, when it is available (and
the reason when not), the modifier it grants and to which checks, when that is used up or
expires, its token badge, its line in the Character dock and its log line. The contest
(``contest.py``), the Ops (``ops/economy.py``, ``contest/ops.py``), the map badges, the
Character dock, the menus and the state-machine test all read these rows, so a new snap with
a modifier and a badge is one row here (and a ``StateKind`` name for the state it gives, which
files hold) plus its test; see docs/architecture.md, "Where new things go".
"""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import msgspec

from afdesk.encounter import economy, movement
from afdesk.encounter.checks import DefenseKind, Via
from afdesk.encounter.combatant import Combatant, State, StateKind
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


# --------------------------------------------------------------------------------- rows


class Bonus(msgspec.Struct, frozen=True):
    """A modifier a state grants: ``dice`` (+N dice, -N Interference, R1) on the checks
    named in ``checks``, with its reason (``why``, ``{name}`` the character's name).

    ``checks`` holds what the modifier applies to: "any" (every check the character makes
    or defends with), "check" (its own checks), "defense" (every defense), a defense
    ("dodge", "parry", "insight", "sneak", or a guard-only "counter", "dive", "retort") or
    a check kind ("hack", "aim", ...). ``when`` names a fact of the contest the modifier
    also needs ("cover": the cover next to the defender is on the attack line, E5)."""

    dice: int
    checks: frozenset[str]
    why: str
    label: str = ""
    """The modifier's name in the contest dialog ("" : the state's label)."""
    key: str = ""
    """The modifier's key in a contest record ("" : the state's kind); files hold it."""
    consumed: bool = False
    """The check that counts it uses it up: the state ends (Prepare, E5)."""
    when: str = ""


class StateRow(msgspec.Struct, frozen=True):
    """A state a character can be in (E5-E7, E14, E17)."""

    kind: str
    label: str
    rule: str
    badge: str
    """The word on the token's badge (markers follow it: "BLEED 2")."""
    colour: str
    """The badge's colour."""
    dock: str
    """What the state does, after its label in the Character dock."""
    bonus: Bonus | None = None
    defense: tuple[DefenseKind, Via] | None = None
    """An extra defense the state gives until it ends (Fend: a parry, Quip: a retort, E5)."""
    defends: bool = False
    """A defense against every check that targets the character (Defend E6, Screen E7)."""


class SnapRow(msgspec.Struct, frozen=True):
    """A snap (E5), or standing up from down with the snap (E17)."""

    kind: str
    label: str
    rule: str
    log: str
    """The log line when it is used: ``{who}`` the character, ``{note}`` the GM's note."""
    grants: str = ""
    """The state the snap gives, until the character's next turn (``lasts`` turns ahead)."""
    lasts: int = 1
    requires: "Callable[[Encounter, Combatant], str] | None" = None
    """Why the character cannot use the snap now, or "" (Crouch needs cover, E5)."""
    effect: "Callable[[Combatant], Combatant] | None" = None
    """What else using it does to the character (standing up ends down, E17)."""
    check: str = ""
    """The check the snap is (hustle, creep: a plain check; distract, look: a contest);
    such snaps are offered and resolved as checks, not from the plain snap menu."""
    tip: str = ""
    """What it does, for the menus' tooltips."""


class ActionRow(msgspec.Struct, frozen=True):
    """An action (E6): what ``TakeAction`` does with it, and how the menus and log say it."""

    kind: str
    label: str
    rule: str
    log: str
    """The log line: ``{who}`` the character, ``{note}`` the GM's note."""
    grants: str = ""
    """The state the action gives, for ``lasts`` of the character's turns (None: until
    something else ends it)."""
    lasts: int | None = 1
    guards: int = 0
    """Extra guards it gives (Defend: one, E6)."""
    snaps: int = 0
    """Extra snaps it gives (a second snap, E5)."""
    removes: tuple[str, ...] = ()
    """States it ends (Recover: down and stall, E17, E14)."""
    requires: "Callable[[Encounter, Combatant], str] | None" = None
    """Why the character cannot take it now, or "" (beside having its action, E6)."""
    effect: "Callable[[Combatant], Combatant] | None" = None
    spends: bool = True
    """False: it keeps the action for later (Hesitate, E6)."""
    check: str = ""
    """The check the action is (attack, convince, hide: a contest, ResolveContest)."""
    own_op: str = ""
    """The Op that takes it instead of TakeAction (Screen comes out of turn, E7)."""
    menu: bool = True
    """Listed in the plain action menu (not a check, its own Op, or the GM's "other")."""
    tip: str = ""


# ------------------------------------------------------------------------- conditions


def _needs_cover(enc: "Encounter", c: Combatant) -> str:
    if economy.adjacent_cover(enc, c):
        return ""
    return f"{c.name} is not next to cover: nothing to crouch behind (E5)"


def _needs_down(enc: "Encounter", c: Combatant) -> str:
    return "" if c.has(StateKind.DOWN) else f"{c.name} is not down"


def _needs_hidden(enc: "Encounter", c: Combatant) -> str:
    if c.hidden:
        return ""
    return f"{c.name} is not hidden: Creep is for hidden characters (E5)"


def _needs_down_or_stall(enc: "Encounter", c: Combatant) -> str:
    if c.has(StateKind.DOWN) or c.has(StateKind.STALL):
        return ""
    return f"{c.name} is neither down nor stalled: nothing to recover"


def _not_interjecting(enc: "Encounter", c: Combatant) -> str:
    return "a hesitated action cannot hesitate again (E6)" if enc.turn.interjection else ""


def _maneuver(c: Combatant) -> Combatant:
    """Maneuver: move the character's speed (E6, E14)."""
    return c.with_economy(movement=c.economy.movement + movement.maneuver_ticks(c))


def _stand_up(c: Combatant) -> Combatant:
    """Standing up ends down; the action it would have lost goes with it (E17)."""
    c = c.without_state(StateKind.DOWN)
    if c.economy.action:
        c = c.with_economy(action=False, action_used="down")
    return c


# ------------------------------------------------------------------------------ tables

_ANY = frozenset({"any"})

_STATES: tuple[StateRow, ...] = (
    StateRow(
        StateKind.DOWN,
        "Down",
        "E17",
        "DOWN",
        "#b3121b",
        "-2 on all checks, speed 0; a snap or Recover removes it",
        Bonus(-2, _ANY, "{name} is down: penalty on all checks"),
    ),
    StateRow(
        StateKind.BLEEDING,
        "Bleeding",
        "E17",
        "BLEED",
        "#7d0a0a",
        "each turn hits = half the markers (rounded up), then one goes",
    ),
    StateRow(StateKind.BURNING, "Burning", "E17", "BURN", "#d45500", "resolve the fire each turn"),
    StateRow(StateKind.BLINDED, "Blinded", "E17", "BLIND", "#444444", "resolve it each turn"),
    StateRow(StateKind.EXHAUSTED, "Exhausted", "E15", "EXH", "#6d4c41", "after persevere"),
    StateRow(StateKind.HIDDEN, "Hidden", "E17", "HIDDEN", "#37474f", "at one of its decoys"),
    StateRow(StateKind.FALLING, "Falling", "E17", "FALL", "#6a1b9a", "resolve the fall"),
    StateRow(
        StateKind.STALL,
        "Stall",
        "E14",
        "STALL",
        "#6a1b9a",
        "-2 on all checks until recovered",
        Bonus(-2, _ANY, "{name} stalled: -2 until recovered"),
    ),
    StateRow(StateKind.TEETER, "Teetering", "E17", "TEETER", "#8e24aa", "a second teeter falls"),
    StateRow(StateKind.SHAKEN, "Shaken", "E17", "SHAKEN", "#5d4037", ""),
    StateRow(StateKind.WOUNDED, "Wounded", "E17", "WOUND", "#880e4f", ""),
    StateRow(
        StateKind.PREPARED,
        "Prepared",
        "E5",
        "PREP",
        "#1b7f3a",
        "+2 on the next check",
        Bonus(2, _ANY, "{name} prepared: +2 on the next check", consumed=True),
    ),
    StateRow(
        StateKind.CROUCHED,
        "Crouched",
        "E5",
        "CROUCH",
        "#33691e",
        "+2 to dodge attacks the adjacent cover lies across",
        Bonus(
            2,
            frozenset({"dodge"}),
            "{name} crouches behind the cover",
            label="Crouch",
            key="crouch",
            when="cover",
        ),
    ),
    StateRow(StateKind.FLYING, "Flying", "E14", "FLY", "#0277bd", "ignores ground segments"),
    StateRow(
        StateKind.DEFENDING,
        "Defending",
        "E6",
        "DEF",
        "#1565c0",
        "a defense against every check until the next turn",
        defends=True,
    ),
    StateRow(
        StateKind.SCREENING,
        "Screening",
        "E7",
        "SCREEN",
        "#1565c0",
        "defenses now; the next action is lost",
        defends=True,
    ),
    StateRow(
        StateKind.FENDING,
        "Fending",
        "E5",
        "FEND",
        "#00695c",
        "an extra parry until the next turn",
        defense=(DefenseKind.PARRY, Via.FEND),
    ),
    StateRow(
        StateKind.QUIPPING,
        "Quipping",
        "P5",
        "QUIP",
        "#ad1457",
        "an extra retort until the next turn",
        defense=(DefenseKind.RETORT, Via.QUIP),
    ),
    StateRow(
        StateKind.HESITATING,
        "Hesitating",
        "E6",
        "WAIT",
        "#616161",
        "keeps the action for after another's turn, at -2",
    ),
)

_SNAPS: tuple[SnapRow, ...] = (
    SnapRow(SnapKind.PREPARE, "Prepare", "E5", "{who} prepares: +2 on the next check (E5)",
            grants=StateKind.PREPARED, tip="+2 on the next check (E5)"),
    SnapRow(SnapKind.FEND, "Fend", "E5", "{who} fends: an extra parry until the next turn (E5)",
            grants=StateKind.FENDING, tip="An extra parry until your next turn (E5)"),
    SnapRow(SnapKind.QUIP, "Quip", "P5", "{who} quips: an extra retort until the next turn (P5)",
            grants=StateKind.QUIPPING, tip="An extra retort until your next turn (P5)"),
    SnapRow(SnapKind.CROUCH, "Crouch", "E5",
            "{who} crouches behind cover: +2 to dodge across it (E5)",
            grants=StateKind.CROUCHED, requires=_needs_cover,
            tip="+2 to dodge attacks across the adjacent cover (E5)"),
    SnapRow(SnapKind.EQUIP, "Equip", "E5", "{who} uses the snap to equip{note}"),
    SnapRow(SnapKind.ORDER, "Order", "E5", "{who} uses the snap to order{note}"),
    SnapRow(SnapKind.STAND, "Stand up", "E17", "{who} uses the snap to stand up{note}",
            requires=_needs_down, effect=_stand_up, tip="Stand up: down ends (E17)"),
    SnapRow(SnapKind.HUSTLE, "Hustle", "E5", "{who} hustles (snap){note}", check="hustle"),
    SnapRow(SnapKind.CREEP, "Creep", "E5", "{who} creeps (snap){note}",
            requires=_needs_hidden, check="creep"),
    SnapRow(SnapKind.DISTRACT, "Distract", "P5", "{who} distracts{note}", check="distract"),
    SnapRow(SnapKind.LOOK, "Look", "E5", "{who} looks{note}", check="look"),
)  # fmt: skip

_ACTIONS: tuple[ActionRow, ...] = (
    ActionRow(ActionKind.MANEUVER, "Maneuver", "E6", "{who} maneuvers{note}",
              effect=_maneuver, tip="Move your speed (E6)"),
    ActionRow(ActionKind.DEFEND, "Defend", "E6",
              "{who} defends: an extra guard and a defense against every check until the "
              "next turn (E6){note}", grants=StateKind.DEFENDING, guards=1,
              tip="An extra guard and a defense against every check until your next turn"),
    ActionRow(ActionKind.RECOVER, "Recover", "E17", "{who} recovers{note}",
              removes=(StateKind.DOWN, StateKind.STALL), requires=_needs_down_or_stall,
              tip="Remove down or stall (E17, E14)"),
    ActionRow(ActionKind.RECRUIT, "Recruit", "E6", "{who}: recruit{note}"),
    ActionRow(ActionKind.HESITATE, "Hesitate", "E6",
              "{who} hesitates, keeping the action (E6){note}", grants=StateKind.HESITATING,
              lasts=None, spends=False, requires=_not_interjecting,
              tip="Keep the action for after another character's turn, at -2 (E6)"),
    ActionRow(ActionKind.SECOND_SNAP, "Second snap", "E5",
              "{who} gives up the action for a second snap (E5){note}", snaps=1,
              tip="Give up the action for a second snap (E5)"),
    ActionRow(ActionKind.ATTACK, "Attack", "E6", "{who}: attack{note}", check="attack",
              menu=False),
    ActionRow(ActionKind.CONVINCE, "Convince", "P4", "{who}: convince{note}",
              check="convince", menu=False),
    ActionRow(ActionKind.HIDE, "Hide", "E6", "{who}: hide{note}", check="hide", menu=False),
    ActionRow(ActionKind.SCREEN, "Screen", "E7", "{who}: screen{note}", own_op="Screen",
              menu=False),
    ActionRow(ActionKind.OTHER, "Other", "E6", "{who}: other{note}", menu=False),
)  # fmt: skip

_STANDINGS: "tuple[tuple[StateRow, Callable[[Combatant], bool]], ...]" = (
    (StateRow("reserve", "In reserve", "E2", "RESERVE", "#5d4037",
              "held back by the GM, dealt no reflex"), lambda c: c.in_reserve),
    (StateRow("out", "Out of the fight", "", "OUT", "#3e2723", "hits reached grit"),
     lambda c: c.exited.startswith("out of the fight")),  # DecideHarm's note
    (StateRow("left", "Left the encounter", "E9", "LEFT", "#3e2723", "over an edge"),
     lambda c: bool(c.exited) and not c.exited.startswith("out of the fight")),
)  # fmt: skip
"""Where a character stands that is not a state (its record says it): shown like one."""

STATES: dict[str, StateRow] = {str(r.kind): r for r in _STATES}
"""Every state by its kind, in the order badges and the dock show them."""
SNAPS: dict[str, SnapRow] = {str(r.kind): r for r in _SNAPS}
"""Every snap by its kind, in menu order."""
ACTIONS: dict[str, ActionRow] = {str(r.kind): r for r in _ACTIONS}
"""Every action by its kind, in menu order."""


@contextmanager
def registered(*rows: StateRow | SnapRow | ActionRow) -> Iterator[None]:
    """Rows added for the length of a ``with`` block (a test's made-up snap); the tables are
    as they were afterwards."""
    tables: tuple[dict[str, Any], ...] = (STATES, SNAPS, ACTIONS)
    before = [dict(t) for t in tables]
    try:
        for row in rows:
            if isinstance(row, StateRow):
                STATES[str(row.kind)] = row
            elif isinstance(row, SnapRow):
                SNAPS[str(row.kind)] = row
            else:
                ACTIONS[str(row.kind)] = row
        yield
    finally:
        for table, old in zip(tables, before, strict=True):
            table.clear()
            table.update(old)


# ----------------------------------------------------------------------------- queries


def state_row(kind: str) -> StateRow:
    """The row of state ``kind``; a state with no row (impossible in a file) shows its
    name."""
    row = STATES.get(str(kind))
    if row is None:
        text = str(kind)
        return StateRow(text, text.capitalize(), "", text.upper()[:6], "#616161", "")
    return row


def snap_row(kind: str) -> SnapRow:
    """The row of snap ``kind``, or :class:`IllegalOp` if there is none."""
    row = SNAPS.get(str(kind))
    if row is None:
        raise IllegalOp(f"there is no snap {str(kind)!r} (E5)")
    return row


def plain_snaps() -> list[SnapRow]:
    """The snaps the snap menu lists as they are: those that are not a check."""
    return [r for r in SNAPS.values() if not r.check]


def snap_refusal(enc: "Encounter", c: Combatant, kind: str) -> str:
    """Why ``c`` cannot use snap ``kind`` for what it needs (cover, down, hidden), or ""."""
    row = snap_row(kind)
    return row.requires(enc, c) if row.requires is not None else ""


def use_snap(enc: "Encounter", c: Combatant, kind: str) -> Combatant:
    """``c`` after using snap ``kind``'s effect (the snap itself is spent by the caller):
    the state it grants until the next turn, or its own effect (E5, E17)."""
    row = snap_row(kind)
    why = snap_refusal(enc, c, kind)
    if why:
        raise IllegalOp(why)
    if row.grants:
        c = c.with_state(State(row.grants, until=c.economy.turns + row.lasts))  # type: ignore[arg-type]
    if row.effect is not None:
        c = row.effect(c)
    return c


def snap_log(kind: str, who: str, note: str = "") -> str:
    return snap_row(kind).log.format(who=who, note=f": {note}" if note else "")


def action_row(kind: str) -> ActionRow:
    """The row of action ``kind``, or :class:`IllegalOp` if there is none."""
    row = ACTIONS.get(str(kind))
    if row is None:
        raise IllegalOp(f"there is no action {str(kind)!r} (E6)")
    return row


def plain_actions() -> list[ActionRow]:
    """The actions the action menu lists as they are (checks are offered as checks)."""
    return [r for r in ACTIONS.values() if r.menu]


def take_action(enc: "Encounter", c: Combatant, kind: str) -> Combatant:
    """``c`` after taking action ``kind`` (E6): its action spent (or kept, Hesitate), the
    state it grants, extra guards and snaps, the states it ends, its own effect."""
    row = action_row(kind)
    if row.check:
        raise IllegalOp(f"{row.label} is a check: resolve it as a contest")
    if row.own_op:
        raise IllegalOp(f"a {row.label} is its own Op (it can come out of turn)")
    t = enc.turn
    if not row.spends:
        economy.require_action(c, kind, t.exchange, t.round)
    why = row.requires(enc, c) if row.requires is not None else ""
    if why:
        raise IllegalOp(why)
    if row.spends:
        c = economy.use_action(c, kind, t.exchange, t.round)
    for gone in row.removes:
        c = c.without_state(gone)  # type: ignore[arg-type]
    if row.grants:
        until = None if row.lasts is None else c.economy.turns + row.lasts
        c = c.with_state(State(row.grants, until=until))  # type: ignore[arg-type]
    if row.guards or row.snaps:
        e = c.economy
        c = c.with_economy(guards=e.guards + row.guards, snaps=e.snaps + row.snaps)
    return row.effect(c) if row.effect is not None else c


def action_log(kind: str, who: str, note: str = "") -> str:
    return action_row(kind).log.format(who=who, note=f": {note}" if note else "")


def dock_text(st: State) -> str:
    """A state's line in the Character dock: label (markers), what it does, until, note."""
    row = state_row(st.kind)
    text = f"{row.label} {st.markers}" if st.markers else row.label
    if row.dock:
        text += f": {row.dock}"
    if row.rule:
        text += f" ({row.rule})"
    if st.until is not None:
        text += f", until turn {st.until}"
    if st.note:
        text += f" — {st.note}"
    return text


def badge_text(st: State) -> str:
    row = state_row(st.kind)
    return f"{row.badge} {st.markers}" if st.markers else row.badge


def shown_states(c: Combatant) -> list[State]:
    """``c``'s states in the rows' order (a state with no row last)."""
    order = {k: i for i, k in enumerate(STATES)}
    return sorted(c.states, key=lambda s: order.get(str(s.kind), len(order)))


def standings(c: Combatant) -> list[StateRow]:
    """What ``c``'s record says beside its states, as rows: in reserve, out, left."""
    if not c.in_reserve and not c.exited:  # what every row of _STANDINGS reads: most
        return []  # characters, asked at every change by the map's layers, have none
    return [row for row, holds in _STANDINGS if holds(c)]


def has_defenses(c: Combatant) -> bool:
    """Defend or Screen: a defense against every check that targets it (E6, E7)."""
    return any(state_row(s.kind).defends for s in c.states)


def extra_defenses(c: Combatant) -> list[tuple[DefenseKind, Via]]:
    """The extra defenses ``c``'s states give (Fend a parry, Quip a retort, E5, P5)."""
    return [d for s in c.states if (d := state_row(s.kind).defense) is not None]


def gives_defense(c: Combatant, via: Via) -> bool:
    return any(d[1] is via for d in extra_defenses(c))


def via_state(via: Via) -> StateRow | None:
    """The state whose extra defense comes ``via`` (Fend, Quip)."""
    for row in STATES.values():
        if row.defense is not None and row.defense[1] is via:
            return row
    return None


def bonuses(
    c: Combatant, checks: Iterable[str], facts: Iterable[str] = ()
) -> list[tuple[StateRow, Bonus]]:
    """The bonuses of ``c``'s states that apply to a check named by ``checks`` ("any" and
    "check" or "defense" and its kind), given the contest's ``facts`` ("cover")."""
    names, known = frozenset(checks) | {"any"}, frozenset(facts)
    out = []
    for st in shown_states(c):
        row = state_row(st.kind)
        b = row.bonus
        if b is not None and b.checks & names and (not b.when or b.when in known):
            out.append((row, b))
    return out


def consumed_state(key: str) -> str:
    """The state a modifier with ``key`` uses up when a check counts it (Prepared, E5), or
    ""."""
    for row in STATES.values():
        b = row.bonus
        if b is not None and b.consumed and (b.key or str(row.kind)) == key:
            return str(row.kind)
    return ""


__all__ = [
    "ACTIONS",
    "SNAPS",
    "STATES",
    "ActionRow",
    "Bonus",
    "SnapRow",
    "StateRow",
    "action_log",
    "action_row",
    "badge_text",
    "bonuses",
    "consumed_state",
    "dock_text",
    "extra_defenses",
    "gives_defense",
    "has_defenses",
    "plain_actions",
    "plain_snaps",
    "registered",
    "shown_states",
    "snap_log",
    "snap_refusal",
    "snap_row",
    "standings",
    "state_row",
    "take_action",
    "use_snap",
    "via_state",
]
