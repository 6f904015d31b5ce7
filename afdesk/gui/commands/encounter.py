"""The encounter's commands (``who`` is ""): deal, cards, next turn, trim, mode, end,
persevere, add a character, settings (E1, E2, E9, E15, E16). Each is registered once,
here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter import installed  # noqa: F401 - every installed mode, before MODES
from afdesk.encounter.op import Op
from afdesk.encounter.ops.flow import EndEncounter, EndExchangeEarly, NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import DealHands, deal_hands, dealing_time
from afdesk.encounter.ops.zone import TrimZone
from afdesk.encounter.state import Mode, Phase
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

    from afdesk.gui.document import EncounterDocument


def deal_refusal(doc: EncounterDocument) -> str:
    """Why reflex cannot be dealt now ("" if it can): asked of the model (E2), once per
    change of the encounter. Out of dealing time the model refuses any deal for the phase
    before it looks at the hands, so it is asked with none (the whole roster's hands are
    dealt for the question only when the phase allows a deal)."""
    physical = tuple(sorted(doc.physical_hands))
    if not dealing_time(doc.encounter.turn):
        return doc.try_op(DealHands((), ()))

    def ask() -> str:
        op = deal_hands(doc.encounter, None, physical)
        return doc.try_op(op) if op.hands else "Add characters first: nobody holds a hand."

    return doc.memo(("deal", physical), ask)


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
        def ask() -> Availability:
            if doc.encounter.trim_proposal():
                return AVAILABLE
            return Availability(False, trim_words(doc))

        return doc.memo(("available", self.id), ask)  # asked of the encounter alone

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
        self.group = "Mode"  # the command palette reads "Mode: Chase"

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
        question = (
            "End the encounter now? Nobody takes another turn; persevere follows if it "
            "lasted more than one exchange (E15). You can undo it (Ctrl+Z)."
        )
        if not ctx.confirm("End the encounter", question):
            return
        if ctx.push(EndEncounter()) and persevere.due(ctx.doc.encounter):
            PERSEVERE.trigger(ctx, "")


class EndExchangeCommand(Command):
    id = "end-exchange"
    label = "End the e&xchange now…"
    tip = "A GM override: the exchange ends before its fifth round (the log shows it)"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        return Availability.unless(doc.try_op(EndExchangeEarly()))

    def trigger(self, ctx: CommandContext, who: str) -> None:
        assert ctx.doc is not None
        t = ctx.doc.encounter.turn
        question = (
            f"End exchange {t.exchange} now, after round {t.round} of 5? This is a GM "
            "override the log will show; you can undo it (Ctrl+Z)."
        )
        if ctx.confirm("End the exchange", question):
            ctx.push(EndExchangeEarly())


class PersevereCommand(DialogCommand):
    id = "persevere"
    label = "&Persevere…"
    tip = "Everyone who fought more than one exchange perseveres (E15)"

    def available(self, doc: EncounterDocument, who: str) -> Availability:
        from afdesk.encounter import persevere

        why = persevere.refusal(doc.encounter)
        return Availability(False, sentence(why)) if why else AVAILABLE

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


_r = REGISTRY.register

DEAL = _r(DealCommand())
PLAY_CARDS = _r(PlayCardsCommand())
NEXT_TURN = _r(NextTurnCommand())
ADVANCE = _r(AdvanceCommand())
TRIM = _r(TrimCommand())


class _ModeCommands(dict[Mode, ChangeModeCommand]):
    """The Mode menu's commands, by mode (E16): a mode registered later (a plug-in's, a
    test's) gets its command when first asked for."""

    def __missing__(self, mode: Mode) -> ChangeModeCommand:
        command = ChangeModeCommand(mode)
        if command.id not in REGISTRY:
            REGISTRY.register(command)
        self[mode] = command
        return command


MODES = _ModeCommands({m: _r(ChangeModeCommand(m)) for m in Mode})
END = _r(EndCommand())
END_EXCHANGE = _r(EndExchangeCommand())
PERSEVERE = _r(PersevereCommand())
ADD_CHARACTER = _r(AddCharacterCommand())
SETTINGS = _r(SettingsCommand())

ENCOUNTER = (
    DEAL,
    PLAY_CARDS,
    NEXT_TURN,
    ADVANCE,
    TRIM,
    *MODES.values(),
    END,
    END_EXCHANGE,
    PERSEVERE,
    ADD_CHARACTER,
    SETTINGS,
)
"""The encounter's commands (``who`` is ""); every other registered command is a
character's (``who`` is a character id)."""
