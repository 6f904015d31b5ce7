"""The open campaign: its history, its folder, its journal; saved after every step.

Every change is a campaign edit pushed here (undoable, journaled, logged in the campaign's
log); the file is written atomically after each step, so there is no "save campaign" and no
question on close. A save that fails keeps the change in the journal and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from afdesk.encounter.campaign.edits import CampaignEdit
from afdesk.encounter.campaign.history import CampaignEvent, CampaignHistory
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp
from afdesk.storage import campaign as store
from afdesk.storage.campaign_journal import CampaignJournal
from afdesk.storage.errors import JournalError, SaveError


class CampaignDocument(QObject):
    """One open campaign (see the module)."""

    changed = Signal()
    problem = Signal(str)
    """A save or the journal failed: the words for the GM (the change is kept)."""

    def __init__(self, campaign: Campaign, folder: Path, digest: str = "") -> None:
        super().__init__()
        self.folder = Path(folder)
        self.history = CampaignHistory(campaign)
        self.saved_digest = digest
        self.save_problem = ""
        self.journal: CampaignJournal | None = None
        try:
            self.journal = CampaignJournal.start(self.folder, campaign, digest)
            self.journal.follow(self.history)
        except JournalError as exc:
            self.save_problem = f"the campaign's crash journal cannot be written: {exc.detail}"
        self.history.subscribe(self._on_step)

    @property
    def campaign(self) -> Campaign:
        return self.history.campaign

    @property
    def file(self) -> Path:
        return self.folder / store.FILE_NAME

    def path_of(self, name: str) -> Path:
        """An encounter file of the campaign, by its name in the folder."""
        return self.folder / name

    # ------------------------------------------------------------------------ changes

    def push(self, edits: CampaignEdit | Sequence[CampaignEdit], text: str = "") -> str:
        """Apply ``edits`` as one undoable step; "" or the reason it was refused."""
        try:
            self.history.push(edits, text)
        except IllegalOp as exc:
            return str(exc)
        return ""

    def undo(self) -> None:
        if self.history.can_undo():
            self.history.undo()

    def redo(self) -> None:
        if self.history.can_redo():
            self.history.redo()

    def _on_step(self, event: CampaignEvent) -> None:
        self.save()
        self.changed.emit()

    def save(self) -> bool:
        """Write the campaign (atomically); False, and :attr:`problem` emitted, if not."""
        try:
            self.saved_digest = store.save_campaign(self.folder, self.campaign)
        except SaveError as exc:
            first = not self.save_problem.startswith("could not save")
            self.save_problem = (
                f"{exc}. Nothing is lost: the change is in the campaign's crash journal "
                "and comes back when the campaign is opened again."
            )
            if first:  # once, not a warning box at every change while the disk is full
                self.problem.emit(self.save_problem)
            return False
        self.save_problem = ""
        self.history.set_clean()
        if self.journal is not None:
            self.journal.rebase(self.campaign, self.saved_digest)
        return True

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close(clean=self.history.is_clean())
            self.journal = None
