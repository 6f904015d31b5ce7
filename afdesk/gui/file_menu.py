"""The File menu's work for the main window: open (a file, the sample, a dropped file),
new, save and save as (with the faults a disk can throw), the recent files, and asking
before a modified encounter is closed. A mixin of :class:`~afdesk.gui.main_window.MainWindow`:
it uses the window's document, settings, reporter and ``set_document``."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QCloseEvent

from afdesk import paths
from afdesk.gui import screens, start_page

if TYPE_CHECKING:  # the model and the document come with the first file, not at start
    from afdesk.gui.document import EncounterDocument

FILE_FILTER = "afdesk encounters (*.afenc);;All files (*)"


def gm_folder() -> Path:
    """The GM's encounters folder (:func:`afdesk.paths.encounters_dir`), made if it can
    be; the documents folder if it cannot."""
    folder = paths.encounters_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return screens.documents_folder()
    return folder


MAX_RECENT = 8
RECENT_CAMPAIGNS = "recent_campaigns"
"""The QSettings key of File > Open recent campaign (campaign folders, newest first)."""


def kept_text(doc: EncounterDocument) -> str:
    """What a failed save kept, said only as far as it is true now: "nothing was lost"
    only when no change can be lost to a crash (the journal's lines checked on disk)."""
    problem = doc.check_protection()
    if problem:
        return (
            f"The changes are NOT protected against a crash: {problem}. They are only in "
            "this window: save them somewhere else (Save As…, another disk) before closing "
            "afdesk."
        )
    if not doc.is_modified():
        return "Nothing was lost: the encounter is still open, unchanged since it was saved."
    return (
        "Nothing was lost: the encounter is still open, with its changes, and the crash "
        "journal keeps them too."
    )


def document_from_file(path: Path, *, copy: bool = False) -> EncounterDocument:
    """The encounter in ``path`` as a document (``copy``: as a new unsaved one, with no
    path); :class:`afdesk.storage.LoadError` if it cannot be read."""
    from afdesk.encounter.model import Encounter
    from afdesk.gui.document import EncounterDocument
    from afdesk.storage import clean_stale_temps, load

    if not copy:
        with contextlib.suppress(OSError):
            clean_stale_temps(path)  # left behind by a save that was killed
    loaded = load(path)
    enc = Encounter.from_state(loaded.state)
    if copy:
        return EncounterDocument(enc)
    doc = EncounterDocument(enc, path, on_disk_version=loaded.schema_version)
    doc.disk_digest = loaded.digest
    return doc


class FileMenu:
    """Opening, saving and closing encounters (see the module)."""

    def open_sample(self) -> None:
        """The bundled sample, as a new unsaved encounter (never saved over the original)."""
        self.open_path(paths.sample_encounter(), asked=True, copy=True)

    def open_bundled(self, path: Path) -> bool:
        """A bundled sample (a mode's, from File > Open sample), as a new unsaved encounter,
        after asking about unsaved changes; False if the GM kept the encounter shown."""
        return self.open_path(path, copy=True)

    def open_path(
        self, path: str | Path, *, asked: bool = False, copy: bool = False, verb: str = "Opened"
    ) -> bool:
        """Open an encounter file: the one way a file becomes the shown document (the
        command line, File > Open, recent files, a dropped file, the start page, the
        campaign's Run, recovery's "open the saved file", a reload, the samples). A clear
        message and nothing lost if it cannot be. ``asked``: the caller has already asked
        about unsaved changes (Run, a reload); ``copy``: a bundled sample, shown as a new
        unsaved encounter that is never saved over the original (not a recent file)."""
        from afdesk.storage import LoadError

        if not asked and not self.maybe_save():
            return False
        path = Path(path)
        try:
            doc = document_from_file(path, copy=copy)
        except LoadError as exc:
            doing = "reload" if verb == "Reloaded" else "open"
            self.reporter.failed(f"Cannot {doing} the encounter", exc)
            return False
        self.set_document(doc)
        if not copy:
            self._add_recent(path)
            self.show_message(f"{verb} {path.name}.")
        return True

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # made when first used

        start = str(self.doc.path.parent) if self.doc and self.doc.path else str(gm_folder())
        name, _ = QFileDialog.getOpenFileName(self, "Open encounter", start, FILE_FILTER)
        if name:
            self.open_path(name)

    def new_encounter(self) -> None:
        """File > New encounter: name, ruleset, tile set and how the zone starts;
        an empty zone opens the zone editor. The dialog does not block (``self.dialog``
        is it until answered)."""
        from afdesk.gui.editor.new_encounter import PrepareEncounterDialog

        if not self.maybe_save():
            return
        dlg = PrepareEncounterDialog(self, self.rng)
        dlg.accepted.connect(lambda: self._start_new(dlg))
        self.ctx.open_dialog(dlg)

    def _start_new(self, dlg) -> None:
        from afdesk.gui.document import EncounterDocument

        self.set_document(EncounterDocument(dlg.encounter()))
        if dlg.starts_empty():
            self.zone_editor.action.setChecked(True)

    def new_campaign(self) -> None:
        """File > New campaign: a folder for ``campaign.afcamp``."""
        self.campaign.new_dialog()
        if self.campaign.doc is not None:
            self.workspaces.follow_task(campaign=True)

    def open_campaign(self, folder: str | Path | None = None) -> bool:
        """File > Open campaign; a clear message and nothing changed if bad."""
        if folder is None:
            self.campaign.open_dialog()
            opened = self.campaign.doc is not None
        else:
            opened = self.campaign.open(Path(folder))
        if opened:
            start_page.remember(self.settings, "campaign", self.campaign.doc.folder)
            self.workspaces.follow_task(campaign=True)
        return opened

    def close_encounter(self) -> bool:
        """File > Close: close the encounter (asking about unsaved changes) to the start
        page; the next start shows the start page too. False if the GM cancels."""
        if self.doc is None or not self.maybe_save():
            return self.doc is None
        old = self.doc
        self.doc = None
        self._links.clear()
        if self.completed:
            self.campaign.close()
        from afdesk.encounter.model import Encounter
        from afdesk.gui.document import EncounterDocument

        blank = EncounterDocument(Encounter(), journal_factory=lambda d: None)
        blank.setParent(self)
        self.documentChanged.emit(blank)  # the views let go of the closed encounter
        old.close(clean=True)
        old.deleteLater()
        self.turn_label.clear()
        self.show_protection("")
        self.setWindowModified(False)
        self._enable_encounter_actions(False)
        start_page.forget_last(self.settings)
        start_page.show(self)
        return True

    def _enable_encounter_actions(self, on: bool) -> None:
        """With no encounter open (the start page) what needs one is off; opening one
        turns it back on (the commands as the model allows, :meth:`_update_actions`)."""
        if not self.completed:
            return
        acts = [self.act_save, self.act_save_as, self.act_export, self.act_recap]
        acts += [self.act_close, self.act_undo, self.act_redo, self.mode_menu.menuAction()]
        acts += [act for act, _command in self._bound]
        for act in acts:
            act.setEnabled(on)

    def export_recap(self, path: str | Path | None = None, players: bool | None = None) -> bool:
        """File > Export recap: one self-contained HTML page of the session (the log by
        exchange and round, the map at each round's start, every check's dice); for the
        players, without what only the GM sees. A clear message if it cannot be made."""
        from PySide6.QtWidgets import QFileDialog, QMessageBox  # made when first used

        from afdesk.gui.recap_export import build
        from afdesk.storage import SaveError
        from afdesk.storage.recap import RecapError, write_recap

        if path is None:
            start = str(gm_folder() / (self.doc.encounter.meta.name + ".html"))
            path, _ = QFileDialog.getSaveFileName(self, "Export recap", start, "HTML (*.html)")
            if not path:
                return False
        if players is None:
            answer = QMessageBox.question(
                self,
                "Export recap",
                "For the players (without hidden characters, reserves, fog and GM notes)?",
            )
            players = answer == QMessageBox.StandardButton.Yes
        try:
            write_recap(path, build(self.doc, players=players))
        except (RecapError, SaveError) as exc:
            self.reporter.failed("The recap was not exported", exc)
            return False
        self.show_message(f"Exported the recap {Path(path).name}.")
        return True

    def export_image(self) -> None:
        from PySide6.QtWidgets import QFileDialog, QMessageBox  # made when first used

        from afdesk.gui.export import render_map, write_image  # only when asked

        start = str(gm_folder() / (self.doc.encounter.meta.name + ".png"))
        name, _ = QFileDialog.getSaveFileName(self, "Export map image", start, "PNG images (*.png)")
        if not name:
            return
        player = (
            QMessageBox.question(
                self, "Export map image", "Export the player view (without GM-only things)?"
            )
            == QMessageBox.StandardButton.Yes
        )
        image = render_map(self.doc.encounter, (1920, 1080), player=player)
        if write_image(image, name):
            self.show_message(f"Exported {Path(name).name}.")
        else:
            self.reporter.failed("Export failed", f"Could not write {name}.")

    def save(self) -> bool:
        if self.doc is None:
            return False
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog  # made when first used

        if self.doc is None:
            return False
        if self.doc.path:
            start = str(self.doc.path)
        else:  # a first save goes to the GM's encounters folder, not wherever afdesk started
            start = str(gm_folder() / (self.doc.encounter.meta.name + ".afenc"))
        name, _ = QFileDialog.getSaveFileName(self, "Save encounter", start, FILE_FILTER)
        if not name:
            return False
        if not name.endswith(".afenc"):
            name += ".afenc"
        return self._save_to(Path(name))

    def _save_to(self, path: Path, *, overwrite: bool = False) -> bool:
        from afdesk.storage import FileChangedError, SaveError, save
        from afdesk.storage.files import file_digest

        doc = self.doc
        same = path == doc.path
        doc.about_to_save(path)
        try:
            version = save(
                path,
                doc.encounter.state(),
                on_disk_version=doc.on_disk_version if same else None,
                expected_digest=doc.disk_digest if same and not overwrite else None,
            )
        except FileChangedError as exc:
            from afdesk.gui.dialogs import file_changed

            return file_changed.resolve(self, path, exc.detail)
        except SaveError as exc:
            again = self.reporter.failed(
                "The encounter was not saved", exc, kept=kept_text(doc), offer="Save &As…"
            )
            return self.save_as() if again else False
        doc.mark_saved(path, version)
        doc.disk_digest = file_digest(path)
        self._add_recent(path)
        self.show_message(f"Saved {path.name}.")
        return True

    def maybe_save(self) -> bool:
        """Ask before losing changes; False if the GM cancels."""
        if self.doc is None or not self.doc.is_modified():
            return True
        from PySide6.QtWidgets import QMessageBox  # made when first used

        answer = QMessageBox.question(
            self,
            "Unsaved changes",
            f"{self.doc.encounter.meta.name} has changes that are not saved. Save them?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        from afdesk.gui.stored import store

        store(self.settings, "window/geometry", self.saveGeometry())
        store(self.settings, "window/state", self.saveState())
        self.workspaces.save()  # the workspace shown, as the GM left it
        if self.doc is not None:
            self.doc.close(clean=True)
        if self._campaign is not None:  # made when a campaign was first opened or asked for
            self._campaign.close()
        if self.player_window is not None:
            self.player_window.close()
        event.accept()

    # the changes' protection against a crash

    def _build_protection(self) -> None:
        """The window's mark, beside the status bar's news (which the next message
        replaces), that stays while the open encounter's changes are protected by nothing:
        neither saved nor in the crash journal."""
        from PySide6.QtWidgets import QLabel

        self.protection_label = QLabel("⚠ Changes not protected against a crash: save them")
        self.protection_label.setStyleSheet(
            "color: white; background: #b00020; font-weight: bold; padding: 0 8px;"
        )
        self.protection_label.hide()
        self.statusBar().addPermanentWidget(self.protection_label)

    def show_protection(self, problem: str) -> None:
        """Show (``problem``: why the changes are not protected) or hide the mark."""
        label = self.protection_label
        label.setToolTip(
            f"{problem[:1].upper()}{problem[1:]}. Until the encounter is saved (or the crash "
            "journal can be written again), a crash or power cut loses its changes."
            if problem
            else ""
        )
        label.setVisible(bool(problem))

    # drag and drop of files

    def dragEnterEvent(self, event) -> None:
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.open_path(files[0])

    # recent files

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: Path) -> None:
        items = [str(path.resolve())] + [p for p in self.recent_files() if p != str(path.resolve())]
        start_page.store_list(self.settings, "recent", items[:MAX_RECENT])
        if self._campaign is None or self._campaign.doc is None:  # a campaign: it reopens
            start_page.remember(self.settings, "encounter", path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        if not files:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for i, f in enumerate(files, 1):
            act = self.recent_menu.addAction(f"&{i} {Path(f).name}")
            act.setStatusTip(f)
            act.triggered.connect(lambda _c=False, p=f: self.open_path(p))

    # the campaign entries: recent campaigns, an encounter made elsewhere added to the campaign

    def _build_campaign_entries(self, m) -> None:
        """File > New campaign, Open campaign, Open recent campaign, Add encounter to campaign."""
        m.addAction(self.act_new_campaign)
        m.addAction(self.act_open_campaign)
        self.recent_campaigns_menu = m.addMenu("Open recent campaig&n")
        self.recent_campaigns_menu.aboutToShow.connect(self._fill_recent_campaigns)
        self.act_add_to_campaign = self._action(
            "A&dd encounter to campaign…",
            self.add_encounter_to_campaign,
            tip="Copy an encounter file made outside Prepare into the campaign, as prepared",
        )
        m.addAction(self.act_add_to_campaign)

    def recent_campaigns(self) -> list[str]:
        value = self.settings.value(RECENT_CAMPAIGNS, [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def add_recent_campaign(self, folder: Path) -> None:
        """``folder`` first in File > Open recent campaign (called when a campaign opens)."""
        path = str(Path(folder).resolve())
        items = [path] + [p for p in self.recent_campaigns() if p != path]
        self.settings.setValue(RECENT_CAMPAIGNS, items[:MAX_RECENT])

    def _fill_recent_campaigns(self) -> None:
        """Each recent campaign folder; one that is gone (or holds no campaign file any
        more) is greyed out with the reason."""
        from afdesk.gui.campaign.control import missing_reason

        menu = self.recent_campaigns_menu
        menu.clear()
        menu.setToolTipsVisible(True)
        folders = self.recent_campaigns()
        if not folders:
            menu.addAction("(none)").setEnabled(False)
        for i, f in enumerate(folders, 1):
            why = missing_reason(Path(f))
            act = menu.addAction(f"&{i} {Path(f).name}" + (f" ({why})" if why else ""))
            act.setStatusTip(f)
            act.setToolTip(f"{f}: {why}" if why else f)
            act.setEnabled(not why)
            act.triggered.connect(lambda _c=False, p=f: self.open_campaign(p))

    def campaign_title(self) -> str:
        """The open campaign's title for the window title ('' if none is open)."""
        camp = self._campaign.doc if self._campaign is not None else None
        return f"campaign {camp.campaign.name}" if camp is not None else ""

    def add_encounter_to_campaign(self, path: str | Path | None = None) -> bool:
        """File > Add encounter to campaign: an ``.afenc`` made outside Prepare is copied
        into the campaign folder under a free name and listed as prepared."""
        from PySide6.QtWidgets import QFileDialog  # made when first used

        if self._campaign is None or self.campaign.doc is None:
            self.reporter.failed(
                "No campaign is open",
                "Open or create a campaign first (File > Open campaign or New campaign), "
                "then add the encounter to it.",
            )
            return False
        if path is None:
            start = str(self.doc.path.parent) if self.doc and self.doc.path else ""
            path, _ = QFileDialog.getOpenFileName(
                self, "Add encounter to campaign", start, FILE_FILTER
            )
            if not path:
                return False
        return bool(self.campaign.add_encounter_file(Path(path)))
