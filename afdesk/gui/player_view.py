"""The players' window for a projector or TV: the same map, read-only and high-contrast,
following the GM's document live, with nothing GM-only in it (hidden characters show only
their decoys; no notes, no opponents' numbers). It can go full screen on a chosen screen;
closing it never closes the GM's window."""

from __future__ import annotations

from PySide6.QtCore import Qt
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

from afdesk.gui.map.marks import harm_boxes
from afdesk.gui.map.view import MapView


class PlayerWindow(QWidget):
    """A top-level window showing ``doc``'s map to the table."""

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
        self.view = MapView(doc, player=True, parent=self)
        self.bar = QWidget(self)
        self.bar.setObjectName("playerBar")
        bar = QHBoxLayout(self.bar)
        bar.setContentsMargins(8, 4, 8, 4)
        bar.addWidget(QLabel("Screen:"))
        self.screen_box = QComboBox(self.bar)
        bar.addWidget(self.screen_box)
        self.fullscreen_button = QPushButton("Full screen", self.bar)
        self.fullscreen_button.setToolTip("Full screen on the chosen screen (F11; Esc leaves)")
        self.fullscreen_button.clicked.connect(lambda: self.show_fullscreen_on())
        bar.addWidget(self.fullscreen_button)
        fit = QPushButton("Fit", self.bar)
        fit.clicked.connect(self.view.fit_to_zone)
        bar.addWidget(fit)
        self.rear_box = QCheckBox("Shade behind flanks", self.bar)
        self.rear_box.toggled.connect(self.view.set_rear_arcs)
        bar.addWidget(self.rear_box)
        self.harm_boxes = harm_boxes(self.bar, bar, self.view)
        bar.addStretch(1)
        close = QPushButton("Close", self.bar)
        close.setToolTip("Close the player view (the GM window stays open)")
        close.clicked.connect(self.close)
        bar.addWidget(close)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.bar)
        # While the encounter is a chase the table sees the chase board (issue 14), in its
        # player variant: no controls, no GM notes, hidden participants' totals as "?".
        from afdesk.gui.chase.board import ChaseBoard

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.view)
        self.chase_board = ChaseBoard(player=True)
        self.chase_board.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.chase_board.setStyleSheet("#chaseBoard { background: #fafafa; }")
        self.stack.addWidget(self.chase_board)
        layout.addWidget(self.stack, 1)
        self._follow(doc)
        self._refresh_screens()
        app = QGuiApplication.instance()
        if app is not None:
            app.screenAdded.connect(self._refresh_screens)
            app.screenRemoved.connect(self._refresh_screens)
        QShortcut(QKeySequence(Qt.Key.Key_F11), self, self.toggle_fullscreen)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.leave_fullscreen)

    def showEvent(self, event) -> None:
        """Open away from the GM's window: on another screen if there is one, else beside
        the GM's menus rather than over them."""
        if not getattr(self, "_placed", False):
            self._placed = True
            screens = QGuiApplication.screens()
            here = self.screen()
            others = [s for s in screens if s is not here]
            if others:
                self.setGeometry(others[0].availableGeometry())
            elif here is not None:
                area = here.availableGeometry()
                self.move(area.x() + area.width() // 3, area.y() + area.height() // 6)
        super().showEvent(event)

    @property
    def doc(self):
        return self.view.doc

    def set_document(self, doc) -> None:
        """Follow another document."""
        self.view.set_document(doc)
        self._follow(doc)

    def _follow(self, doc) -> None:
        old = getattr(self, "_followed", None)
        if old is not doc:
            if old is not None:
                old.modeChanged.disconnect(self._mode_changed)
            self.chase_board.set_document(doc)
            doc.modeChanged.connect(self._mode_changed)
            self._followed = doc
        self._mode_changed()

    def _mode_changed(self) -> None:
        from afdesk.encounter.state import Mode

        chase = self.view.doc is not None and self.view.doc.encounter.mode is Mode.CHASE
        self.stack.setCurrentWidget(self.chase_board if chase else self.view)

    # ------------------------------------------------------------------- screens

    def _refresh_screens(self, *_args) -> None:
        current = self.screen_box.currentData()
        self.screen_box.clear()
        for i, screen in enumerate(QGuiApplication.screens()):
            size = screen.geometry()
            label = f"{i + 1}: {screen.name() or 'screen'} ({size.width()}x{size.height()})"
            self.screen_box.addItem(label, screen.name())
        index = self.screen_box.findData(current) if current else -1
        if index < 0 and self.screen_box.count() > 1:
            index = 1  # a second screen is most likely the projector
        self.screen_box.setCurrentIndex(max(index, 0))

    def chosen_screen(self) -> QScreen | None:
        """The screen picked in the window's bar."""
        screens = QGuiApplication.screens()
        i = self.screen_box.currentIndex()
        return screens[i] if 0 <= i < len(screens) else QGuiApplication.primaryScreen()

    def show_fullscreen_on(self, screen: QScreen | None = None) -> None:
        """Fill ``screen`` (default: the chosen one) with the map; the bar hides."""
        screen = screen or self.chosen_screen()
        if self.isFullScreen():
            self.showNormal()
        if screen is not None:
            self.setScreen(screen)
            self.move(screen.geometry().topLeft())
        self.bar.hide()
        self.view.viewport().setCursor(Qt.CursorShape.BlankCursor)
        self.showFullScreen()
        self.view.fit_to_zone()

    def leave_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        self.bar.show()
        self.view.viewport().unsetCursor()
        self.view.fit_to_zone()

    def toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.leave_fullscreen()
        else:
            self.show_fullscreen_on()
