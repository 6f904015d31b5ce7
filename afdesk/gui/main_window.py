"""The GM's window: the map in the middle, reflex, character and log docks around it, the
file and encounter menus, and the player view on demand."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QUndoView,
    QWidget,
)

from afdesk import paths
from afdesk.encounter.contest import Action
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.flow import EndEncounter, NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import deal_hands
from afdesk.encounter.ops.roster import RemoveCombatant
from afdesk.encounter.state import Mode, Phase
from afdesk.gui import actions as gm_actions
from afdesk.gui.actions import deal_refusal, trim_words
from afdesk.gui.document import EncounterDocument, Links

FILE_FILTER = "afdesk encounters (*.afenc);;All files (*)"
MAX_RECENT = 8


class MainWindow(QMainWindow):
    """One encounter at a time; File > Open replaces it (asking first if it has changes)."""

    documentChanged = Signal(object)

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings or QSettings()
        self.doc: EncounterDocument | None = None
        self.player_window = None
        self._links = Links()
        self.dialog = None
        """The last dialog opened over the window (tests and scripts drive it)."""
        self.rng = random.SystemRandom()
        self.setAcceptDrops(True)
        self.resize(1500, 950)
        self._build_map()
        self._build_docks()
        self._build_actions()
        self._build_menus()
        self._build_status()
        self._restore_layout()

    # ----------------------------------------------------------------------- building

    def _build_map(self) -> None:
        from afdesk.gui.map.view import MapView

        self.map = MapView(EncounterDocument(Encounter(), journal_factory=lambda d: None))
        self.map.setObjectName("map")
        self.setCentralWidget(self.map)
        self.map.actionRequested.connect(self.perform)
        self.map.statusMessage.connect(self.show_message)

    def _build_docks(self) -> None:
        from afdesk.gui.docks.combatant import CombatantPanel
        from afdesk.gui.docks.log import LogPanel
        from afdesk.gui.docks.reflex import ReflexPanel

        self.reflex_panel = ReflexPanel(self)
        self.combatant_panel = CombatantPanel(self)
        self.log_panel = LogPanel(self)
        self.history = QUndoView()
        self.history.setEmptyLabel("Opened")
        self.reflex_dock = self._dock(
            "Reflex", "reflexDock", self.reflex_panel, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.combatant_dock = self._dock(
            "Character",
            "combatantDock",
            self.combatant_panel,
            Qt.DockWidgetArea.RightDockWidgetArea,
        )
        self.log_dock = self._dock(
            "Log", "logDock", self.log_panel, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.history_dock = self._dock(
            "Undo history", "historyDock", self.history, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.tabifyDockWidget(self.combatant_dock, self.history_dock)
        self.combatant_dock.raise_()
        self.combatant_panel.actionRequested.connect(self.perform)
        self.combatant_panel.message.connect(self.show_message)
        self.reflex_panel.message.connect(self.show_message)

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
        act.triggered.connect(lambda _checked=False: slot())
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        S = QKeySequence.StandardKey
        self.act_new = self._action("&New encounter…", self.new_encounter, S.New)
        self.act_open = self._action("&Open…", self.open_dialog, S.Open)
        self.act_save = self._action("&Save", self.save, S.Save)
        self.act_save_as = self._action("Save &As…", self.save_as, S.SaveAs)
        self.act_export = self._action("&Export map image…", self.export_image, "Ctrl+E")
        self.act_quit = self._action("&Quit", self.close, S.Quit)
        self.act_player = self._action(
            "&Player view", self.toggle_player_view, "F11", "A second window for the projector"
        )
        self.act_focus_map = self._action(
            "Focus the &map", self._focus_map, "M", "Keys then move and turn the selection"
        )
        self.act_fit = self._action("&Fit to zone", lambda: self.map.fit_to_zone(), "F")
        self.act_zoom_in = self._action("Zoom &in", lambda: self.map.zoom_in(), S.ZoomIn)
        self.act_zoom_out = self._action("Zoom &out", lambda: self.map.zoom_out(), S.ZoomOut)
        self.act_rear = self._action("Shade &rear arcs", self._toggle_rear, "R")
        self.act_rear.setCheckable(True)
        self.act_deal = self._action(
            "&Deal reflex", self.deal, "Ctrl+D", "Shuffle and deal 5 cards to every hand (E2)"
        )
        self.act_cards = self._action(
            "Play &cards…",
            self.play_cards,
            "Ctrl+K",
            "Every hand plays a card for the next round (E2)",
        )
        self.act_next = self._action("&Next turn", self.next_turn, "Space")
        self.act_trim = self._action(
            "&Trim the zone",
            self.trim_zone,
            None,
            "Back to 3 x 3 tiles at the end of an exchange (E9)",
        )
        self.act_end = self._action("&End the encounter", self.end_encounter)
        self.act_persevere = self._action("&Persevere…", self.persevere)
        self.act_add = self._action("&Add character…", self.add_character, "Ctrl+Shift+A")
        self.act_settings = self._action("Encounter &settings…", self.encounter_settings)
        self.act_undo = self._action("&Undo", lambda: self.doc.undo_stack.undo(), S.Undo)
        self.act_redo = self._action("&Redo", lambda: self.doc.undo_stack.redo(), S.Redo)
        self._stack_links: list = []

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        m.addAction(self.act_new)
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        m.addSeparator()
        m.addAction(self.act_save)
        m.addAction(self.act_save_as)
        m.addAction(self.act_export)
        m.addSeparator()
        m.addAction(self.act_quit)
        self.edit_menu = bar.addMenu("&Edit")
        self.edit_menu.addAction(self.act_undo)
        self.edit_menu.addAction(self.act_redo)
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(self.history_dock.toggleViewAction())
        v = bar.addMenu("&View")
        v.addAction(self.act_player)
        v.addSeparator()
        v.addAction(self.act_fit)
        v.addAction(self.act_zoom_in)
        v.addAction(self.act_zoom_out)
        v.addAction(self.act_rear)
        v.addSeparator()
        for dock in (self.reflex_dock, self.combatant_dock, self.log_dock, self.history_dock):
            v.addAction(dock.toggleViewAction())
        e = bar.addMenu("E&ncounter")
        e.addAction(self.act_deal)
        e.addAction(self.act_cards)
        e.addAction(self.act_next)
        e.addSeparator()
        e.addAction(self.act_trim)
        self.mode_menu = e.addMenu("&Mode")
        for mode in Mode:
            act = self.mode_menu.addAction(mode.label)
            act.setData(mode)
            act.setCheckable(True)
            act.triggered.connect(lambda _c=False, md=mode: self.change_mode(md))
        e.addAction(self.act_end)
        e.addAction(self.act_persevere)
        e.addSeparator()
        e.addAction(self.act_add)
        e.addAction(self.act_settings)
        self.char_menu = bar.addMenu("&Character")
        self.char_menu.aboutToShow.connect(self._fill_character_menu)
        h = bar.addMenu("&Help")
        h.addAction(self._action("&Keyboard", self._keyboard_help, "F1"))
        h.addAction(self._action("&About afdesk", self._about))

    def _build_status(self) -> None:
        self.turn_label = QLabel()
        self.turn_label.setStyleSheet("font-weight: bold; padding: 0 8px;")
        self.statusBar().addPermanentWidget(self.turn_label)

    # ----------------------------------------------------------------------- documents

    def set_document(self, doc: EncounterDocument) -> None:
        """Show ``doc``; the previous document is closed cleanly (its journal removed)."""
        old = self.doc
        self.doc = doc
        doc.setParent(self)
        self.map.set_document(doc)
        self.reflex_panel.set_document(doc)
        self.combatant_panel.set_document(doc)
        self.log_panel.set_document(doc)
        self.history.setStack(doc.undo_stack)
        if self.player_window is not None:
            self.player_window.set_document(doc)
        self._rebuild_edit_menu()
        self._links.clear()
        for signal, slot in (
            (doc.modifiedChanged, self._update_title),
            (doc.pathChanged, self._update_title),
            (doc.metaChanged, self._update_title),
            (doc.refused, self.show_message),
            (doc.journalProblem, self._journal_problem),
            (doc.turnChanged, self._turn_changed),
            (doc.changed, self._update_actions),
        ):
            self._links.connect(signal, slot)
        self._update_title()
        self._turn_changed()
        if old is not None and old is not doc:
            old.close(clean=True)
            old.deleteLater()
        self.documentChanged.emit(doc)
        QTimer.singleShot(0, self.map.fit_to_zone)

    def _rebuild_edit_menu(self) -> None:
        """Point Undo and Redo at the current document's stack ("Undo Move Huang")."""
        stack = self.doc.undo_stack
        for signal, slot in self._stack_links:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)
        self._stack_links = [
            (stack.canUndoChanged, self.act_undo.setEnabled),
            (stack.canRedoChanged, self.act_redo.setEnabled),
            (stack.undoTextChanged, self._undo_text),
            (stack.redoTextChanged, self._redo_text),
        ]
        for signal, slot in self._stack_links:
            signal.connect(slot)
        self.act_undo.setEnabled(stack.canUndo())
        self.act_redo.setEnabled(stack.canRedo())
        self._undo_text(stack.undoText())
        self._redo_text(stack.redoText())

    def _undo_text(self, text: str) -> None:
        self.act_undo.setText(f"&Undo {text}" if text else "&Undo")

    def _redo_text(self, text: str) -> None:
        self.act_redo.setText(f"&Redo {text}" if text else "&Redo")

    def _update_title(self, *_args) -> None:
        doc = self.doc
        if doc is None:
            return
        where = doc.path.name if doc.path else "not saved yet"
        self.setWindowTitle(f"{doc.encounter.meta.name} ({where})[*] — afdesk")
        self.setWindowModified(doc.is_modified())

    def open_sample(self) -> None:
        """The bundled sample, as a new unsaved encounter (never saved over the original)."""
        from afdesk.storage import load

        loaded = load(paths.sample_encounter())
        doc = EncounterDocument(Encounter.from_state(loaded.state))
        self.set_document(doc)

    def open_path(self, path: str | Path) -> bool:
        """Open an encounter file; a clear message and nothing lost if it cannot be."""
        from afdesk.storage import LoadError, clean_stale_temps, load

        if not self.maybe_save():
            return False
        path = Path(path)
        with contextlib.suppress(OSError):
            clean_stale_temps(path)  # left behind by a save that was killed
        try:
            loaded = load(path)
        except LoadError as exc:
            QMessageBox.warning(self, "Cannot open the encounter", str(exc))
            return False
        doc = EncounterDocument(
            Encounter.from_state(loaded.state), path, on_disk_version=loaded.schema_version
        )
        self.set_document(doc)
        self._add_recent(path)
        self.show_message(f"Opened {path.name}.")
        return True

    def open_dialog(self) -> None:
        start = str(self.doc.path.parent) if self.doc and self.doc.path else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open encounter", start, FILE_FILTER)
        if name:
            self.open_path(name)

    def new_encounter(self) -> None:
        from afdesk.gui.dialogs.character import NewEncounterDialog

        if not self.maybe_save():
            return
        dlg = NewEncounterDialog(self)
        if dlg.exec():
            self.set_document(EncounterDocument(dlg.encounter()))

    def save(self) -> bool:
        if self.doc is None:
            return False
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        if self.doc is None:
            return False
        start = str(self.doc.path) if self.doc.path else self.doc.encounter.meta.name + ".afenc"
        name, _ = QFileDialog.getSaveFileName(self, "Save encounter", start, FILE_FILTER)
        if not name:
            return False
        if not name.endswith(".afenc"):
            name += ".afenc"
        return self._save_to(Path(name))

    def _save_to(self, path: Path) -> bool:
        from afdesk.storage import SaveError, save

        doc = self.doc
        try:
            version = save(
                path,
                doc.encounter.state(),
                on_disk_version=doc.on_disk_version if path == doc.path else None,
            )
        except SaveError as exc:
            box = QMessageBox(self)
            box.setIcon(QMessageBox.Icon.Warning)
            box.setWindowTitle("The encounter was not saved")
            box.setText(
                f"{exc}\n\nNothing was lost: the encounter is still open, with its "
                "changes, and the crash journal keeps them too."
            )
            save_as = box.addButton("Save &As…", QMessageBox.ButtonRole.AcceptRole)
            box.addButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            if box.clickedButton() is save_as:
                return self.save_as()
            return False
        doc.mark_saved(path, version)
        self._add_recent(path)
        self.show_message(f"Saved {path.name}.")
        return True

    def maybe_save(self) -> bool:
        """Ask before losing changes; False if the GM cancels."""
        if self.doc is None or not self.doc.is_modified():
            return True
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
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        if self.doc is not None:
            self.doc.close(clean=True)
        if self.player_window is not None:
            self.player_window.close()
        event.accept()

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
        self.settings.setValue("recent", items[:MAX_RECENT])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        if not files:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for i, f in enumerate(files, 1):
            act = self.recent_menu.addAction(f"&{i} {Path(f).name}")
            act.setStatusTip(f)
            act.triggered.connect(lambda _c=False, p=f: self.open_path(p))

    def _restore_layout(self) -> None:
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    # -------------------------------------------------------------------- the table

    def show_dialog(self, dialog) -> None:
        """Open a dialog over the window without blocking the event loop."""
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog = dialog
        dialog.open()

    def _journal_problem(self, text: str) -> None:
        self.show_message(text)
        self.statusBar().setStyleSheet("color: #b00020; font-weight: bold;")
        QTimer.singleShot(8000, lambda: self.statusBar().setStyleSheet(""))

    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 8000)

    def push(self, op) -> bool:
        return self.doc.push(op) == "" if self.doc is not None else False

    def deal(self) -> None:
        try:
            op = deal_hands(self.doc.encounter, self.rng, self.reflex_panel.physical_hands())
        except Exception as exc:  # IllegalOp: too many hands
            self.show_message(str(exc))
            return
        self.push(op)

    def play_cards(self) -> None:
        from afdesk.gui.dialogs.cards import PlayCardsDialog

        enc = self.doc.encounter
        if enc.turn.phase is not Phase.CARDS:
            self.show_message(
                "Cards are played at the start of a round: deal first, or finish the turns."
            )
            return
        self.show_dialog(PlayCardsDialog(self.doc, self))

    def next_turn(self) -> None:
        enc = self.doc.encounter
        if enc.turn.phase is Phase.CARDS:
            self.play_cards()
        elif enc.turn.phase in (Phase.SETUP, Phase.EXCHANGE_END):
            self.deal()
        else:
            self.push(NextTurn())

    def trim_zone(self) -> None:
        from afdesk.encounter.ops.zone import TrimZone

        edges = self.doc.encounter.trim_proposal()
        if not edges:
            self.show_message(trim_words(self.doc.encounter))
            return
        self.doc.push_many([TrimZone(e) for e in edges], "Trim the zone")

    def change_mode(self, mode: Mode) -> None:
        """Change the mode (E16): at once when the rules allow it, otherwise only after the
        GM confirms an override."""
        enc = self.doc.encounter
        if mode is enc.mode:
            return
        override = bool(self.doc.try_op(ChangeMode(mode)))
        if override:
            answer = QMessageBox.question(
                self,
                "Change the mode now?",
                "The mode normally changes at the end of an exchange (E16). Change it now "
                "anyway (a GM override the log will show)?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                self._update_actions()
                return
        self.push(ChangeMode(mode, override=override))

    def end_encounter(self) -> None:
        if self.push(EndEncounter()):
            from afdesk.encounter import persevere

            if persevere.due(self.doc.encounter):
                self.persevere()

    def persevere(self) -> None:
        from afdesk.gui.dialogs.persevere import PersevereDialog

        self.show_dialog(PersevereDialog(self.doc, self))

    def add_character(self) -> None:
        from afdesk.gui.dialogs.character import CharacterDialog

        self.show_dialog(CharacterDialog(self.doc, None, self))

    def encounter_settings(self) -> None:
        from afdesk.gui.dialogs.character import SettingsDialog

        self.show_dialog(SettingsDialog(self.doc, self))

    def export_image(self) -> None:
        from afdesk.gui.export import render_map

        name, _ = QFileDialog.getSaveFileName(
            self, "Export map image", self.doc.encounter.meta.name + ".png", "PNG images (*.png)"
        )
        if not name:
            return
        player = (
            QMessageBox.question(
                self, "Export map image", "Export the player view (without GM-only things)?"
            )
            == QMessageBox.StandardButton.Yes
        )
        image = render_map(self.doc.encounter, (1920, 1080), player=player)
        if image.save(name):
            self.show_message(f"Exported {Path(name).name}.")
        else:
            QMessageBox.warning(self, "Export failed", f"Could not write {name}.")

    def toggle_player_view(self) -> None:
        """F11: show the player view, or hide it if it is showing."""
        if self.player_window is not None and self.player_window.isVisible():
            self.player_window.hide()
        else:
            self.show_player_view()

    def _focus_map(self) -> None:
        self.map.setFocus()
        if self.doc is not None and self.doc.encounter.actor:
            self.doc.select(self.doc.encounter.actor)

    def show_player_view(self) -> None:
        from afdesk.gui.player_view import PlayerWindow

        if self.player_window is None:
            self.player_window = PlayerWindow(self.doc)
        self.player_window.show()
        self.player_window.raise_()

    def _toggle_rear(self) -> None:
        self.map.set_rear_arcs(self.act_rear.isChecked())

    def _turn_changed(self) -> None:
        enc = self.doc.encounter
        t = enc.turn
        if t.phase is Phase.TURNS and enc.actor:
            self.turn_label.setText(
                f"Exchange {t.exchange} · Round {t.round} · {enc.combatants[enc.actor].name}'s turn"
            )
            self.doc.select(enc.actor)
        elif t.phase is Phase.SETUP:
            self.turn_label.setText("Setup: place characters, then deal reflex (Ctrl+D)")
        else:
            self.turn_label.setText(f"Exchange {t.exchange} · {t.phase.label}")
        self._update_actions()

    def _update_actions(self) -> None:
        if self.doc is None:
            return
        enc = self.doc.encounter
        phase = enc.turn.phase
        why = deal_refusal(self.doc, self.reflex_panel.physical_hands())
        self.act_deal.setEnabled(not why)
        self.act_deal.setStatusTip(why or "Shuffle and deal 5 cards to every hand (E2)")
        self.act_cards.setEnabled(phase is Phase.CARDS)
        self.act_next.setEnabled(phase is not Phase.ENDED)
        self.act_trim.setEnabled(bool(enc.trim_proposal()))
        self.act_end.setEnabled(phase not in (Phase.SETUP, Phase.ENDED))
        self.act_persevere.setEnabled(phase is Phase.ENDED)
        for act in self.mode_menu.actions():
            act.setChecked(act.data() is enc.mode)

    # ------------------------------------------------------------ character actions

    def _fill_character_menu(self) -> None:
        menu: QMenu = self.char_menu
        menu.clear()
        cid = self.doc.selected if self.doc else ""
        if not cid:
            menu.addAction("(select a character on the map)").setEnabled(False)
            return
        gm_actions.fill_menu(menu, self.doc, cid, lambda e: self.perform(cid, e.key))

    def perform(self, cid: str, key: str) -> None:
        """Do what a menu entry, a button or the map asked for character ``cid``."""
        doc = self.doc
        if doc is None or cid not in doc.encounter.combatants:
            return
        for entry in gm_actions.entries(doc, cid):
            if entry.key == key and entry.op is not None:
                doc.push(entry.op)
                return
        if key.startswith("target:"):
            actor = doc.encounter.actor
            if actor:
                self.open_check(actor, key.split(":", 1)[1], target=cid)
        elif key in gm_actions.CHECKS or key == "leave":
            self.open_check(cid, key)
        elif key == "edit":
            from afdesk.gui.dialogs.character import CharacterDialog

            self.show_dialog(CharacterDialog(doc, cid, self))
        elif key == "remove":
            name = doc.encounter.combatants[cid].name
            if (
                QMessageBox.question(self, "Remove character", f"Remove {name} from the encounter?")
                == QMessageBox.StandardButton.Yes
            ):
                doc.push(RemoveCombatant(cid))
        elif key == "add-state":
            from afdesk.gui.dialogs.character import AddStateDialog

            self.show_dialog(AddStateDialog(doc, cid, self))
        elif key == "momentum":
            from afdesk.gui.dialogs.character import MomentumDialog

            self.show_dialog(MomentumDialog(doc, cid, self))

    def open_check(self, cid: str, key: str, target: str = "") -> None:
        from afdesk.gui.dialogs.contest import ContestDialog

        action = Action.LEAVE_OVERLAP if key == "leave" else gm_actions.CHECKS[key][0]
        self.show_dialog(ContestDialog(self.doc, cid, action, target, self))

    def _keyboard_help(self) -> None:
        QMessageBox.information(
            self,
            "Keyboard",
            "Space: next turn (or play the cards / deal when a round or exchange starts)\n"
            "Ctrl+D: deal reflex · Ctrl+K: play cards\n"
            "M: keyboard to the map · Tab: the next character · arrows: step one area\n"
            "Q / E: turn 15° · 1-9 (as on a keypad): face a direction\n"
            "Hold Shift (Ctrl with the digits) to move or turn anyone: a GM override\n"
            "Alt+C: the Character menu (attacks, Defend, Screen, snaps, states)\n"
            "F: fit the map · R: shade rear arcs · F11: player view\n"
            "Ctrl+Z / Ctrl+Shift+Z: undo / redo",
        )

    def _about(self) -> None:
        from afdesk import __version__

        QMessageBox.about(
            self,
            "About afdesk",
            f"afdesk {__version__}: an encounter manager for Action Frameworks.\n"
            "Rules: af-2.5.4 (default), af-classic, d20-degrees.",
        )
