"""The GM's window: the map in the middle, reflex, character and log docks around it, the
file and encounter menus, and the player view on demand."""

from __future__ import annotations

import contextlib
import random
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QWidget,
)

from afdesk.gui import modes, screens
from afdesk.gui.context import CommandContext
from afdesk.gui.errors import MESSAGE_MS, Reporter
from afdesk.gui.file_menu import FileMenu
from afdesk.gui.follow import Links, follow
from afdesk.gui.help_menu import HelpMenu
from afdesk.gui.late_parts import LateParts
from afdesk.gui.workspaces import Workspaces, names_dock

if TYPE_CHECKING:
    # The first frame imports no model (tests/gui/test_lazy_imports.py): the document,
    # the map and the model come with the first encounter shown.
    from afdesk.gui.commands import Command
    from afdesk.gui.document import EncounterDocument


DOCK_WIDTH, LOG_HEIGHT = 340, 250
"""The side docks' width and the log's height on a first start (no saved layout)."""


class MainWindow(FileMenu, HelpMenu, LateParts, QMainWindow):
    """One encounter at a time; File > Open replaces it (asking first if it has changes).

    GM commands run through one :class:`CommandContext` (the current document, the dice,
    the error reporter) that the docks share; the window binds its menus and shortcuts to
    the same commands.
    """

    documentChanged = Signal(object)

    def __init__(
        self,
        settings: QSettings | None = None,
        parent: QWidget | None = None,
        *,
        defer: bool = False,
    ):
        """``defer``: build only what the first frame shows (the map, the docks' frames,
        the menu bar's titles, the status bar) and leave the docks' panels, the menus'
        entries, the modes' boards, the zone editor and the Table menu to :meth:`complete`,
        which the app calls once the window is drawn. Without it the window is
        whole when made."""
        super().__init__(parent)
        self.settings = settings or QSettings()
        self.reporter = Reporter(
            self, self.show_message, self.statusBar().setStyleSheet, self.show_refusal
        )
        self._refusal = ""
        self.ctx = CommandContext(self, self.reporter, random.SystemRandom())
        self.player_window = None
        self._links = Links()
        self._bound: list[tuple[QAction, Command]] = []
        self._stack_links: list = []
        self.completed = False
        self._completing = False
        self._campaign = None
        self._saved_layout = b""
        self.setAcceptDrops(True)
        if defer:  # the first frame draws the map's empty ground: no model imported
            from afdesk.gui.map.blank import BlankMap

            self.setCentralWidget(BlankMap())
        else:
            self._make_map()
        self._build_dock_frames()
        self._build_menu_titles()
        self._build_status()
        self._fit_to_screen()
        self._build_workspaces()
        if defer:
            self._restore_layout()  # the first frame's layout (complete() keeps it)
        else:
            self.complete()  # which restores the layout once every dock is there

    def complete(self) -> None:
        """Build what the first frame does not show: the docks' panels, the menus'
        entries, the campaign, the zone editor, the modes' boards and the Table menu, then
        bind them to the document shown. Once; a second call does nothing."""
        if self.completed or self._completing:
            return
        self._completing = True
        drawn = self.saveState() if self.isVisible() else None  # the docks as drawn
        self._build_panels()
        self._build_actions()
        self._build_menus()
        from afdesk.gui.editor.install import install as install_editor

        self.zone_editor = install_editor(self)  # the map's edit mode (its docks: when opened)
        saved = self._saved_layout if drawn is not None else self.settings.value("window/state")
        if saved is not None and names_dock(bytes(saved), "paletteDock"):
            # The saved layout places the editor's docks: made now, while it can place
            # them (taking back the sizes drawn forgets where a dock not made yet belongs).
            self.zone_editor.palette_dock  # noqa: B018
        from afdesk.gui.central import ModeViews

        self.map  # noqa: B018 - the map view, not its empty ground, goes into the stack
        # a mode's own main view (a board), its extras (made when the mode is first on)
        self.mode_views = ModeViews(self, bytes(saved) if saved is not None else None)
        from afdesk.gui.table.install import TableControl

        self.table = TableControl(self)  # fog, the players' screen
        from afdesk.gui.docks.decisions import install as install_decisions

        self.decisions = install_decisions(self)  # what waits for the GM, above the map
        from afdesk.gui.docks.unplaced import install as install_unplaced

        self.unplaced = install_unplaced(self)  # who waits off the map, to drag onto it
        self._install_workspaces()
        if drawn is not None:
            # The panels and the central stack lay themselves out, then the docks
            # take back the sizes the first frame drew, so that the map does not move.
            # Every posted event is delivered (no input: that is not posted): layout
            # requests alone leave the docks' tab bars unsettled and the sizes wrong.
            # Nothing is drawn meanwhile: the panels at the sizes they are about to
            # leave were drawn, then drawn again (15M instructions of the start).
            self.setUpdatesEnabled(False)
            try:
                QCoreApplication.sendPostedEvents()
                self.restoreState(drawn)
            finally:
                self.setUpdatesEnabled(True)
        else:  # not shown yet: the saved layout, now that every dock is there
            self._restore_layout()
        self.workspaces.tidy()  # no tab bar of a layout before this one stays drawn
        self.completed = True  # a build that failed above is not taken for a whole window
        follow(self, self._follow_edits)
        if self.doc is None:  # the start page: nothing to act on until an encounter opens
            self._enable_encounter_actions(False)
        self._make_panels_on_screen()  # the others when first shown (late_parts)

    # The document, the dice and the last dialog live in the commands' context.

    @property
    def doc(self) -> EncounterDocument | None:
        return self.ctx.doc

    @doc.setter
    def doc(self, doc: EncounterDocument | None) -> None:
        self.ctx.doc = doc

    @property
    def campaign(self):
        """The open campaign and its dock (:mod:`afdesk.gui.campaign`), made when first
        asked for: a campaign is opened from the File menu, never at the start."""
        if self._campaign is None:
            from afdesk.gui.campaign.control import CampaignControl

            self._campaign = CampaignControl(self)
        return self._campaign

    @property
    def rng(self) -> random.Random:
        return self.ctx.rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.ctx.rng = rng

    @property
    def dialog(self):
        """The last dialog opened over the window (tests and scripts drive it)."""
        return self.ctx.dialog

    # ----------------------------------------------------------------------- building

    def _build_dock_frames(self) -> None:
        """The docks' frames, titled and placed (so the saved layout applies to the first
        frame); their panels come with :meth:`complete`."""
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.reflex_dock = self._dock("Reflex", "reflexDock", left)
        self.combatant_dock = self._dock("Character", "combatantDock", right)
        self.log_dock = self._dock("Log", "logDock", Qt.DockWidgetArea.BottomDockWidgetArea)
        self.history_dock = self._dock("Undo history", "historyDock", right)
        self.tabifyDockWidget(self.combatant_dock, self.history_dock)
        # At 1280x720 a third column of docks leaves the map too little room: the Reserves
        # sit in the right column's tabs, behind the Character dock.
        self.reserves_dock = self._dock("Reserves", "reservesDock", left)
        self.tabifyDockWidget(self.combatant_dock, self.reserves_dock)
        self.combatant_dock.raise_()
        # The widths and height the panels ask for (a saved layout overrides them), so
        # that a frame drawn before its panel arrives already has its size.
        self.resizeDocks(
            [self.reflex_dock, self.combatant_dock],
            [DOCK_WIDTH, DOCK_WIDTH],
            Qt.Orientation.Horizontal,
        )
        self.resizeDocks([self.log_dock], [LOG_HEIGHT], Qt.Orientation.Vertical)

    def _build_panels(self) -> None:
        from afdesk.gui.docks.combatant import CombatantPanel
        from afdesk.gui.docks.log import LogPanel

        self.combatant_panel = CombatantPanel(self.ctx)
        self.log_panel = LogPanel(self.ctx)
        for dock, panel in (
            (self.combatant_dock, self.combatant_panel),
            (self.log_dock, self.log_panel),
        ):
            dock.setWidget(panel)
        for slot in (self.combatant_panel.set_document, self.log_panel.set_document):
            follow(self, slot)
        # The Reflex, the Reserves and the Undo history may sit behind a tab: made when
        # first on screen (late_parts).
        self._make_panels_when_shown()

    def _show_history(self, doc: EncounterDocument) -> None:
        from afdesk.gui.docks import history  # the list follows the stack while shown

        history.follow(self.history, self.history_dock, doc.undo_stack)

    def _dock(self, title: str, name: str, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
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

    def _command_action(self, command: Command, shortcut=None) -> QAction:
        """A menu action and shortcut for an encounter command, kept enabled as the
        command is available (:meth:`_update_actions`)."""
        act = self._action(command.label, lambda: self._run(command), shortcut, command.tip)
        self._bound.append((act, command))
        return act

    def _run(self, command: Command, who: str = "") -> None:
        self.ctx.run(command, who)
        self._update_actions()

    def _build_actions(self) -> None:
        from afdesk.gui import commands as cmd

        S = QKeySequence.StandardKey
        self.act_new = self._action("&New encounter…", self.new_encounter, S.New)
        self.act_open = self._action("&Open…", self.open_dialog, S.Open)
        self.act_save = self._action("&Save", self.save, S.Save)
        self.act_save_as = self._action("Save &As…", self.save_as, S.SaveAs)
        self.act_export = self._action("&Export map image…", self.export_image, "Ctrl+E")
        self.act_recap = self._action("Export &recap…", self.export_recap)
        self.act_new_campaign = self._action("New ca&mpaign…", self.new_campaign)
        self.act_open_campaign = self._action("Open campai&gn…", self.open_campaign)
        self.act_close = self._action(
            "&Close", self.close_encounter, S.Close, "Close the encounter to the start page"
        )
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
        self.act_legend = self._action(
            "Show the &legend",
            lambda: self.map.set_legend_shown(self.act_legend.isChecked()),
            "L",
            "Fold the legend away to give the map the room (a small screen)",
        )
        self.act_legend.setCheckable(True)
        self.act_legend.setChecked(True)
        self.act_deal = self._command_action(cmd.DEAL, "Ctrl+D")
        self.act_cards = self._command_action(cmd.PLAY_CARDS, "Ctrl+Shift+D")
        self.act_next = self._command_action(cmd.ADVANCE, "Space")
        self.act_trim = self._command_action(cmd.TRIM)
        self.act_end = self._command_action(cmd.END)
        self.act_end_exchange = self._command_action(cmd.END_EXCHANGE)
        self.act_persevere = self._command_action(cmd.PERSEVERE)
        self.act_add = self._command_action(cmd.ADD_CHARACTER, "Ctrl+Shift+A")
        self.act_settings = self._command_action(cmd.SETTINGS)
        self.act_undo = self._action("&Undo", lambda: self.doc.undo_stack.undo(), S.Undo)
        self.act_redo = self._action("&Redo", lambda: self.doc.undo_stack.redo(), S.Redo)

    def _build_menu_titles(self) -> None:
        """The menu bar's titles (the first frame shows them); :meth:`_build_menus` fills
        them."""
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.edit_menu = bar.addMenu("&Edit")
        self.view_menu = bar.addMenu("&View")
        self.encounter_menu = bar.addMenu("E&ncounter")
        self.char_menu = bar.addMenu("&Character")
        self.char_menu.aboutToShow.connect(self._fill_character_menu)
        self.help_menu = bar.addMenu("&Help")

    def _build_menus(self) -> None:
        from afdesk.gui import commands as cmd

        m = self.file_menu
        m.addAction(self.act_new)
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        m.addSeparator()
        self._build_campaign_entries(m)
        m.addSeparator()
        m.addAction(self.act_save)
        m.addAction(self.act_save_as)
        m.addAction(self.act_export)
        m.addAction(self.act_recap)
        m.addSeparator()
        m.addAction(self.act_close)
        m.addAction(self.act_quit)
        self.edit_menu.addAction(self.act_undo)
        self.edit_menu.addAction(self.act_redo)
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(self.history_dock.toggleViewAction())
        v = self.view_menu
        v.addAction(self.act_player)
        v.addSeparator()
        v.addAction(self.act_fit)
        v.addAction(self.act_zoom_in)
        v.addAction(self.act_zoom_out)
        v.addAction(self.act_rear)
        v.addAction(self.act_legend)
        v.addSeparator()
        for dock in (self.reflex_dock, self.combatant_dock, self.log_dock, self.history_dock):
            v.addAction(dock.toggleViewAction())
        v.addAction(self.reserves_dock.toggleViewAction())
        e = self.encounter_menu
        e.addAction(self.act_deal)
        e.addAction(self.act_cards)
        e.addAction(self.act_next)
        e.addSeparator()
        e.addAction(self.act_trim)
        self.mode_menu = e.addMenu("&Mode")
        from afdesk.encounter.state import Mode

        for mode in Mode:
            command = cmd.MODES[mode]
            act = self.mode_menu.addAction(command.label)
            act.setData(mode)
            act.setCheckable(True)
            act.triggered.connect(lambda _c=False, c=command: self._run(c))
        e.addAction(self.act_end_exchange)
        e.addAction(self.act_end)
        e.addAction(self.act_persevere)
        e.addSeparator()
        e.addAction(self.act_add)
        e.addAction(self.act_settings)
        h = self.help_menu
        h.addAction(self._action("Find a &command…", self.open_palette, "Ctrl+K"))
        h.addAction(self._action("&Keyboard", self._keyboard_help, "F1"))
        h.addAction(self._action("&Manual", self._manual, tip="A short illustrated guide"))
        h.addAction(self._action("&About afdesk", self._about))

    def _build_status(self) -> None:
        self.turn_label = QLabel()
        self.turn_label.setStyleSheet("font-weight: bold; padding: 0 8px;")
        self.statusBar().addPermanentWidget(self.turn_label)
        self._build_protection()

    # ----------------------------------------------------------------------- documents

    def set_document(self, doc: EncounterDocument) -> None:
        """Show ``doc``; the previous document is closed cleanly (its journal removed).
        Every view that shows the document follows it (:func:`afdesk.gui.follow.follow`)."""
        old = self.doc
        self.doc = doc
        doc.setParent(self)
        made_map = self._map is None
        if made_map:  # the first document shown: the map is made for it
            self._make_map(doc, follows=False)
        self._links.clear()
        for signal, slot in (
            (doc.modifiedChanged, self._update_title),
            (doc.pathChanged, self._update_title),
            (doc.metaChanged, self._update_title),
            (doc.journalProblem, self.reporter.problem),
            (doc.protectionChanged, self.show_protection),
            (doc.turnChanged, self._turn_changed),
            (doc.changed, self._update_actions),
            (doc.changed, self._clear_refusal),
        ):
            self._links.connect(signal, slot)
        self.documentChanged.emit(doc)  # the map, the panels, the players' window, ...
        if made_map:  # it shows doc already; it follows the next ones, in its turn
            follow(self, self._map.set_document, now=False)
        if not self.completed and modes.screens_for(doc.encounter.mode).board:
            self.complete()  # the first frame shows the mode's board; its panels show doc
        self._update_title()
        self._turn_changed()
        self.show_protection(doc.unprotected())
        if old is not None and old is not doc:
            old.close(clean=True)
            old.deleteLater()
        QTimer.singleShot(0, self.map.fit_to_zone)

    def _follow_edits(self, doc: EncounterDocument) -> None:
        """The Edit menu and the actions follow the document shown."""
        self._rebuild_edit_menu(doc)
        self._update_actions()

    def _rebuild_edit_menu(self, doc: EncounterDocument) -> None:
        """Point Undo and Redo at ``doc``'s stack ("Undo Move Huang")."""
        stack = doc.undo_stack
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
        camp = self.campaign_title()
        if doc is None:
            if camp:
                self.setWindowTitle(f"{camp} — afdesk")
            return
        where = doc.path.name if doc.path else "not saved yet"
        title = f"{doc.encounter.meta.name} ({where})[*]" + (f" · {camp}" if camp else "")
        self.setWindowTitle(f"{title} — afdesk")
        self.setWindowModified(doc.is_modified())

    def _fit_to_screen(self) -> None:
        screens.fit_window(self, [self.combatant_dock, self.reflex_dock], self.log_dock)

    def _restore_layout(self) -> None:
        self._saved_layout = self.workspaces.restore_window()

    # -------------------------------------------------------------------- workspaces

    def _build_workspaces(self) -> None:
        """The layout per task (:mod:`afdesk.gui.workspaces`); a first start lays the docks
        out as the workspace declares (else the saved layout applies)."""
        self.workspaces = Workspaces(self, self.settings)
        if self.settings.value("window/state") is None:
            self.workspaces.apply()
        follow(self, self.workspaces.follow_document, now=False)

    def _install_workspaces(self) -> None:
        """View > Workspace, and the zone editor switching to Prepare and back."""
        self.workspaces.install_menu(self.view_menu)
        self.zone_editor.action.toggled.connect(self.workspaces.follow_task)

    # -------------------------------------------------------------------- the table

    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, MESSAGE_MS)

    def show_refusal(self, text: str) -> None:
        """A refusal stays in the status bar until the GM's next action."""
        self._refusal = text
        self.statusBar().showMessage(text)

    def _clear_refusal(self) -> None:
        if self._refusal and self.statusBar().currentMessage() == self._refusal:
            self.statusBar().clearMessage()
        self._refusal = ""

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
            follow(self, self.player_window.set_document, now=False)
        self.player_window.show()
        self.player_window.raise_()

    def _toggle_rear(self) -> None:
        self.map.set_rear_arcs(self.act_rear.isChecked())

    def _turn_changed(self) -> None:
        from afdesk.encounter.state import Phase
        from afdesk.encounter.summary import whose_turn

        enc = self.doc.encounter
        t = enc.turn
        if whose_turn(enc):
            self.turn_label.setText(whose_turn(enc))
            self.doc.select(enc.actor)
        elif t.phase is Phase.SETUP:
            self.turn_label.setText("Setup: place characters, then deal reflex (Ctrl+D)")
        else:
            self.turn_label.setText(f"Exchange {t.exchange} · {t.phase.label}")
        # The actions follow at doc.changed, which comes after every change (and once
        # the window shows a document: _follow_edits), not here a second time.

    def _update_actions(self) -> None:
        """Enable each command's menu action as the model allows it; a disabled one says
        why in its status tip."""
        if self.doc is None or not self.completed:
            return
        for act, command in self._bound:
            ok, reason = command.available(self.doc, "")
            act.setEnabled(ok)
            act.setStatusTip(reason or command.tip)
        for act in self.mode_menu.actions():
            act.setChecked(act.data() is self.doc.encounter.mode)

    # ------------------------------------------------------------ character actions

    def _fill_character_menu(self) -> None:
        menu: QMenu = self.char_menu
        menu.clear()
        cid = self.doc.selected if self.doc else ""
        if not cid:
            menu.addAction("(select a character on the map)").setEnabled(False)
            return
        from afdesk.gui import actions as gm_actions

        gm_actions.fill_menu(menu, self.doc, cid, lambda e: self._run(e.command, cid))

    def perform(self, cid: str, command_id: str) -> None:
        """Run the command ``command_id`` (a menu entry's key, as the map sends it) for
        character ``cid``; an id no command has raises :class:`UnknownCommand`."""
        from afdesk.gui import commands as cmd

        command = cmd.REGISTRY[command_id]
        if self.doc is not None and cid in self.doc.encounter.combatants:
            self._run(command, cid)
