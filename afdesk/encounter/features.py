"""One row per thing a character can do or be: its snaps (E5) and its states (E5-E7, E14,
E17), each declared once, as data.

A row says what the thing is called and which rule it comes from, when it is available (and
the reason when not), the modifier it grants and to which checks, when that is used up or
expires, its token badge, its line in the Character dock and its log line. The contest
(``contest.py``), the Ops (``ops/economy.py``, ``ops/check.py``), the map badges, the
Character dock, the menus and the state-machine test all read these rows, so a new snap with
a modifier and a badge is one row here (and a ``StateKind`` name for the state it gives, which
files hold) plus its test; see docs/architecture.md, "Where new things go".
"""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy
from afdesk.encounter.checks import DefenseKind, Via
from afdesk.encounter.combatant import Combatant, State, StateKind
from afdesk.encounter.economy import SnapKind
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

STATES: dict[str, StateRow] = {str(r.kind): r for r in _STATES}
"""Every state by its kind, in the order badges and the dock show them."""
SNAPS: dict[str, SnapRow] = {str(r.kind): r for r in _SNAPS}
"""Every snap by its kind, in menu order."""


@contextmanager
def registered(*rows: StateRow | SnapRow) -> Iterator[None]:
    """Rows added for the length of a ``with`` block (a test's made-up snap); the tables are
    as they were afterwards."""
    before = dict(STATES), dict(SNAPS)
    try:
        for row in rows:
            if isinstance(row, StateRow):
                STATES[str(row.kind)] = row
            else:
                SNAPS[str(row.kind)] = row
        yield
    finally:
        STATES.clear()
        STATES.update(before[0])
        SNAPS.clear()
        SNAPS.update(before[1])


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
    "SNAPS",
    "STATES",
    "Bonus",
    "SnapRow",
    "StateRow",
    "badge_text",
    "bonuses",
    "consumed_state",
    "dock_text",
    "extra_defenses",
    "gives_defense",
    "has_defenses",
    "plain_snaps",
    "registered",
    "shown_states",
    "snap_log",
    "snap_refusal",
    "snap_row",
    "state_row",
    "use_snap",
    "via_state",
]
