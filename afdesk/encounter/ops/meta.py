"""Ops on the encounter as a whole: name, notes, ruleset, settings, mode, referee's Shifts."""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.requires import require_phase
from afdesk.encounter.state import AnyMode, Phase, Settings
from afdesk.rules import RulesError, ruleset_named

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class Rename(Op, frozen=True):
    name: str
    label = "Rename"

    def execute(self, enc: "Encounter") -> None:
        if not self.name.strip():
            raise IllegalOp("an encounter needs a name")
        enc.set_meta(msgspec.structs.replace(enc.meta, name=self.name.strip()))

    def describe(self, enc: "Encounter") -> str:
        return f"The encounter is now called {self.name.strip()}"


class SetNotes(Op, frozen=True):
    """The GM's notes (never shown to players) and the players' description."""

    notes: str
    description: str | None = None
    label = "Notes"

    def execute(self, enc: "Encounter") -> None:
        changes = {"notes": self.notes}
        if self.description is not None:
            changes["description"] = self.description
        enc.set_meta(msgspec.structs.replace(enc.meta, **changes))

    def describe(self, enc: "Encounter") -> str:
        return "GM notes updated"


class SetRuleset(Op, frozen=True):
    ruleset: str
    label = "Ruleset"

    def execute(self, enc: "Encounter") -> None:
        try:
            ruleset_named(self.ruleset)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        enc.set_meta(msgspec.structs.replace(enc.meta, ruleset=self.ruleset))

    def describe(self, enc: "Encounter") -> str:
        return f"Ruleset: {self.ruleset}"


class SetSettings(Op, frozen=True):
    settings: Settings
    label = "Settings"

    def execute(self, enc: "Encounter") -> None:
        s = self.settings
        if s.bad_pursuit_colour not in ("blue", "green"):
            raise IllegalOp("the bad pursuit-die colour is blue or green (H2)")
        if s.days_since_rest < 0:
            raise IllegalOp("days since rest cannot be negative")
        enc.set_settings(s)

    def describe(self, enc: "Encounter") -> str:
        return "Encounter settings changed"


class AdjustRefereeShifts(Op, frozen=True):
    delta: int
    label = "Referee's Shifts"

    def execute(self, enc: "Encounter") -> None:
        value = enc.meta.referee_shifts + self.delta
        if value < 0:
            raise IllegalOp(f"the referee has only {enc.meta.referee_shifts} Shifts")
        enc.set_meta(msgspec.structs.replace(enc.meta, referee_shifts=value))

    def describe(self, enc: "Encounter") -> str:
        return f"Referee's Shifts {self.delta:+d}"


class ChangeMode(Op, frozen=True):
    """Change the encounter's mode: before play or at the end of an exchange (E16), or at
    any time as an explicit GM override."""

    mode: AnyMode
    override: bool = False
    label = "Mode"

    def execute(self, enc: "Encounter") -> None:
        if not self.override and not current_mode(enc).change_now(enc):
            require_phase(enc, Phase.SETUP, Phase.EXCHANGE_END, doing="change the mode")
        if self.mode is enc.mode:
            raise IllegalOp(f"the encounter is already in {self.mode.value} mode")
        current_mode(enc).leave(enc)
        enc.set_mode(self.mode)
        current_mode(enc).enter(enc)

    def describe(self, enc: "Encounter") -> str:
        suffix = " (GM override)" if self.override else ""
        now = current_mode(enc).change_now(enc)
        if now and not self.override and enc.turn.phase not in (Phase.SETUP, Phase.EXCHANGE_END):
            suffix = f" at once: {now}"
        article = "an" if self.mode.value[0] in "aeiou" else "a"
        return f"The encounter becomes {article} {self.mode.value}{suffix}"

    def title(self, enc: "Encounter") -> str:
        return f"Mode: {self.mode.label}"
