"""The part every undo history shares: a list of steps, how many are applied, where the file
was saved, what undo and redo would do, and who listens. The encounter's
:class:`~afdesk.encounter.history.History` and the campaign's
:class:`~afdesk.encounter.campaign.history.CampaignHistory` both build on it; each says how
its steps are applied. Pure Python: nothing here knows of Qt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def text(self) -> str: ...


StepT = TypeVar("StepT", bound=Named)
EventT = TypeVar("EventT")


class StepList(Generic[StepT, EventT]):
    """Steps ``[0, index)`` are applied; the rest can be redone."""

    def __init__(self) -> None:
        self._steps: list[StepT] = []
        self._index = 0
        self._clean = 0
        self._listeners: list[Callable[[EventT], None]] = []

    @property
    def steps(self) -> tuple[StepT, ...]:
        return tuple(self._steps)

    @property
    def index(self) -> int:
        """How many steps are applied (the rest can be redone)."""
        return self._index

    @property
    def clean_index(self) -> int:
        """The index the file was saved at; -1 if no undo or redo can reach it again."""
        return self._clean

    def is_clean(self) -> bool:
        return self._index == self._clean

    def set_clean(self) -> None:
        """The file was saved as it is now."""
        self._clean = self._index

    def can_undo(self) -> bool:
        return self._index > 0

    def can_redo(self) -> bool:
        return self._index < len(self._steps)

    def undo_text(self) -> str:
        return self._steps[self._index - 1].text if self.can_undo() else ""

    def redo_text(self) -> str:
        return self._steps[self._index].text if self.can_redo() else ""

    def subscribe(self, listener: Callable[[EventT], None]) -> None:
        """Call ``listener(event)`` after every change to the history."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[EventT], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _emit(self, event: EventT) -> None:
        for listener in list(self._listeners):
            listener(event)


__all__ = ["StepList"]
