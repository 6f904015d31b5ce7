"""The commands for one character (``who`` is its id): its checks, the acting
character's attacks on it, its actions and snaps, the Character dock's toggles, its
states, and the GM's own (edit, remove). Each is registered once, here."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import features, offers
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.ops.economy import Screen, SetEconomy, TakeAction, TakeBack, UseSnap
from afdesk.encounter.ops.flow import ActHesitated
from afdesk.encounter.ops.roster import RemoveCombatant, RemoveState, TickBleeding
from afdesk.gui.commands.base import (
    AVAILABLE,
    REGISTRY,
    Availability,
    Command,
    CommandContext,
    DialogCommand,
    OpCommand,
)
from afdesk.gui.text import sentence

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

    from afdesk.encounter.combatant import Combatant
    from afdesk.gui.document import EncounterDocument


def _combatant(doc: EncounterDocument, who: str) -> Combatant | None:
    return doc.encounter.combatants.get(who)


# -- checks (the contest dialog)


def _open_check(ctx: CommandContext, actor: str, action: CheckKind, target: str = "") -> None:
    from afdesk.gui.dialogs.contest import ContestDialog

    assert ctx.doc is not None
    ctx.open_dialog(ContestDialog(ctx.doc, actor, action, target, ctx.parent))


class CheckCommand(Command):
    """A character's own check: the contest dialog opens for it (E5, E6, E14)."""

    def __init__(self, action: CheckKind) -> None:
        self.action = action
        self.id = "leave" if action is CheckKind.LEAVE_OVERLAP else action.value
        if action is CheckKind.CHECK:
            self.label = "Plain check…"
        elif action is CheckKind.LEAVE_OVERLAP:
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

    def __init__(self, action: CheckKind) -> None:
        self.action = action
        self.id = f"target:{action.value}"
        self.label = f"{action.label} this character…"

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        enc = doc.encounter
        return current_mode(enc).offers(self.action) and offers.can_target(
            enc, enc.actor or "", who
        )

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
    """An action as its row declares it (afdesk.encounter.features): label, tip, and the
    model's reason when it is not available (E6)."""

    group = "Action"

    def __init__(self, kind: str) -> None:
        row = features.action_row(kind)
        self.kind = kind
        self.id = f"action:{kind}"
        self.label = row.label
        self.tip = row.tip

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        return self.kind in features.ACTIONS and current_mode(doc.encounter).offers(self.kind)

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return TakeAction(who, self.kind)


class UseSnapCommand(OpCommand):
    """A snap as its row declares it (afdesk.encounter.features): label, tip, and the
    model's reason when it is not available (E5)."""

    group = "Snap"

    def __init__(self, kind: str) -> None:
        row = features.snap_row(kind)
        self.kind = kind
        self.id = f"snap:{kind}"
        self.label = row.label
        self.tip = row.tip

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        # a row a test added and took away again leaves its command behind, never offered
        return self.kind in features.SNAPS and current_mode(doc.encounter).offers(self.kind)

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
    it as the rules say, off takes it back whole (TakeBack: the action back, the extra
    guard gone) or is refused with the rule id when that is no longer possible (E6, E7);
    a quick second click is a take-back, never a half-undone turn."""

    state: StateKind
    name: str
    """What TakeBack calls it."""

    def on(self, doc: EncounterDocument, who: str) -> Op:
        raise NotImplementedError

    def op(self, doc: EncounterDocument, who: str) -> Op:
        c = doc.encounter.combatants[who]
        return TakeBack(who, self.name) if c.has(self.state) else self.on(doc, who)

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return AVAILABLE  # a refusal is reported beside the toggle when it is pushed


class ToggleDefend(_StateToggle):
    id = "toggle:defend"
    label = "Defend"
    name = "defend"
    state = StateKind.DEFENDING

    def on(self, doc: EncounterDocument, who: str) -> Op:
        return TakeAction(who, ActionKind.DEFEND)


class ToggleScreen(_StateToggle):
    id = "toggle:screen"
    label = "Screen"
    name = "screen"
    state = StateKind.SCREENING

    def on(self, doc: EncounterDocument, who: str) -> Op:
        return Screen(who)


class ToggleHesitate(_StateToggle):
    """Hesitate keeps the action (E6); while hesitating, someone else's turn lets the
    character act now, its own turn gives the hesitation up."""

    id = "toggle:hesitate"
    label = "Hesitate"
    name = "hesitate"
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
    """Resolve an ongoing state once on the character's own turn (E3): bleeding (the
    default), burning or blinded. Offered while the state lasts; the model refuses it off
    the character's turn or a second time in one turn, with the reason."""

    id = "bleed"
    label = "Bleed"
    group = "State"
    tip = "Suffer half the markers in hits, then remove one (E17)"

    def __init__(self, kind: StateKind = StateKind.BLEEDING) -> None:
        self.kind = kind
        if kind is not StateKind.BLEEDING:
            self.id = f"resolve:{kind.value}"
            self.label = f"Resolve {kind.label.lower()}"
            self.tip = f"Resolve {kind.label.lower()} for this turn (E3)"

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        c = _combatant(doc, who)
        st = c.state(self.kind) if c is not None else None
        return st is not None and (self.kind is not StateKind.BLEEDING or st.markers > 0)

    def text(self, doc: EncounterDocument, who: str) -> str:
        st = doc.encounter.combatants[who].state(self.kind)
        if self.kind is StateKind.BLEEDING and st is not None:
            return f"Bleed ({st.label()})"
        return self.label

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return TickBleeding(who, self.kind)


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


class DuplicateCommand(DialogCommand):
    id = "duplicate"
    label = "D&uplicate…"
    group = "GM"
    tip = "Add a copy of this character under the next number (Bandit 3 from Bandit 2)"

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        from afdesk.gui.dialogs.character import CharacterDialog

        assert ctx.doc is not None
        template = ctx.doc.encounter.combatants[who]
        return CharacterDialog(ctx.doc, None, ctx.parent, template=template)


class RemoveCommand(Command):
    id = "remove"
    label = "Remove from the encounter"
    group = "GM"

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        name = ctx.doc.encounter.combatants[who].name
        if ctx.confirm("Remove character", f"Remove {name} from the encounter?"):
            ctx.push(RemoveCombatant(who))


_r = REGISTRY.register

TARGETS = tuple(_r(TargetCommand(a)) for a in offers.ATTACKS)
CHECKS = tuple(_r(CheckCommand(a)) for a in offers.MENU_CHECKS)
LEAVE = _r(CheckCommand(CheckKind.LEAVE_OVERLAP))


def action_commands() -> list[Command]:
    """The action menu: a command for each plain action row, in the rows' order; a row
    added after import gets its command here."""
    out: list[Command] = []
    for row in features.plain_actions():
        key = f"action:{row.kind}"
        out.append(REGISTRY[key] if key in REGISTRY else _r(TakeActionCommand(row.kind)))
    return out


SIMPLE_ACTIONS = tuple(action_commands())


def snap_commands() -> list[Command]:
    """The snap menu: a command for each snap row that is not a check (those are offered as
    checks), in the rows' order; a row added after import gets its command here."""
    out: list[Command] = []
    for row in features.plain_snaps():
        key = f"snap:{row.kind}"
        out.append(REGISTRY[key] if key in REGISTRY else _r(UseSnapCommand(row.kind)))
    return out


SIMPLE_SNAPS = tuple(snap_commands())
SCREEN = _r(ScreenCommand())
HESITATED = _r(ActHesitatedCommand())
BLEED = _r(BleedCommand())
RESOLVE = {k: _r(BleedCommand(k)) for k in (StateKind.BURNING, StateKind.BLINDED)}
REMOVE_STATE = {k: _r(RemoveStateCommand(k)) for k in StateKind}
ADD_STATE = _r(AddStateCommand())
MOMENTUM = _r(MomentumCommand())
EDIT = _r(EditCommand())
DUPLICATE = _r(DuplicateCommand())
REMOVE = _r(RemoveCommand())
TOGGLE_GUARD = _r(ToggleGuard())
TOGGLE_DEFEND = _r(ToggleDefend())
TOGGLE_SCREEN = _r(ToggleScreen())
TOGGLE_HESITATE = _r(ToggleHesitate())
