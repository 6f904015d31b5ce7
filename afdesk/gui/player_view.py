"""The players' window for a projector or TV: the same map, read-only and high-contrast,
following the GM's document live, with nothing GM-only in it (hidden characters show only
their decoys; no notes, no opponents' numbers). It can go full screen on a chosen screen;
closing it never closes the GM's window."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QScreen, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.state import Mode
from afdesk.gui import modes, screens
from afdesk.gui.follow import Links
from afdesk.gui.map.marks import harm_boxes
from afdesk.gui.map.view import MapView
from afdesk.gui.table.camera import TableCamera
from afdesk.gui.table.roll_panel import RollPanel
from afdesk.gui.table.rolls import gate_for
from afdesk.gui.table.screen import HOLDS, HoldCard, PingItem
from afdesk.gui.table.settings import TableSettings
from afdesk.gui.table.strip import ReflexStrip, StripCache, strip_state
from afdesk.gui.table.ticker_panel import TickerPanel


class PlayerWindow(QWidget):
    """A top-level window showing ``doc``'s map to the table."""

    shownChanged = Signal(bool)
    """The window was shown (True) or hidden or closed (False)."""

    def __init__(self, doc, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        # The GM's window decides when the app ends, never this one.
        self.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)
        self.setWindowTitle("afdesk: players' map")
        self.setStyleSheet(
            "PlayerWindow { background: black; }"
            " #playerBar { background: #1b1b1b; }"
            " #playerBar QLabel, #playerBar QCheckBox { color: #f0f0f0; }"
        )
        self.resize(1280, 720)
        self._placed = False
        self.view = MapView(doc, player=True, parent=self)
        self.bar = QWidget(self)
        self.bar.setObjectName("playerBar")
        row = QHBoxLayout()  # the widgets' first home; arrange_bar lays them out
        row.addWidget(QLabel("Screen:", self.bar))
        self.screen_box = QComboBox(self.bar)
        self.screen_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.screen_box.activated.connect(self._screen_chosen)
        row.addWidget(self.screen_box)
        self.fullscreen_button = QPushButton("Full screen", self.bar)
        self.fullscreen_button.setToolTip("Full screen on the chosen screen (F11; Esc leaves)")
        self.fullscreen_button.clicked.connect(lambda: self.show_fullscreen_on())
        row.addWidget(self.fullscreen_button)
        fit = QPushButton("Fit", self.bar)
        self.camera = TableCamera(self.view)
        """What the screen shows of the map (push, follow, turn, real size)."""
        fit.clicked.connect(self.camera.fit)
        row.addWidget(fit)
        self.rear_box = QCheckBox("Shade behind flanks", self.bar)
        self.rear_box.toggled.connect(self.view.set_rear_arcs)
        row.addWidget(self.rear_box)
        self.table = TableSettings()
        """The GM's preferences for this screen."""
        self.strip_box = QCheckBox("Reflex strip", self.bar)
        self.strip_box.setToolTip("This round's cards in play order, under the map")
        self.strip_box.setChecked(self.table.strip_shown)
        self.strip_box.toggled.connect(self.set_strip_shown)
        row.addWidget(self.strip_box)
        self.harm_boxes = harm_boxes(self.bar, row, self.view)
        close = QPushButton("Close", self.bar)
        close.setToolTip("Close the player view (the GM window stays open)")
        close.clicked.connect(self.close)
        widgets = [row.itemAt(i).widget() for i in range(row.count())]
        self._bar_parts = (widgets[:4], widgets[4:], close)
        """The screen controls, the view options and Close, in the bar's order."""
        bars = QVBoxLayout(self.bar)
        bars.setContentsMargins(8, 4, 8, 4)
        bars.setSpacing(4)
        self._bar_rows = (QHBoxLayout(), QHBoxLayout())
        for r in self._bar_rows:
            bars.addLayout(r)
        self.arrange_bar(two_rows=False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.bar)
        # While the encounter is in a mode with a board of its own (afdesk.gui.modes)
        # the table sees the board's player variant: no controls, no
        # GM notes, nothing hidden; made when first needed.
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.view)
        self._boards: dict[Mode, QWidget] = {}
        self.hold_card = HoldCard(self)
        self.stack.addWidget(self.hold_card)
        self.held = ""
        """What Hold shows instead of the map: "", "title" or "black"."""
        layout.addWidget(self.stack, 1)
        self.strip = ReflexStrip(self)
        layout.addWidget(self.strip)
        self.roll_panel = RollPanel(self)
        self.ticker = TickerPanel(self, self.table.ticker_seconds)
        """What happened, in short lines fading out (afdesk.encounter.ticker)."""
        self._strip_dirty = False
        self._strip_cache = StripCache()
        self._doc_links = Links()
        self.mode_extras = {
            m.mode: m.player_install(self) for m in modes.registered() if m.player_install
        }
        self._follow(doc)
        self._refresh_screens()
        app = QGuiApplication.instance()
        if app is not None:
            app.screenAdded.connect(self._refresh_screens)
            app.screenRemoved.connect(self._refresh_screens)
        QShortcut(QKeySequence(Qt.Key.Key_F11), self, self.toggle_fullscreen)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.leave_fullscreen)
        for key, step in (
            (Qt.Key.Key_Left, (-1, 0)),
            (Qt.Key.Key_Right, (1, 0)),
            (Qt.Key.Key_Up, (0, -1)),
            (Qt.Key.Key_Down, (0, 1)),
        ):
            QShortcut(QKeySequence(key), self, lambda s=step: self.camera.pan_areas(*s))

    def setVisible(self, visible: bool) -> None:
        # Placed before the first show, so that it opens where it belongs (a window
        # state set while hidden takes effect when shown).
        if visible and not self._placed:
            self._placed = True
            self._place()
        super().setVisible(visible)

    def _place(self) -> None:
        """Where the window first opens: full screen on the screen it used last or on
        another screen than the GM's; on a single screen a window that fits inside it."""
        every = QGuiApplication.screens()
        by_name = {s.name(): s for s in every}
        here = screens.screen_of(self) or QGuiApplication.primaryScreen()
        name = self.table.player_screen
        remembered = by_name.get(name) if name else None
        others = [s for s in every if s is not here]
        if len(every) > 1 and (remembered is None or self.table.player_fullscreen):
            target = remembered or others[0]
            self._select_screen(target)
            self.setScreen(target)
            self.setGeometry(target.geometry())
            self.bar.hide()
            self.view.viewport().setCursor(Qt.CursorShape.BlankCursor)
            self.setWindowState(self.windowState() | Qt.WindowState.WindowFullScreen)
        else:
            self.fit_in(remembered.availableGeometry() if remembered else screens.available(self))

    def arrange_bar(self, two_rows: bool) -> None:
        """The bar in one row, or in two (the view options below) where one is too wide
        for the screen: a control is never cut."""
        main, options, close = self._bar_parts
        first, second = self._bar_rows
        for r in self._bar_rows:
            while r.count():
                r.takeAt(0)
        for w in main:
            first.addWidget(w)
        for w in options:
            (second if two_rows else first).addWidget(w)
        first.addStretch(1)
        first.addWidget(close)
        if two_rows:
            second.addStretch(1)
        self.bar.layout().activate()

    def fit_in(self, area: QRect) -> None:
        """A window inside ``area`` (a screen's available part, room left for the title
        bar and frame), wide enough for the whole bar, over the GM's map."""
        room_w = area.width() - 2 * screens.FRAME
        self.arrange_bar(two_rows=False)
        if self.bar.minimumSizeHint().width() > room_w:
            self.arrange_bar(two_rows=True)
        bar = self.bar.minimumSizeHint().width()
        room_h = area.height() - screens.TITLE_BAR - screens.FRAME
        w = max(1, min(room_w, max(bar, int(area.width() * 0.7))))
        h = max(1, min(room_h, max(self.minimumSizeHint().height(), int(area.height() * 0.7))))
        x = area.x() + (area.width() - w) // 2
        y = area.y() + screens.TITLE_BAR + (room_h - h) // 2
        self.setGeometry(x, y, w, h)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.camera.apply()
        self.shownChanged.emit(True)

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self.shownChanged.emit(False)

    @property
    def doc(self):
        return self.view.doc

    def set_document(self, doc) -> None:
        """Follow another document."""
        self.view.set_document(doc)
        self._follow(doc)
        self.camera.fit()

    def _follow(self, doc) -> None:
        old = getattr(self, "_followed", None)
        if old is not doc:
            self._doc_links.clear()
            self._strip_cache = StripCache()
            for board in self._boards.values():
                board.set_document(doc)  # type: ignore[attr-defined]
            self._doc_links.connect(doc.modeChanged, self._mode_changed)
            # What the strip shows follows these; it is brought up to date once per
            # change, however many characters the change touched.
            for signal in (
                doc.turnChanged,
                doc.reflexChanged,
                doc.rosterChanged,
                doc.combatantChanged,
                doc.fogChanged,
            ):
                self._doc_links.connect(signal, self._strip_stale)
            self._doc_links.connect(doc.changed, self._strip_changed)
            gate = gate_for(doc)
            self._doc_links.connect(gate.shown, self.show_roll)
            self._doc_links.connect(gate.cleared, self.roll_panel.clear)
            self._doc_links.connect(gate.said, self.say)
            self._doc_links.connect(gate.taken_back, self.ticker.clear)
            self.roll_panel.clear()
            self.ticker.clear()
            for extra in self.mode_extras.values():
                extra.set_document(doc)
            self._followed = doc
        self._mode_changed()

    def board(self, mode: Mode) -> QWidget:
        """``mode``'s board as the table sees it, made when first needed."""
        board = self._boards.get(mode)
        if board is None:
            make = modes.screens_for(mode).make_board
            if make is None:
                raise ValueError(f"the {mode.label} mode has no board: the map is its view")
            board = make(None)
            self._boards[mode] = board
            self.stack.addWidget(board)
            if self.view.doc is not None:
                board.set_document(self.view.doc)  # type: ignore[attr-defined]
        return board

    def _screens(self) -> modes.ModeScreens | None:
        doc = self.view.doc
        return None if doc is None else modes.screens_for(doc.encounter.mode)

    def _mode_changed(self) -> None:
        screens = self._screens()
        if self.held:
            self.hold_card.set_card(self.held, self.view.doc.encounter.meta.name)
            self.stack.setCurrentWidget(self.hold_card)
        elif screens is not None and screens.make_board is not None:
            self.stack.setCurrentWidget(self.board(screens.mode))
        else:
            self.stack.setCurrentWidget(self.view)
        self.refresh_strip()

    # ------------------------------------------------------------ screen control

    def hold(self, kind: str) -> None:
        """Hold: the players see a title card ("title") or black ("black")
        while the GM rearranges; "" shows the map again."""
        if kind not in HOLDS:
            raise ValueError(f"hold shows one of {sorted(HOLDS)}, not {kind!r}")
        self.held = kind
        if kind:
            self.roll_panel.clear()
            self.ticker.clear()
        self._mode_changed()

    def ping(self, area) -> PingItem:
        """Pulse ``area`` on the players' map for a moment."""
        item = PingItem(area)
        self.view.map_scene.addItem(item)
        item.start()
        return item

    # -------------------------------------------------------------------- rolls

    def show_roll(self, roll) -> None:
        """A public check (afdesk.gui.table.rolls decided): on the map for a few seconds."""
        self.roll_panel.show_roll(roll, self.table.roll_seconds)

    def say(self, lines) -> None:
        """What just happened (:class:`~afdesk.encounter.ticker.TickerLine` s), unless the
        screen holds or the GM turned the ticker off."""
        if not self.held and self.table.ticker_shown:
            self.ticker.add(lines)

    def map_area(self):
        """Where the map is, in this window's coordinates."""
        return self.stack.geometry()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.camera.apply()
        self.strip.fit_height()
        if self.roll_panel.isVisible():
            self.roll_panel.place()
        if self.ticker.isVisible():
            self.ticker.place()

    # ------------------------------------------------------------------- the strip

    def _strip_stale(self, *_args) -> None:
        self._strip_dirty = True

    def _strip_changed(self) -> None:
        if self._strip_dirty:
            self.refresh_strip()

    def refresh_strip(self, *_args) -> None:
        """Show this round's cards as the table may see them."""
        self._strip_dirty = False
        doc = self.view.doc
        screens = self._screens()
        strip = screens is not None and screens.strip and not self.held
        self.strip.setVisible(strip and self.table.strip_shown)
        if doc is not None and self.strip.isVisibleTo(self):
            state = strip_state(doc.encounter, self.table.hidden_turn, self._strip_cache)
            self.strip.set_state(state)

    def set_strip_shown(self, on: bool) -> None:
        """Show or hide the reflex strip (remembered for next time)."""
        self.table.strip_shown = bool(on)
        if self.strip_box.isChecked() != bool(on):
            self.strip_box.setChecked(bool(on))
        self.refresh_strip()

    # ------------------------------------------------------------------- screens

    def _refresh_screens(self, *_args) -> None:
        current = self.screen_box.currentData() or self.table.player_screen
        self.screen_box.clear()
        for i, screen in enumerate(QGuiApplication.screens()):
            size = screen.geometry()
            label = f"{i + 1}: {screen.name() or 'screen'} ({size.width()}x{size.height()})"
            self.screen_box.addItem(label, screen.name())
        index = self.screen_box.findData(current) if current else -1
        if index < 0 and self.screen_box.count() > 1:
            index = 1  # a second screen is most likely the projector
        self.screen_box.setCurrentIndex(max(index, 0))
        # Never squeezed below its longest entry ("2: HDMI-1 (1920x1080)").
        self.screen_box.setMinimumWidth(self.screen_box.sizeHint().width())

    def _select_screen(self, screen: QScreen) -> None:
        index = self.screen_box.findData(screen.name())
        if index >= 0:
            self.screen_box.setCurrentIndex(index)

    def _screen_chosen(self, _index: int) -> None:
        """The GM picked a screen in the bar: remembered for next time."""
        self.table.player_screen = str(self.screen_box.currentData() or "")

    def chosen_screen(self) -> QScreen | None:
        """The screen picked in the window's bar."""
        every = QGuiApplication.screens()
        i = self.screen_box.currentIndex()
        return every[i] if 0 <= i < len(every) else QGuiApplication.primaryScreen()

    def show_fullscreen_on(self, screen: QScreen | None = None) -> None:
        """Fill ``screen`` (default: the chosen one) with the map; the bar hides."""
        screen = screen or self.chosen_screen()
        if self.isFullScreen():
            self.showNormal()
        if screen is not None:
            self.setScreen(screen)
            self.move(screen.geometry().topLeft())
            self._select_screen(screen)
            self.table.player_screen = screen.name()
        self.table.player_fullscreen = True
        self.bar.hide()
        self.view.viewport().setCursor(Qt.CursorShape.BlankCursor)
        self.showFullScreen()
        self.camera.apply()

    def leave_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
            self.table.player_fullscreen = False
            here = screens.screen_of(self)
            if here is not None:
                self.table.player_screen = here.name()
                self.fit_in(here.availableGeometry())
        self.bar.show()
        self.view.viewport().unsetCursor()
        self.camera.apply()

    def toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.leave_fullscreen()
        else:
            self.show_fullscreen_on()
