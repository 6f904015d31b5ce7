"""Typed GM commands: one object per thing the GM can ask of the encounter or of a
character, bound by the menus, the docks' buttons, the map and the shortcuts alike.

A command answers two questions and does one thing:

- ``available(doc, who) -> Availability``: may it run now, and if not, the model's reason
  (the menus disable it and show the reason; nothing in a widget decides it);
- ``offered(doc, who)``: whether a menu lists it at all for ``who`` (Creep only for a
  hidden character, the attacks only against someone else while another acts, ...);
- ``trigger(ctx, who)``: do it, through the :class:`CommandContext` (push an Op, open a
  dialog, ask the GM to confirm).

``who`` is a character id for character commands and "" for the encounter's. Every command
is registered once in :data:`REGISTRY` under a stable id (the id a menu entry carries);
looking up an id nobody registered raises :class:`UnknownCommand`. Like napari's
``action_manager``: the binding site names the command, the command owns the behaviour.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

import msgspec
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from afdesk.encounter import offers
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest import Action
from afdesk.encounter.ops.base import Op
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.roster import RemoveCombatant, RemoveState, TickBleeding
from afdesk.encounter.ops.turn import (
    ActHesitated,
    EndEncounter,
    NextTurn,
    Screen,
    SetEconomy,
    TakeAction,
    UseSnap,
    deal_hands,
)
from afdesk.encounter.ops.zone import TrimZone
from afdesk.encounter.state import Mode, Phase
from afdesk.encounter.turn import ActionKind, SnapKind
from afdesk.gui.errors import Reporter
from afdesk.gui.text import sentence

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.gui.document import EncounterDocument


class Availability(NamedTuple):
    """Whether a command may run now; if not, why (in the model's words)."""

    enabled: bool
    reason: str = ""

    @classmethod
    def unless(cls, reason: str) -> Availability:
        """Enabled when ``reason`` is empty, else disabled for ``reason``."""
        return cls(not reason, reason)


AVAILABLE = Availability(True)


class UnknownCommand(KeyError):
    """A command id that no command registered: a bug in a binding, never the GM's."""

    def __str__(self) -> str:
        return f"no GM command is registered as {self.args[0]!r}"


# ------------------------------------------------------------------------- context


class CommandContext:
    """The small interface commands and docks work through: the current document, the
    dice, the one error reporter, and a place to open dialogs and ask questions.

    The window builds one and hands it to its docks (they never call the window); a dock
    or a test without a window gets a bare one.
    """

    def __init__(
        self,
        parent: QWidget | None = None,
        reporter: Reporter | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.parent = parent
        self.reporter = reporter or Reporter(parent, lambda _text: None)
        self.rng: random.Random = rng or random.SystemRandom()
        self.doc: EncounterDocument | None = None
        self.dialog: QDialog | None = None
        """The last dialog opened (tests and scripts drive it)."""

    def run(self, command: Command | str, who: str = "") -> bool:
        """Trigger ``command`` for ``who`` if it is available now, else report why.
        True if it was triggered."""
        command = REGISTRY[command] if isinstance(command, str) else command
        if self.doc is None:
            return False
        ok, reason = command.available(self.doc, who)
        if not ok:
            self.reporter.refused(reason)
            return False
        command.trigger(self, who)
        return True

    def push(self, ops: Op | Sequence[Op], text: str | None = None, beside=None) -> bool:
        """Push Ops as one undo step; a refusal is reported (beside ``beside``, a label,
        if given). True if applied."""
        if self.doc is None:
            return False
        reason = self.doc.push_or_reason(ops, text)
        if beside is not None or reason:
            self.reporter.refused(reason, beside)
        return not reason

    def open_dialog(self, dialog: QDialog) -> None:
        """Open a dialog over the window without blocking the event loop."""
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog = dialog
        dialog.open()

    def confirm(self, title: str, question: str) -> bool:
        """Ask the GM a yes/no question."""
        answer = QMessageBox.question(self.parent, title, question)
        return answer == QMessageBox.StandardButton.Yes


# ------------------------------------------------------------------------ commands


class Command:
    """A GM command; subclasses set ``id`` and ``label`` and implement :meth:`trigger`."""

    id: str = ""
    label: str = ""
    group: str = ""
    """The section a menu lists it under."""
    tip: str = ""
    """What it does, for a tooltip or status tip when it is available."""

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        return True

    def text(self, doc: EncounterDocument, who: str) -> str:
        """The menu text for ``who`` (some name the people involved)."""
        return self.label

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return AVAILABLE

    def trigger(self, ctx: CommandContext, who: str) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r}>"


class OpCommand(Command):
    """A command that is one Op: available when the model would accept it."""

    def op(self, doc: EncounterDocument, who: str) -> Op:
        raise NotImplementedError

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return Availability.unless(doc.try_op(self.op(doc, who)))

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        ctx.push(self.op(ctx.doc, who))


def _combatant(doc: EncounterDocument, who: str) -> Combatant | None:
    return doc.encounter.combatants.get(who)


# -- checks (the contest dialog)


def _open_check(ctx: CommandContext, actor: str, action: Action, target: str = "") -> None:
    from afdesk.gui.dialogs.contest import ContestDialog

    assert ctx.doc is not None
    ctx.open_dialog(ContestDialog(ctx.doc, actor, action, target, ctx.parent))


class CheckCommand(Command):
    """A character's own check: the contest dialog opens for it (E5, E6, E14)."""

    def __init__(self, action: Action) -> None:
        self.action = action
        self.id = "leave" if action is Action.LEAVE_OVERLAP else action.value
        if action is Action.CHECK:
            self.label = "Plain check…"
        elif action is Action.LEAVE_OVERLAP:
            self.label = "Leave the overlap (move check)…"
        else:
            self.label = f"{action.label}…"
        self.group = "Attack" if action in offers.ATTACKS else "Check"

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        return offers.is_offered(doc.encounter, who, self.action)

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        reason = offers.check_refusal(doc.encounter, who, self.action)
        return Availability.unless(sentence(reason) if reason else "")

    def trigger(self, ctx: CommandContext, who: str) -> None:
        _open_check(ctx, who, self.action)


class TargetCommand(Command):
    """The acting character's attack on ``who`` (from ``who``'s menu)."""

    group = "Target"

    def __init__(self, action: Action) -> None:
        self.action = action
        self.id = f"target:{action.value}"
        self.label = f"{action.label} this character…"

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        return offers.can_target(doc.encounter, doc.encounter.actor or "", who)

    def text(self, doc: EncounterDocument, who: str) -> str:
        enc = doc.encounter
        actor = enc.combatants[enc.actor or ""]
        return f"{actor.name}: {self.action.label} {enc.combatants[who].name}…"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        actor = doc.encounter.actor
        if not actor:
            return Availability(False, "Nobody is acting now.")
        reason = offers.target_refusal(doc.encounter, actor, self.action, who)
        return Availability.unless(sentence(reason) if reason else "")

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        actor = ctx.doc.encounter.actor
        if actor:
            _open_check(ctx, actor, self.action, target=who)


# -- the turn economy (E3-E7)


class TakeActionCommand(OpCommand):
    group = "Action"

    def __init__(self, kind: ActionKind) -> None:
        self.kind = kind
        self.id = f"action:{kind.value}"
        self.label = kind.label

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return TakeAction(who, self.kind)


class UseSnapCommand(OpCommand):
    group = "Snap"

    def __init__(self, kind: SnapKind) -> None:
        self.kind = kind
        self.id = f"snap:{kind.value}"
        self.label = kind.label

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return UseSnap(who, self.kind)


class ScreenCommand(OpCommand):
    id = "screen"
    label = "Screen (lose the next action)"
    group = "Defense"

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return Screen(who)


class ActHesitatedCommand(OpCommand):
    id = "hesitated"
    label = "Act now (hesitated, -2)"
    group = "Action"

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        c = _combatant(doc, who)
        return c is not None and c.has(StateKind.HESITATING)

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return ActHesitated(who)


class ToggleGuard(OpCommand):
    """The Character dock's Guard toggle: one guard less, or one if none (a GM override
    of the economy, E4)."""

    id = "toggle:guard"
    label = "Guard"

    def op(self, doc: EncounterDocument, who: str) -> Op:
        e = doc.encounter.combatants[who].economy
        guards = e.guards - 1 if e.guards > 0 else 1
        return SetEconomy(who, msgspec.structs.replace(e, guards=guards))

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return AVAILABLE  # an override: refusals are reported when it is pushed


class _StateToggle(OpCommand):
    """A dock toggle for a state the economy gives (Defend, Screen, Hesitate): on takes
    it as the rules say, off removes it (a GM correction)."""

    state: StateKind

    def on(self, doc: EncounterDocument, who: str) -> Op:
        raise NotImplementedError

    def op(self, doc: EncounterDocument, who: str) -> Op:
        c = doc.encounter.combatants[who]
        return RemoveState(who, self.state) if c.has(self.state) else self.on(doc, who)

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return AVAILABLE  # a refusal is reported beside the toggle when it is pushed


class ToggleDefend(_StateToggle):
    id = "toggle:defend"
    label = "Defend"
    state = StateKind.DEFENDING

    def on(self, doc: EncounterDocument, who: str) -> Op:
        return TakeAction(who, ActionKind.DEFEND)


class ToggleScreen(_StateToggle):
    id = "toggle:screen"
    label = "Screen"
    state = StateKind.SCREENING

    def on(self, doc: EncounterDocument, who: str) -> Op:
        return Screen(who)


class ToggleHesitate(_StateToggle):
    """Hesitate keeps the action (E6); while hesitating, someone else's turn lets the
    character act now, its own turn gives the hesitation up."""

    id = "toggle:hesitate"
    label = "Hesitate"
    state = StateKind.HESITATING

    def on(self, doc: EncounterDocument, who: str) -> Op:
        return TakeAction(who, ActionKind.HESITATE)

    def op(self, doc: EncounterDocument, who: str) -> Op:
        c = doc.encounter.combatants[who]
        if c.has(self.state) and doc.encounter.actor != who:
            return ActHesitated(who)
        return super().op(doc, who)


# -- states and the GM's own


class BleedCommand(OpCommand):
    id = "bleed"
    label = "Bleed"
    group = "State"
    tip = "Suffer half the markers in hits, then remove one (E17)"

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        c = _combatant(doc, who)
        st = c.state(StateKind.BLEEDING) if c is not None else None
        return st is not None and st.markers > 0

    def text(self, doc: EncounterDocument, who: str) -> str:
        st = doc.encounter.combatants[who].state(StateKind.BLEEDING)
        return f"Bleed ({st.label()})" if st is not None else self.label

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return TickBleeding(who)


class RemoveStateCommand(OpCommand):
    group = "State"

    def __init__(self, kind: StateKind) -> None:
        self.kind = kind
        self.id = f"remove-state:{kind.value}"
        self.label = f"Remove {kind.label}"

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        c = _combatant(doc, who)
        return c is not None and c.has(self.kind)

    def text(self, doc: EncounterDocument, who: str) -> str:
        st = doc.encounter.combatants[who].state(self.kind)
        return f"Remove {st.label()}" if st is not None else self.label

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return RemoveState(who, self.kind)


class DialogCommand(Command):
    """A command that opens a form for ``who`` (the form pushes its Op)."""

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        raise NotImplementedError

    def trigger(self, ctx: CommandContext, who: str) -> None:
        ctx.open_dialog(self.make(ctx, who))


class AddStateCommand(DialogCommand):
    id = "add-state"
    label = "Add state…"
    group = "State"

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.character import AddStateDialog

        assert ctx.doc is not None
        return AddStateDialog(ctx.doc, who, ctx.parent)


class MomentumCommand(DialogCommand):
    id = "momentum"
    label = "Momentum marker…"
    group = "State"

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.character import MomentumDialog

        assert ctx.doc is not None
        return MomentumDialog(ctx.doc, who, ctx.parent)


class EditCommand(DialogCommand):
    id = "edit"
    label = "Edit character…"
    group = "GM"

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.character import CharacterDialog

        assert ctx.doc is not None
        return CharacterDialog(ctx.doc, who, ctx.parent)


class RemoveCommand(Command):
    id = "remove"
    label = "Remove from the encounter"
    group = "GM"

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        name = ctx.doc.encounter.combatants[who].name
        if ctx.confirm("Remove character", f"Remove {name} from the encounter?"):
            ctx.push(RemoveCombatant(who))


# -- the encounter (E1, E2, E9, E15, E16)


def deal_refusal(doc: EncounterDocument) -> str:
    """Why reflex cannot be dealt now ("" if it can): asked of the model (E2)."""
    op = deal_hands(doc.encounter, None, tuple(sorted(doc.physical_hands)))
    return doc.try_op(op) if op.hands else "Add characters first: nobody holds a hand."


def trim_words(doc: EncounterDocument) -> str:
    """What the end of the exchange means for the zone (E9), in a sentence."""
    enc = doc.encounter
    cols, rows = enc.zone.size()
    edges = enc.trim_proposal()
    if (cols, rows) == (3, 3):
        return "The zone is 3 x 3 tiles: nothing to trim."
    if edges:
        return (
            f"The zone is {cols} x {rows} tiles; afdesk proposes removing the "
            + ", ".join(e.value for e in edges)
            + " tiles, which hold nobody (E9)."
        )
    return (
        f"The zone is {cols} x {rows} tiles, and every extra line holds somebody or a "
        "decoy: move them or let them exit first (E9)."
    )


class DealCommand(Command):
    id = "deal"
    label = "&Deal reflex"
    tip = "Shuffle and deal 5 cards to every hand (E2)"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return Availability.unless(deal_refusal(doc))

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        physical = tuple(sorted(ctx.doc.physical_hands))
        ctx.push(deal_hands(ctx.doc.encounter, ctx.rng, physical))


class PlayCardsCommand(DialogCommand):
    id = "play-cards"
    label = "Play &cards…"
    tip = "Every hand plays a card for the next round (E2)"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        if doc.encounter.turn.phase is Phase.CARDS:
            return AVAILABLE
        return Availability(
            False, "Cards are played at the start of a round: deal first, or finish the turns."
        )

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.cards import PlayCardsDialog

        assert ctx.doc is not None
        return PlayCardsDialog(ctx.doc, ctx.parent)


class NextTurnCommand(OpCommand):
    """The next turn in reflex order (E3): only while turns are being taken."""

    id = "next-turn"
    label = "Next &turn"

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return NextTurn()


class AdvanceCommand(Command):
    """Space: whatever comes next at the table: the next turn, the cards of the next
    round, or the deal of the next exchange."""

    id = "advance"
    label = "&Next turn"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        if doc.encounter.turn.phase is Phase.ENDED:
            return Availability(False, "The encounter is over.")
        return AVAILABLE

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        phase = ctx.doc.encounter.turn.phase
        if phase is Phase.CARDS:
            ctx.run(PLAY_CARDS)
        elif phase in (Phase.SETUP, Phase.EXCHANGE_END):
            ctx.run(DEAL)
        else:
            ctx.push(NextTurn())


class TrimCommand(Command):
    id = "trim"
    label = "&Trim the zone"
    tip = "Back to 3 x 3 tiles at the end of an exchange (E9)"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        if doc.encounter.trim_proposal():
            return AVAILABLE
        return Availability(False, trim_words(doc))

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        edges = ctx.doc.encounter.trim_proposal()
        ctx.push([TrimZone(e) for e in edges], "Trim the zone")


class ChangeModeCommand(Command):
    """Change the mode (E16): at once when the rules allow it, otherwise only after the
    GM confirms an override."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.id = f"mode:{mode.value}"
        self.label = mode.label

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        if self.mode is ctx.doc.encounter.mode:
            return
        override = bool(ctx.doc.try_op(ChangeMode(self.mode)))
        if override and not ctx.confirm(
            "Change the mode now?",
            "The mode normally changes at the end of an exchange (E16). Change it now "
            "anyway (a GM override the log will show)?",
        ):
            return
        ctx.push(ChangeMode(self.mode, override=override))


class EndCommand(Command):
    id = "end"
    label = "&End the encounter"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return Availability.unless(doc.try_op(EndEncounter()))

    def trigger(self, ctx: CommandContext, who: str) -> None:
        from afdesk.encounter import persevere

        assert ctx.doc is not None
        if ctx.push(EndEncounter()) and persevere.due(ctx.doc.encounter):
            PERSEVERE.trigger(ctx, "")


class PersevereCommand(DialogCommand):
    id = "persevere"
    label = "&Persevere…"
    tip = "Everyone who fought more than one exchange perseveres (E15)"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        if doc.encounter.turn.phase is Phase.ENDED:
            return AVAILABLE
        return Availability(False, "Persevere comes when the encounter is over (E15).")

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.persevere import PersevereDialog

        assert ctx.doc is not None
        return PersevereDialog(ctx.doc, ctx.parent)


class AddCharacterCommand(DialogCommand):
    id = "add-character"
    label = "&Add character…"

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.character import CharacterDialog

        assert ctx.doc is not None
        return CharacterDialog(ctx.doc, None, ctx.parent)


class SettingsCommand(DialogCommand):
    id = "settings"
    label = "Encounter &settings…"

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.character import SettingsDialog

        assert ctx.doc is not None
        return SettingsDialog(ctx.doc, ctx.parent)


# ------------------------------------------------------------------------ registry


class CommandRegistry:
    """Every GM command by id; an id is registered once."""

    def __init__(self) -> None:
        self._commands: dict[str, Command] = {}

    def register(self, command: Command) -> Command:
        if not command.id:
            raise ValueError(f"{command!r} has no id")
        if command.id in self._commands:
            raise ValueError(f"a GM command is already registered as {command.id!r}")
        self._commands[command.id] = command
        return command

    def __getitem__(self, command_id: str) -> Command:
        try:
            return self._commands[command_id]
        except KeyError:
            raise UnknownCommand(command_id) from None

    def __contains__(self, command_id: object) -> bool:
        return command_id in self._commands

    def __iter__(self) -> Iterator[Command]:
        return iter(self._commands.values())

    def __len__(self) -> int:
        return len(self._commands)


REGISTRY = CommandRegistry()
"""All GM commands (character commands take a character id as ``who``)."""

_r: Callable[[Command], Command] = REGISTRY.register

TARGETS = tuple(_r(TargetCommand(a)) for a in offers.ATTACKS)
CHECKS = tuple(_r(CheckCommand(a)) for a in offers.MENU_CHECKS)
LEAVE = _r(CheckCommand(Action.LEAVE_OVERLAP))
SIMPLE_ACTIONS = tuple(
    _r(TakeActionCommand(k))
    for k in (
        ActionKind.MANEUVER,
        ActionKind.DEFEND,
        ActionKind.RECOVER,
        ActionKind.RECRUIT,
        ActionKind.HESITATE,
        ActionKind.SECOND_SNAP,
    )
)
SIMPLE_SNAPS = tuple(
    _r(UseSnapCommand(k))
    for k in (
        SnapKind.PREPARE,
        SnapKind.FEND,
        SnapKind.QUIP,
        SnapKind.CROUCH,
        SnapKind.EQUIP,
        SnapKind.ORDER,
        SnapKind.STAND,
    )
)
SCREEN = _r(ScreenCommand())
HESITATED = _r(ActHesitatedCommand())
BLEED = _r(BleedCommand())
REMOVE_STATE = {k: _r(RemoveStateCommand(k)) for k in StateKind}
ADD_STATE = _r(AddStateCommand())
MOMENTUM = _r(MomentumCommand())
EDIT = _r(EditCommand())
REMOVE = _r(RemoveCommand())
TOGGLE_GUARD = _r(ToggleGuard())
TOGGLE_DEFEND = _r(ToggleDefend())
TOGGLE_SCREEN = _r(ToggleScreen())
TOGGLE_HESITATE = _r(ToggleHesitate())

DEAL = _r(DealCommand())
PLAY_CARDS = _r(PlayCardsCommand())
NEXT_TURN = _r(NextTurnCommand())
ADVANCE = _r(AdvanceCommand())
TRIM = _r(TrimCommand())
MODES = {m: _r(ChangeModeCommand(m)) for m in Mode}
END = _r(EndCommand())
PERSEVERE = _r(PersevereCommand())
ADD_CHARACTER = _r(AddCharacterCommand())
SETTINGS = _r(SettingsCommand())


def show_availability(widget: QWidget, command: Command, doc: EncounterDocument, who="") -> bool:
    """Enable ``widget`` (a button, an action) as ``command`` is available, with the reason
    or the command's tip as its tooltip; returns whether it is enabled."""
    ok, reason = command.available(doc, who)
    widget.setEnabled(ok)
    widget.setToolTip(reason or command.tip)
    return ok


__all__ = [
    "AVAILABLE",
    "REGISTRY",
    "Availability",
    "Command",
    "CommandContext",
    "CommandRegistry",
    "UnknownCommand",
]
