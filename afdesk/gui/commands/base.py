"""What every GM command is made of: its availability, the context it runs in, the
base classes (one Op, a form) and the registry of commands by id. The package docstring
(:mod:`afdesk.gui.commands`) says how they fit together."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtWidgets import QWidget

from afdesk.encounter.op import Op
from afdesk.gui.context import CommandContext

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

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


class DialogCommand(Command):
    """A command that opens a form for ``who`` (the form pushes its Op)."""

    def make(self, ctx: CommandContext, who: str) -> QDialog:
        raise NotImplementedError

    def trigger(self, ctx: CommandContext, who: str) -> None:
        ctx.open_dialog(self.make(ctx, who))


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
CommandContext.commands = REGISTRY  # ctx.run("deal") finds them


def show_availability(widget: QWidget, command: Command, doc: EncounterDocument, who="") -> bool:
    """Enable ``widget`` (a button, an action) as ``command`` is available, with the reason
    or the command's tip as its tooltip; returns whether it is enabled."""
    ok, reason = command.available(doc, who)
    widget.setEnabled(ok)
    widget.setToolTip(reason or command.tip)
    return ok
