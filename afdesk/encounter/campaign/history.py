"""The undo history of a campaign: steps of edits, undo, redo, clean state, events.

The campaign is immutable data, so a step keeps the campaign from before it: undo puts that
back, redo applies the step's edits again. Subscribers (the GUI's view, the campaign's crash
journal) hear each change as an :class:`~afdesk.encounter.history.StepEvent`-like
:class:`CampaignEvent`. Pure Python: nothing here knows of Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec

from afdesk.encounter.campaign.edits import CampaignEdit
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import Change
from afdesk.encounter.steps import StepList


def canonical(edit: CampaignEdit) -> CampaignEdit:
    """``edit`` with every field of its declared type (widgets hand enums back as strings),
    or :class:`IllegalOp` naming the bad field."""
    try:
        return msgspec.convert(msgspec.to_builtins(edit), type(edit))
    except (msgspec.ValidationError, TypeError, ValueError) as exc:
        raise IllegalOp(f"{type(edit).__name__} is malformed: {exc}") from None


@dataclass(frozen=True)
class CampaignStep:
    """One undo step: edits applied together, and the campaign from before them."""

    edits: tuple[CampaignEdit, ...]
    text: str
    before: Campaign


@dataclass(frozen=True)
class CampaignEvent:
    change: Change
    step: CampaignStep


Listener = Callable[[CampaignEvent], None]


class CampaignHistory(StepList[CampaignStep, CampaignEvent]):
    """The campaign now, and the steps that made it. ``push`` raises :class:`IllegalOp`
    (and changes nothing) when an edit is refused."""

    def __init__(self, campaign: Campaign) -> None:
        super().__init__()
        self.campaign = campaign

    def restore(self, steps: Sequence[CampaignStep]) -> None:
        """Undo steps kept from before a restart (the last one leads to :attr:`campaign`),
        into a history that has none yet; the campaign as it is counts as saved."""
        if self._steps:
            raise ValueError("restore only into a fresh history")
        self._steps = list(steps)
        self._index = self._clean = len(self._steps)

    @staticmethod
    def _run(camp: Campaign, edits: Sequence[CampaignEdit]) -> tuple[Campaign, str]:
        first = ""
        for edit in edits:
            text = edit.describe(camp)
            first = first or text
            camp = edit.apply(camp)
        return camp, first

    def push(self, edits: CampaignEdit | Sequence[CampaignEdit], text: str = "") -> CampaignStep:
        """Apply ``edits`` as one step (all or nothing) and return it."""
        edits = tuple(
            canonical(e) for e in ((edits,) if isinstance(edits, CampaignEdit) else edits)
        )
        if not edits:
            raise IllegalOp("nothing to change")
        new, first = self._run(self.campaign, edits)
        step = CampaignStep(edits, text or first or "Change", self.campaign)
        del self._steps[self._index :]
        if self._clean > self._index:
            self._clean = -1
        self._steps.append(step)
        self._index += 1
        self.campaign = new
        self._emit(CampaignEvent(Change.DO, step))
        return step

    def undo(self) -> CampaignStep:
        if not self.can_undo():
            raise IndexError("nothing to undo")
        step = self._steps[self._index - 1]
        self.campaign = step.before
        self._index -= 1
        self._emit(CampaignEvent(Change.UNDO, step))
        return step

    def redo(self) -> CampaignStep:
        if not self.can_redo():
            raise IndexError("nothing to redo")
        old = self._steps[self._index]
        new, _ = self._run(self.campaign, old.edits)
        step = CampaignStep(old.edits, old.text, self.campaign)
        self._steps[self._index] = step
        self._index += 1
        self.campaign = new
        self._emit(CampaignEvent(Change.REDO, step))
        return step


__all__ = ["CampaignEvent", "CampaignHistory", "CampaignStep"]
