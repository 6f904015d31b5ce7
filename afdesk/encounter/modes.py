"""Encounter modes as objects: what each mode owns and does (E16).

The mode of an encounter (``enc.mode``, a :class:`~afdesk.encounter.state.Mode` that files
hold, declared by the mode itself) names an :class:`EncounterMode` object here; the object
owns

- its part of the state (:attr:`EncounterMode.part`, None for battle; see
  :mod:`afdesk.encounter.parts`),
- its phases of play (:attr:`EncounterMode.phases`),
- what "next turn" does (:meth:`EncounterMode.next_turn`; the ``NextTurn`` Op delegates),
- which actions, snaps and checks it offers (:meth:`EncounterMode.offers`), so menus and
  docks ask the mode instead of comparing its name, and what else its rules say (a
  dispute is a low-activity encounter for persevere, E15),
- what happens when the encounter enters or leaves it (:meth:`enter`, :meth:`leave`).

Battle is here; every other mode registers its object from its own folder's ``mode.py``
with :func:`register_mode` (chase, dispute, infiltration: the list of installed modes,
:mod:`afdesk.encounter.installed`, imports them), with no ``if mode is DISPUTE`` anywhere
else.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import msgspec

from afdesk.encounter import economy, limits
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.parts import Part, set_mode_part
from afdesk.encounter.reflex import ROUNDS
from afdesk.encounter.state import BATTLE, Mode, Phase, TurnState, forget_mode

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.interface import Encounter
    from afdesk.rules.verdict import Verdict

T = TypeVar("T")


class EncounterMode:
    """What a mode of play owns and does (see the module). Subclass it for a new mode."""

    mode: ClassVar[Mode]
    """The value files hold for this mode."""
    part: ClassVar[Part | None] = None
    """The mode's own part of the encounter (chase state, ...), or None."""
    bounds: ClassVar[dict[type, tuple[limits.Bound, ...]]] = {}
    """The bounded numbers of the mode's own records, by record type
    (:data:`afdesk.encounter.limits.BOUNDS`)."""
    phases: ClassVar[tuple[Phase, ...]] = tuple(Phase)
    """The phases play goes through in this mode, in order."""
    low_activity: ClassVar[bool] = False
    """Little physical activity: persevere gets +2 at the end (E15)."""
    decoy_owners_secret: ClassVar[bool] = False
    """The players' screen never says whose a decoy is (an infiltration, N2: the GM notes
    privately whom each shared decoy stands for); in battle it shows the owner's label."""
    surprise_leaves_down: ClassVar[bool] = False
    """N7 holds: nothing contests a surprise attack (from hiding) unless the target's
    perception stood, and one that lands without it also leaves its target down (E17): in
    an infiltration, not in battle."""
    op_tags: ClassVar[frozenset[str]] = frozenset()
    """The tags of the mode's own Ops (files, journals and logs name them), which
    :meth:`import_ops` registers. Declared here so that the mode's Op modules are
    imported only when a file's log names one of them, when the mode is in play or when
    every Op is asked for (:mod:`afdesk.encounter.registry`): the start opens a battle
    without them. A test holds each declaration to the Ops its modules define."""
    _ops_loaded: bool = False

    def import_ops(self) -> None:
        """Import the modules of the mode's own Ops (registering them). A mode whose
        module imports its Ops itself (a test's, a plug-in's) has nothing to do here."""

    def load_ops(self) -> None:
        """Register the mode's Ops (:meth:`import_ops`), once."""
        if not self._ops_loaded:
            self._ops_loaded = True
            self.import_ops()

    @property
    def label(self) -> str:
        return self.mode.label

    # ------------------------------------------------------------------ offers

    def offers(self, kind: object) -> bool:
        """Whether this mode offers an action, snap or check kind (an ``ActionKind``, a
        ``SnapKind``, a contest action): menus leave out what a mode does not offer."""
        return True

    def offered(self, kinds: Iterable[T]) -> list[T]:
        """The ``kinds`` this mode offers, in their order."""
        return [k for k in kinds if self.offers(k)]

    def holds_no_reflex(self, enc: Encounter) -> frozenset[str]:
        """Characters this mode deals no reflex card and gives no turn of their own (E2):
        none in battle; a vehicle's helm and crew in a chase (H5)."""
        return frozenset()

    def turn_refusal(self, enc: Encounter, c: Combatant, kind: str) -> str:
        """Why ``c`` may not act on its turn in this mode ("" if it may): ``kind`` names
        the action, snap or check ("hide", ...; "" for a move or a facing). None in battle;
        an unaware guardian only watches in an infiltration (N3)."""
        return ""

    def attack_modifiers(self, enc: Encounter) -> tuple[tuple[str, str, int, str, str], ...]:
        """Modifiers this mode adds to every attack, as (key, label, dice, why, rule id):
        none in battle; an Obscured chase stage's -2 (H4)."""
        return ()

    # ------------------------------------------------------------------ checks

    def assemble(
        self, enc: Encounter, attacker: str, action: str, target: str, facet: str, weapon: str
    ) -> Any:
        """A check this mode assembles its own way (a dispute's Convince, or any check
        without a zone, P1-P5) as a ``Plan`` of :mod:`afdesk.encounter.contest.assembly`, or
        None for the usual assembly on the map (the contest, above the modes, asks this)."""
        return None

    def check_targets(
        self, enc: Encounter, attacker: str, action: str
    ) -> list[tuple[str, str, str]] | None:
        """Whom ``attacker``'s ``action`` may be aimed at in this mode, as (label, target
        id or "" for none, why not or ""), for the check dialog; None: the characters on
        the map, nearest first (battle). A dispute offers the neutral audience (P4a)."""
        return None

    def after_check(self, enc: Encounter, record: Any, v: Verdict) -> None:
        """What a resolved check (``record``, a ``ContestRecord``) also does to the mode's
        part (a dispute's Convince moves people, P4; Taunt's damage goes to grit, P5):
        nothing in battle."""

    def check_text(self, enc: Encounter, record: Any, v: Verdict) -> str:
        """What the log adds to a check's line for :meth:`after_check` ("" for nothing)."""
        return ""

    def damage_as_hits(self, enc: Encounter, record: Any) -> bool:
        """Whether a landed attack's damage lands as hits (E6): a dispute's Taunt deals it
        to grit instead (P5)."""
        return True

    def fate(self, part: Any, cid: str) -> str:
        """How ``cid`` ended by this mode's part (``part``, its value in a snapshot), in
        the recap's words: "captured", "escaped", "out" or "" (none in battle; a chase's
        result, H5)."""
        return ""

    def change_now(self, enc: Encounter) -> str:
        """Why the encounter may change mode right now, outside an exchange end (E16):
        a dispute that is over (P7, P9); "" for never."""
        return ""

    def retort_refusal(self, enc: Encounter, attacker: str, target: str, ally: str) -> str:
        """Why ``ally`` may not retort for ``target`` against ``attacker``'s social check
        ("" if it may): a retort "may contest a social check aimed at anyone" (P5, E4).
        A dispute lets anyone present on another side than the attacker's; battle offers
        no retort on another's behalf (its check dialog lists the target's own
        defenses)."""
        who = enc.combatants[ally].name if ally in enc.combatants else ally
        return (
            f"{who} cannot retort on another's behalf in {self.label.lower()}: P5 lets a "
            "character retort for another in a social conflict only"
        )

    def decisions(self, enc: Encounter) -> list[Any]:
        """What waits for the GM's decision in this mode, as ``afdesk.encounter.pending.
        Decision``s with the Ops that decide them: the window's decisions bar lists them
        with the rest (afdesk.encounter.pending). None in battle; a dispute's +1 tension
        after a fumble, its broken end's battle, chase or end (P7), closing it (P8); an
        infiltration's decoy lost to a fumble while hidden (N4d)."""
        return []

    def check_modifiers(
        self, enc: Encounter, c: Combatant, kind: str
    ) -> tuple[tuple[str, str, int, str, str], ...]:
        """Modifiers this mode adds to ``c``'s own check of ``kind`` ("creep", ...), as
        (key, label, dice, why, rule id): none in battle; +2 to Creep while hidden in an
        infiltration (N5)."""
        return ()

    def revealed(self, enc: Encounter, cid: str) -> None:
        """``cid`` came out of hiding by what it did (an attack from hiding, E6): nothing
        more in battle; the first intruder revealed raises the alarm in an infiltration
        (N6)."""

    def entered(self, enc: Encounter, cid: str, areas: list[tuple[int, int]]) -> None:
        """``cid`` moved through ``areas`` (each area entered, the last where it stopped):
        nothing more in battle; a guardian eliminates the decoys there in an infiltration
        (N4b)."""

    def entered_note(self, enc: Encounter, cid: str, areas: list[tuple[int, int]]) -> str:
        """What :meth:`entered` would add to the move's log line ("" for nothing)."""
        return ""

    def reveal_note(self, enc: Encounter, cid: str) -> str:
        """What :meth:`revealed` would add to the log line ("" for nothing)."""
        return ""

    def exit_words(self, edge: str) -> str:
        """What the players' ticker says of a character leaving over ``edge`` (E9): it
        leaves the fight; an intruder gets out (N8)."""
        return "leaves the fight"

    # ------------------------------------------------------------- changes of mode

    def enter(self, enc: Encounter) -> None:
        """The encounter becomes this mode (``ChangeMode``): set up the mode's part."""
        if self.part is not None:
            enc.set_part(self.part.name, self.part.default())

    def leave(self, enc: Encounter) -> None:
        """The encounter leaves this mode (``ChangeMode``)."""

    # --------------------------------------------------------------- next turn

    def next_turn(self, enc: Encounter) -> None:
        """Carry out "next turn" (the ``NextTurn`` Op): check, then change ``enc``."""
        raise NotImplementedError

    def next_turn_text(self, enc: Encounter) -> str:
        """The log line of "next turn" now."""
        return "Next turn"

    def next_turn_title(self, enc: Encounter) -> str:
        """The undo menu's words for "next turn" now."""
        return "Next turn"


class Battle(EncounterMode):
    """Battle (E1-E15): exchanges of five rounds; in each round every hand plays a reflex
    card and characters take their turns in card order; after round 5 the exchange ends."""

    mode = BATTLE

    def next_turn(self, enc: Encounter) -> None:
        """End the current turn and start the next in reflex order (E3); after the last
        turn the round ends, and after round 5 the exchange (E1)."""
        from afdesk.encounter.requires import require_phase

        require_phase(enc, Phase.TURNS, doing="go to the next turn")
        t = enc.turn
        current = t.actor
        if current in enc.combatants:
            c = economy.end_turn(enc.combatants[current])
            if t.interjection:
                c = c.without_state(StateKind.HESITATING).with_economy(action=False)
            enc.put(c)
        index = next_index(enc, t)
        if index < len(t.order):
            nxt = enc.combatants[t.order[index]]
            enc.put(economy.start_turn(nxt, t.exchange, t.round))
            enc.set_turn(msgspec.structs.replace(t, index=index, interjection=""))
            return
        for c in enc.roster():
            ended = economy.end_round(c)
            if ended is not c:
                enc.put(ended)
        over = t.round >= ROUNDS
        enc.set_turn(
            TurnState(
                phase=Phase.EXCHANGE_END if over else Phase.CARDS,
                exchange=t.exchange,
                round=t.round,
                exchanges_played=t.exchanges_played + (1 if over else 0),
            )
        )

    def next_turn_text(self, enc: Encounter) -> str:
        from afdesk.encounter.requires import name

        t = enc.turn
        current = name(enc, t.actor) if t.actor else "nobody"
        index = next_index(enc, t)
        if index < len(t.order):
            return f"{current}'s turn ends; {name(enc, t.order[index])}'s turn"
        if t.round >= ROUNDS:
            return f"{current}'s turn ends; exchange {t.exchange} is over"
        return f"{current}'s turn ends; round {t.round} is over"

    def next_turn_title(self, enc: Encounter) -> str:
        from afdesk.encounter.requires import name

        t = enc.turn
        index = next_index(enc, t)
        nxt = name(enc, t.order[index]) if index < len(t.order) else "end of the round"
        return f"Next turn: {name(enc, t.actor) if t.actor else 'nobody'} → {nxt}"


def next_index(enc: Encounter, t: TurnState) -> int:
    """The position of the next character in the round who is still there."""
    index = t.index + 1
    while index < len(t.order):
        nxt = enc.combatants.get(t.order[index])
        if nxt is not None and not nxt.exited:
            break
        index += 1
    return index


_MODES: dict[Mode, EncounterMode] = {}


def register_mode(obj: EncounterMode) -> None:
    """Make ``obj`` the behaviour of ``obj.mode`` (replacing the one registered before)."""
    _MODES[obj.mode] = obj
    set_mode_part(str(obj.mode), obj.part)
    limits.declare_bounds(obj.bounds)


def unregister_mode(mode: Mode) -> None:
    """Take away a mode registered for a while (a test's, a plug-in's): its object, its
    part, its bounds and its value."""
    obj = _MODES.pop(mode)
    set_mode_part(str(mode), None)
    limits.forget_bounds(obj.bounds)
    forget_mode(mode)


register_mode(Battle())


def mode_object(mode: Mode) -> EncounterMode:
    """The object that plays ``mode``."""
    try:
        return _MODES[Mode(mode)]
    except KeyError:
        raise KeyError(f"no behaviour is registered for the {mode} mode") from None


def current_mode(enc: Encounter) -> EncounterMode:
    """The mode object of ``enc`` now (the mode in play: its Ops registered)."""
    obj = mode_object(enc.mode)
    if not obj._ops_loaded:
        obj.load_ops()
    return obj


def registered_modes() -> tuple[EncounterMode, ...]:
    """Every registered mode's object, battle first, then by name."""
    return tuple(_MODES[m] for m in Mode if m in _MODES)


def mode_parts() -> tuple[Part, ...]:
    """The state parts the registered modes add to every encounter."""
    return tuple(m.part for m in _MODES.values() if m.part is not None)
