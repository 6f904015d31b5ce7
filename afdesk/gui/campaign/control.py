"""The campaign's work for the main window: new and open (recovering the journal,
offering to resume the encounter last running), prepare, run (a fresh running copy; the
prepared file stays clean), carry over, a new session, the roster.

Questions go through :attr:`CampaignControl.ask` and dialogs are opened (not exec'd) and
kept in :attr:`CampaignControl.dialog`, so tests and scripts can answer them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMessageBox

from afdesk.encounter.campaign.build import running_copy
from afdesk.encounter.campaign.carry import carry_over, carry_refusal, referee_proposal
from afdesk.encounter.campaign.edits import PutEncounter, RenameCampaign, StartRun, StartSession
from afdesk.encounter.campaign.roster import fresh_id, slug
from afdesk.encounter.campaign.state import Campaign, Planned, Play
from afdesk.gui.campaign.document import CampaignDocument
from afdesk.gui.follow import follow
from afdesk.storage import campaign as store


def now() -> str:
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


def missing_reason(folder: Path) -> str:
    """Why a recent campaign folder cannot be opened now, in words ('' if it can be)."""
    try:
        if (folder / store.FILE_NAME).is_file():
            return ""
        if not folder.exists():
            return "the folder is gone"
    except OSError as exc:
        return f"cannot be looked at: {exc.strerror or exc}"
    return f"no {store.FILE_NAME} in the folder any more"


class CampaignControl:
    """One per main window; holds the open campaign (:attr:`doc`)."""

    def __init__(self, window) -> None:
        self.window = window
        self.doc: CampaignDocument | None = None
        self.dock: QDockWidget | None = None
        self.panel = None
        self.dialog = None
        self._followed = None
        self.ask: Callable[[str, str], bool] = self._ask

    def _ask(self, title: str, text: str) -> bool:
        yes = QMessageBox.StandardButton.Yes
        return QMessageBox.question(self.window, title, text) == yes

    def _fail(self, what: str, detail) -> None:
        self.window.reporter.failed(what, detail)

    # ------------------------------------------------------------------ new and open

    def new_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.window, "New campaign: choose its folder")
        if folder:
            self.create(Path(folder))

    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self.window, "Open campaign", "", "afdesk campaigns (campaign.afcamp);;All files (*)"
        )
        if name:
            self.open(Path(name).parent)

    def create(self, folder: Path, name: str = "") -> bool:
        """A new campaign in ``folder`` (refused if one is there already)."""
        folder = Path(folder)
        if (folder / store.FILE_NAME).exists():
            self._fail(
                "Cannot create the campaign",
                f"{folder} already holds a campaign: open it with File > Open campaign.",
            )
            return False
        from afdesk.storage.errors import SaveError

        camp = Campaign(name=name or folder.name or "New campaign")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            store.save_campaign(folder, camp)
        except (OSError, SaveError) as exc:
            self._fail("Cannot create the campaign", exc)
            return False
        return self.open(folder)

    def open(self, folder: Path) -> bool:
        """Open the campaign in ``folder``: a clear message and nothing changed if its file
        is bad (the campaign open before stays open, and never saves over a file changed
        on disk since it read it); a journal left by a crash is offered; a journal that
        cannot be (wholly) used is kept aside, never overwritten, and a dialog says where;
        then the encounter that was running when it was last closed."""
        from afdesk.storage import atomic, campaign_journal
        from afdesk.storage.errors import LoadError

        folder = Path(folder)
        try:
            loaded = store.load_campaign(folder)
        except LoadError as exc:
            self._fail("Cannot open the campaign", exc)
            return False
        camp, digest = loaded.campaign, loaded.digest
        mine = self.doc is not None and self.doc.folder == loaded.folder
        if not mine and campaign_journal.in_use(loaded.folder):
            self._fail(
                "Cannot open the campaign",
                f"{camp.name} is open in another afdesk: close it there first (two afdesks "
                "saving one campaign would undo each other's changes).",
            )
            return False
        if mine:
            self.close()  # reopening: our own journal is closed cleanly first
        atomic.clean_stale_temps(loaded.path)  # left by a save that was killed
        try:
            got, unusable = campaign_journal.recover(loaded.folder), None
        except LoadError as exc:
            got, unusable = None, exc
        where = ""
        if unusable is not None or (got is not None and got.dropped):
            try:
                kept = campaign_journal.set_aside(loaded.folder)
            except OSError as exc:
                self._fail(
                    "Cannot open the campaign",
                    f"The campaign's crash journal cannot be used and cannot be kept aside "
                    f"({exc.strerror or exc}); it is not overwritten, so {camp.name} is not "
                    f"opened. Make the folder {loaded.folder} writable and open it again.",
                )
                return False
            damage = unusable.detail if unusable is not None else got.dropped if got else ""
            where = f"It is kept as {kept.name} in {loaded.folder}."
            if got is None or not got.changes:
                self._fail(
                    "The campaign's crash journal was not used",
                    f"{campaign_journal.JOURNAL_NAME}: {damage}. It may hold changes that "
                    f"are not in {store.FILE_NAME}, so it was not overwritten. {where}",
                )
                got = None
        if got is not None:
            left_out = f"\n\nThe journal is damaged: {got.dropped}. {where}" if got.dropped else ""
            if self.ask(
                "Recover the campaign",
                f"afdesk was closed before {got.changes} change(s) to {got.campaign.name} "
                f"were saved. Recover them?{left_out}",
            ):
                camp, digest = got.campaign, ""
        campaign_journal.discard(loaded.folder)  # nothing the file lacks, or declined
        self.close()
        kept, lost = campaign_journal.kept_undo(loaded.folder, loaded.campaign, loaded.digest)
        self.doc = CampaignDocument(camp, loaded.folder, digest, on_disk=loaded.digest)
        if digest:  # not recovered: undo goes on from the steps kept at the last close
            self.doc.history.restore(kept)
        self.doc.problem.connect(lambda text: self._fail("The campaign was not saved", text))
        self.doc.protection.connect(self._protection)
        if not digest:
            self.doc.save()
        if self.doc.save_problem and not self.doc.unprotected:
            self.window.reporter.problem(self.doc.save_problem)
        self.doc.changed.connect(self._changed)
        self._install_dock()
        self.dock.setWindowTitle("Campaign")  # a new campaign: nothing "saved again" yet
        self._protection(self.doc.unprotected)
        self.panel.refresh()
        self.window.show_message(
            f"Opened the campaign {camp.name}." + (f" {lost}." if lost else "")
        )
        self.window.add_recent_campaign(loaded.folder)
        self.window._update_title()
        missing = store.missing_encounters(camp, loaded.folder)
        if missing:  # said now, not only when Run fails
            self._fail(
                "Encounters missing",
                f"{camp.name} lists encounter files that are not in its folder "
                f"({loaded.folder}):\n" + "\n".join(missing) + "\n\nPut them back (or "
                "prepare the encounters again) before running them.",
            )
        last = camp.find_encounter(camp.last_running)
        if (
            last is not None
            and last.running
            and self.ask(
                "Resume", f"{last.title} was running when {camp.name} was last closed. Resume it?"
            )
        ):
            self.window.open_path(self.doc.path_of(last.running))
            self.panel.select(last.id)
        return True

    def _protection(self, why: str) -> None:
        """Show, on the Campaign dock's title, whether changes are safe (see
        :attr:`CampaignDocument.unprotected`); say when they are safe again."""
        if self.dock is None:
            return
        title = "Campaign" if not why else "Campaign: changes NOT protected"
        if title != self.dock.windowTitle():
            self.dock.setWindowTitle(title)
            if not why:
                self.window.show_message("The campaign is saved again: every change is safe.")

    def close(self) -> None:
        if self.doc is not None:
            self.doc.close()
            self.doc.deleteLater()
            self.doc = None

    def _install_dock(self) -> None:
        from afdesk.gui.campaign.dock import CampaignPanel

        if self.dock is None:
            self.panel = CampaignPanel(self)
            self.dock = QDockWidget("Campaign", self.window)
            self.dock.setObjectName("campaignDock")
            self.dock.setWidget(self.panel)
            self.window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
            self.window.tabifyDockWidget(self.window.reflex_dock, self.dock)
            # An encounter opened (a running copy saved before) gets a fresh thumbnail:
            # thumbnails are keyed by the file and its modification time.
            follow(self.window, self._document, now=False)
            view = next(
                (a.menu() for a in self.window.menuBar().actions() if a.text() == "&View"), None
            )
            if view is not None:
                view.addAction(self.dock.toggleViewAction())
        self.dock.show()
        self.dock.raise_()

    def _document(self, doc) -> None:
        self._changed()
        if doc is not None and doc is not self._followed:
            self._followed = doc  # Carry over waits until its running copy leaves setup
            doc.changed.connect(self._buttons)

    def _buttons(self) -> None:
        if self.panel is not None:
            self.panel._update_buttons()

    def _changed(self) -> None:
        if self.panel is not None:
            self.panel.refresh()
        self.window._update_title()  # it names the campaign (a rename shows at once)

    # ------------------------------------------------------------------- encounters

    def prepare(self) -> None:
        """Open the prepare dialog; on OK the encounter is saved in the folder and listed."""
        from afdesk.gui.campaign.prepare_dialog import PrepareDialog

        if self.doc is None:
            return
        dlg = PrepareDialog(self.doc.campaign, self.window, self.window.rng)
        dlg.accepted.connect(lambda: self._prepared(dlg))
        self.dialog = dlg
        dlg.open()

    def _prepared(self, dlg) -> None:
        """Prepare's OK: save and list the encounter; one started with an empty zone opens
        in the zone editor, as File > New does (E9)."""
        eid = self.prepared(dlg.built)
        if eid and dlg.starts_empty():
            path = self.doc.path_of(self.doc.campaign.encounter(eid).file)
            if self.window.open_path(path):
                self.window.zone_editor.action.setChecked(True)

    def _free_name(self, title: str) -> str:
        """A file name for ``title`` that neither the campaign nor its folder uses."""
        camp = self.doc.campaign
        taken = {e.file for e in camp.encounters} | {p.name for p in self.doc.folder.iterdir()}
        stem, n = slug(title, "encounter"), 2
        name = f"{stem}.afenc"
        while name in taken:
            name, n = f"{stem}-{n}.afenc", n + 1
        return name

    def prepared(self, enc) -> str:
        """Save a prepared encounter in the campaign folder and list it; its id or ''."""
        from afdesk.storage import SaveError, save

        camp = self.doc.campaign
        title = enc.meta.name
        name = self._free_name(title)
        try:
            save(self.doc.path_of(name), enc.state())
        except SaveError as exc:
            self._fail("The encounter was not saved", exc)
            return ""
        eid = fresh_id(title, (e.id for e in camp.encounters), "encounter")
        reason = self.doc.push(PutEncounter(Planned(id=eid, title=title, file=name)))
        if reason:
            self._fail("The encounter was not added", reason)
            return ""
        self.panel.select(eid)
        return eid

    def add_encounter_file(self, path: Path) -> str:
        """File > Add encounter to campaign: ``path`` (an ``.afenc`` made outside Prepare)
        is read, copied into the campaign folder under a free name and listed as prepared;
        its id, or '' and a clear message (nothing copied, nothing listed)."""
        from afdesk.storage import LoadError, load
        from afdesk.storage.atomic import replace as write_atomically
        from afdesk.storage.errors import SaveError
        from afdesk.storage.files import read_bytes

        if self.doc is None:
            return ""
        path = Path(path)
        try:
            title = load(path).state.meta.name
            data = read_bytes(path, path.name)
        except LoadError as exc:
            self._fail("The encounter was not added to the campaign", exc)
            return ""
        name = self._free_name(title)
        target = self.doc.path_of(name)
        try:
            write_atomically(target, data)
        except (OSError, SaveError) as exc:
            self._fail("The encounter was not added to the campaign", exc)
            return ""
        eid = fresh_id(title, (e.id for e in self.doc.campaign.encounters), "encounter")
        reason = self.doc.push(PutEncounter(Planned(id=eid, title=title, file=name)))
        if reason:
            target.unlink(missing_ok=True)
            self._fail("The encounter was not added to the campaign", reason)
            return ""
        self.panel.select(eid)
        self.window.show_message(f"Added {title} to {self.doc.campaign.name} as {name}.")
        return eid

    def open_encounter(self, eid: str) -> bool:
        """Open the running copy if there is one, else the prepared file (to edit it)."""
        e = self.doc.campaign.find_encounter(eid) if self.doc else None
        if e is None:
            return False
        return self.window.open_path(self.doc.path_of(e.running or e.file))

    def run(self, eid: str) -> bool:
        """Run an encounter: a fresh copy of the prepared file, with the linked characters
        as the roster has them now, saved beside it and opened. The prepared file is left
        as it is, to be run again another night."""
        from afdesk.storage import LoadError, SaveError, load, save

        doc = self.doc
        e = doc.campaign.find_encounter(eid) if doc else None
        if e is None:
            return False
        if not self.window.maybe_save():
            return False
        try:
            prepared = load(doc.path_of(e.file))
        except LoadError as exc:
            self._fail(f"Cannot run {e.title}", exc)
            return False
        state = running_copy(prepared.state, doc.campaign)
        stem = Path(e.file).stem
        n = e.runs + 1
        name = f"{stem}.run{n}.afenc"
        while doc.path_of(name).exists():
            n += 1
            name = f"{stem}.run{n}.afenc"
        try:
            save(doc.path_of(name), state)
        except SaveError as exc:
            self._fail(f"Cannot run {e.title}", exc)
            return False
        linked = tuple(c.link for c in state.combatants if c.link)
        reason = doc.push(StartRun(eid, running=name, when=now(), linked=linked))
        if reason:
            self._fail(f"Cannot run {e.title}", reason)
            return False
        return self.window.open_path(doc.path_of(name), asked=True)

    def carry_over(self, eid: str) -> None:
        """End the encounter and open the carry-over dialog for it (the running copy is
        saved first if it is the one open)."""
        from afdesk.encounter import persevere
        from afdesk.gui.campaign.carry_dialog import CarryOverDialog
        from afdesk.storage import LoadError, load

        doc = self.doc
        e = doc.campaign.find_encounter(eid) if doc else None
        if e is None or not e.running:
            return
        path = doc.path_of(e.running)
        open_doc = self.window.doc
        if open_doc is not None and open_doc.path is not None and open_doc.path == path:
            if open_doc.is_modified() and not self.window.save():
                return
            enc = open_doc.encounter
            if persevere.due(enc) and not self.ask(
                "Persevere first?",
                f"{e.title} lasted more than one exchange and nobody has persevered yet "
                "(E15). Carry over without persevering?",
            ):
                return
        try:
            state = load(path).state
        except LoadError as exc:
            self._fail("Cannot carry over", exc)
            return
        refusal = carry_refusal(e.title, state.turn)
        if refusal:
            self._fail("Cannot carry over", refusal)
            return
        lines = carry_over(doc.campaign, state.combatants, e)
        pool = referee_proposal(doc.campaign, e, state.meta.referee_shifts)
        dlg = CarryOverDialog(doc, eid, lines, self.window, pool)
        self.dialog = dlg
        dlg.open()

    def carry_refusal(self, eid: str) -> str:
        """Why Carry over is not offered for ``eid`` as far as the window knows: its
        running copy is open and still in setup. "" otherwise (a copy not open is judged
        when Carry over loads it)."""
        e = self.doc.campaign.find_encounter(eid) if self.doc else None
        open_doc = self.window.doc
        if e is None or not e.running or open_doc is None or open_doc.path is None:
            return ""
        if open_doc.path != self.doc.path_of(e.running):
            return ""
        return carry_refusal(e.title, open_doc.encounter.turn)

    # --------------------------------------------------------------------- the rest

    def new_session(self) -> None:
        if self.doc is None:
            return
        running = [e.title for e in self.doc.campaign.encounters if e.play is Play.RUNNING]
        if running and not self.ask(
            "Start a new session", f"{running[0]} is still running. Start a new session anyway?"
        ):
            return
        reason = self.doc.push(StartSession())
        if reason:
            self._fail("No new session", reason)
            return
        self.window.show_message(self.doc.campaign.log[-1].text)

    def roster(self) -> None:
        from afdesk.gui.campaign.roster_dialog import RosterDialog

        if self.doc is None:
            return
        dlg = RosterDialog(self.doc, self.window)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # it follows the campaign
        self.dialog = dlg
        dlg.open()

    def add_to_encounter(self) -> None:
        from afdesk.gui.campaign.prepare_dialog import AddFromRosterDialog

        if self.doc is None or self.window.doc is None:
            return
        dlg = AddFromRosterDialog(self.doc.campaign, self.window.doc, self.window)
        self.dialog = dlg
        dlg.open()

    def rename(self, name: str) -> str:
        """Rename the campaign (one undoable, journaled edit); '' or why not."""
        if self.doc is None:
            return "no campaign is open"
        reason = self.doc.push(RenameCampaign(name))
        if reason:
            self._fail("The campaign was not renamed", reason)
        return reason

    def rename_dialog(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        if self.doc is None:
            return
        old = self.doc.campaign.name
        name, ok = QInputDialog.getText(self.window, "Rename campaign", "Title:", text=old)
        if ok and name.strip() != old:
            self.rename(name)

    def undo(self) -> None:
        if self.doc is not None:
            self.doc.undo()

    def redo(self) -> None:
        if self.doc is not None:
            self.doc.redo()
