"""The Campaign dock: the campaign's encounters with their thumbnails (rendered off the UI
thread), state and date last played; the buttons that prepare, run and carry over; the
session and the campaign's log."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPixmap
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.campaign.state import Planned, Play
from afdesk.gui.campaign.thumbnails import THUMB_SIZE, Thumbnails

PLACES = {
    "prepare": (0, 0, 1),
    "run": (0, 1, 1),
    "carry": (1, 0, 1),
    "open": (1, 1, 1),
    "roster": (2, 0, 1),
    "add": (2, 1, 1),
    "session": (3, 0, 1),
    "rename": (3, 1, 1),
    "undo": (4, 0, 1),
    "redo": (4, 1, 1),
}
"""Each button's (row, column, columns spanned) in the dock's grid."""

PLAY_COLOUR = {Play.PREPARED: "#2e6fb7", Play.RUNNING: "#b7422e", Play.FINISHED: "#5f6b73"}


def played_text(when: str) -> str:
    """ "2026-11-23T20:15:00+01:00" -> "23 Nov 2026, 20:15"; '' stays "never"."""
    if not when:
        return "never played"
    try:
        t = dt.datetime.fromisoformat(when)
    except ValueError:
        return f"last played {when}"
    return f"last played {t.day} {t:%b %Y, %H:%M}"


def _placeholder() -> QIcon:
    image = QImage(*THUMB_SIZE, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#3a4046"))
    return QIcon(QPixmap.fromImage(image))


class CampaignPanel(QWidget):
    """The dock's widget; the controller (:mod:`afdesk.gui.campaign.control`) does the work
    and calls :meth:`refresh`."""

    def __init__(self, control, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.control = control
        self.thumbnails = Thumbnails(self)
        self.thumbnails.ready.connect(self._thumbnail)
        layout = QVBoxLayout(self)
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.header)
        self.list = QListWidget()
        self.list.setObjectName("campaignEncounters")
        self.list.setIconSize(QSize(*THUMB_SIZE) / 1.5)
        self.list.setSpacing(2)
        self.list.setWordWrap(True)
        self.list.currentRowChanged.connect(lambda _r: self._update_buttons())
        self.list.itemDoubleClicked.connect(lambda _i: self.control.open_encounter(self.current()))
        layout.addWidget(self.list, 3)
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for key, text, tip, slot in (
            ("prepare", "&Prepare…", "A new encounter from the roster", control.prepare),
            ("run", "R&un", "Play a fresh copy; the prepared file stays clean", self._run),
            ("carry", "&Carry over…", "End it and write what lasts to the roster", self._carry),
            ("open", "&Open", "Open the running copy, or the prepared file", self._open),
            ("roster", "Ro&ster…", "Band, recurring characters, bestiary", control.roster),
            (
                "add",
                "Add to &encounter…",
                "Roster characters into the open encounter",
                control.add_to_encounter,
            ),
            (
                "session",
                "New &session",
                "Everyone gets 3 Shifts back (R10)",
                control.new_session,
            ),
            ("rename", "Re&name…", "Give the campaign a title of its own", control.rename_dialog),
            ("undo", "Undo", "Undo the last campaign change", control.undo),
            ("redo", "Redo", "Redo the campaign change undone last", control.redo),
        ):
            b = QPushButton(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _c=False, s=slot: s())
            self.buttons[key] = b
            row, col, span = PLACES[key]
            grid.addWidget(b, row, col, 1, span)
        layout.addLayout(grid)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(200)
        self.log.setPlaceholderText("The campaign's log")
        layout.addWidget(self.log, 1)
        self._items: dict[str, QListWidgetItem] = {}
        self._placeholder = _placeholder()

    # ---------------------------------------------------------------------- showing

    def current(self) -> str:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else ""

    def select(self, eid: str) -> None:
        item = self._items.get(eid)
        if item is not None:
            self.list.setCurrentItem(item)

    def shown_file(self, e: Planned) -> Path:
        """The file a row shows: the running copy once there is one, else the prepared."""
        return self.control.doc.path_of(e.running or e.file)

    def refresh(self) -> None:
        doc = self.control.doc
        if doc is None:
            return
        camp = doc.campaign
        band = ", ".join(c.name for c in camp.band) or "no band yet"
        self.header.setText(
            f"<b>{camp.name}</b> · session {camp.session} · referee {camp.referee_shifts} "
            f"Shifts<br><small>Band: {band}</small>"
        )
        current = self.current()
        self.list.blockSignals(True)
        self.list.clear()
        self._items = {}
        for e in camp.encounters:
            text = f"{e.title}\n{e.play.label} · {played_text(e.last_played)}"
            if e.play is Play.FINISHED and not e.carried:
                text += " · not carried over"
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, e.id)
            item.setForeground(QColor(PLAY_COLOUR[e.play]))
            path = self.shown_file(e)
            item.setToolTip(str(path))
            image = self.thumbnails.request(path)
            item.setIcon(
                QIcon(QPixmap.fromImage(image)) if image is not None else self._placeholder
            )
            self.list.addItem(item)
            self._items[e.id] = item
        self.list.blockSignals(False)
        if current in self._items:
            self.list.setCurrentItem(self._items[current])
        elif camp.encounters:
            self.list.setCurrentRow(0)
        self.log.setPlainText("\n".join(f"[{x.session}] {x.text}" for x in camp.log[-200:]))
        self.log.verticalScrollBar().setValue(self.log.verticalScrollBar().maximum())
        self._update_buttons()

    def _thumbnail(self, path: str, image, problem: str) -> None:
        doc = self.control.doc
        if doc is None:
            return
        for e in doc.campaign.encounters:
            if str(self.shown_file(e)) == path and e.id in self._items:
                item = self._items[e.id]
                if image is not None:
                    item.setIcon(QIcon(QPixmap.fromImage(image)))
                else:
                    item.setToolTip(f"{path}\nNo thumbnail: {problem}")

    def _update_buttons(self) -> None:
        doc = self.control.doc
        eid = self.current()
        e = doc.campaign.find_encounter(eid) if doc is not None and eid else None
        self.buttons["run"].setEnabled(e is not None and e.play is not Play.RUNNING)
        setup = self.control.carry_refusal(eid) if e is not None else ""
        self.buttons["carry"].setEnabled(
            e is not None
            and not setup
            and (e.play is Play.RUNNING or (e.play is Play.FINISHED and not e.carried))
        )
        self.buttons["carry"].setToolTip(setup or "End it and write what lasts to the roster")
        self.buttons["open"].setEnabled(e is not None)
        can_undo = doc is not None and doc.history.can_undo()
        self.buttons["undo"].setEnabled(can_undo)
        self.buttons["undo"].setText(f"Undo {doc.history.undo_text()}"[:40] if can_undo else "Undo")
        self.buttons["undo"].setToolTip(doc.history.undo_text() if can_undo else "")
        self.buttons["redo"].setToolTip(doc.history.redo_text() if doc is not None else "")
        can_redo = doc is not None and doc.history.can_redo()
        self.buttons["redo"].setEnabled(can_redo)
        self.buttons["redo"].setText(f"Redo {doc.history.redo_text()}"[:40] if can_redo else "Redo")

    def _run(self) -> None:
        if self.current():
            self.control.run(self.current())

    def _carry(self) -> None:
        if self.current():
            self.control.carry_over(self.current())

    def _open(self) -> None:
        if self.current():
            self.control.open_encounter(self.current())
