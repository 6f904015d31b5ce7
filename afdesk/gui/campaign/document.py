"""The open campaign: its history, its folder, its journal; saved after every step.

Every change is a campaign edit pushed here (undoable, journaled, logged in the campaign's
log); the file is written atomically after each step, so there is no "save campaign" and no
question on close. Each step goes to the crash journal first (on disk when it returns),
then to the file (never over one changed on disk since afdesk read it). A save that fails
says whether the journal holds the change; when neither could be written the GM is told
that changes are not protected, and :attr:`CampaignDocument.unprotected` says so until
they are again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from afdesk.encounter.campaign.edits import CampaignEdit
from afdesk.encounter.campaign.history import CampaignEvent, CampaignHistory
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp
from afdesk.storage import campaign as store
from afdesk.storage.campaign_journal import CampaignJournal, keep_undo
from afdesk.storage.errors import FileChangedError, JournalError, SaveError


class CampaignDocument(QObject):
    """One open campaign (see the module)."""

    changed = Signal()
    problem = Signal(str)
    """A save failed: the words for the GM, once when it starts (not at every change)."""
    protection = Signal(str)
    """Whether changes are safe: '' while every change is saved or in the crash journal,
    else why not (the window shows it until they are safe again)."""

    def __init__(
        self, campaign: Campaign, folder: Path, digest: str = "", *, on_disk: str | None = None
    ) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.history = CampaignHistory(campaign)
        self.saved_digest = digest
        self.disk_digest: str | None = on_disk if on_disk is not None else (digest or None)
        """The file's digest as afdesk last read or wrote it: a file changed on disk since
        is not overwritten (None: not checked)."""
        self.save_problem = ""
        self.unprotected = ""
        """Why changes are not safe now ('' while they are)."""
        self.journal: CampaignJournal | None = None
        try:
            self.journal = CampaignJournal.start(self.folder, campaign, digest)
            self.journal.follow(self.history, subscribe=False)
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
        # The journal first (written and fsynced), then the file, then the views.
        if self.journal is not None:
            self.journal.record(event)
        self.save()
        self.changed.emit()

    def journal_problem(self) -> str:
        """Why a change would not be in the crash journal now ('' if it would)."""
        if self.journal is None:
            return self.save_problem or "the campaign's crash journal could not be started"
        return self.journal.problem

    def save(self) -> bool:
        """Write the campaign (atomically, never over a file changed on disk since it was
        read); False, and :attr:`problem` emitted, if not. What the GM is told depends
        on the journal: a change it holds is safe, one it could not write is not."""
        marking = self.journal.saving if self.journal is not None else None
        try:
            digest = store.save_campaign(
                self.folder, self.campaign, expected_digest=self.disk_digest, marking=marking
            )
        except SaveError as exc:
            self._save_failed(exc)
            return False
        self.saved_digest = digest
        self.disk_digest = digest
        self.save_problem = ""
        self.history.set_clean()
        if self.journal is not None:
            self.journal.rebase(self.campaign, digest)
        self._protected("")
        return True

    def _save_failed(self, exc: SaveError) -> None:
        journal = self.journal_problem()
        if journal:
            text = (
                f"{exc}. The campaign's crash journal cannot be written either ({journal}): "
                "changes are NOT protected until afdesk can save the campaign or write its "
                "journal again; if afdesk stops now, the changes since the last save are lost"
            )
            first = not self.unprotected
        else:
            kept = (
                " Open the campaign again to see the file as it is now: afdesk then keeps "
                "the journal beside it and says where."
                if isinstance(exc, FileChangedError)
                else " It comes back when the campaign is opened again."
            )
            text = f"{exc}. Nothing is lost: the change is in the campaign's crash journal.{kept}"
            first = not self.save_problem or bool(self.unprotected)
        self.save_problem = text
        self._protected(text if journal else "")
        if first:  # once, not a warning box at every change while the disk is full
            self.problem.emit(text)

    def _protected(self, why: str) -> None:
        if why != self.unprotected:
            self.unprotected = why
            self.protection.emit(why)

    def close(self) -> None:
        """Stop: a clean close keeps the undo steps for the next opening (undo goes on
        after a restart) and removes the crash journal."""
        if self.history.is_clean() and self.saved_digest and not self.unprotected:
            with contextlib.suppress(SaveError, OSError):  # a convenience: the file is saved
                keep_undo(self.folder, self.history, self.saved_digest)
        if self.journal is not None:
            self.journal.close(clean=self.history.is_clean())
            self.journal = None
