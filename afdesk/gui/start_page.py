"""Starting where the GM left off: the last encounter or campaign (kept in QSettings)
opens at the next start; with none (File > Close), or when it is gone, a start page over
the map lists the recent encounters and campaigns and the bundled samples. A GM with no
history at all gets the river-ford sample, as on a fresh machine."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from afdesk import paths
from afdesk.gui import modes
from afdesk.gui.central import open_mode_sample
from afdesk.gui.follow import follow
from afdesk.gui.stored import recent, store, store_list

LAST_KIND, LAST_PATH = "last/kind", "last/path"
"""What was open when afdesk last ran ("encounter" or "campaign") and its file or folder."""
RECENT_CAMPAIGNS = "recentCampaigns"
MAX_RECENT = 8
ROLE = Qt.ItemDataRole.UserRole


def remember(settings, kind: str, where: Path) -> None:
    """``where`` (an encounter file or a campaign folder) is what the GM has open now."""
    store(settings, LAST_KIND, kind)
    store(settings, LAST_PATH, str(Path(where).resolve()))
    if kind == "campaign":
        items = [str(Path(where).resolve())]
        items += [p for p in recent(settings, RECENT_CAMPAIGNS) if p != items[0]]
        store_list(settings, RECENT_CAMPAIGNS, items[:MAX_RECENT])


def forget_last(settings) -> None:
    """The GM closed what was open: the next start shows the start page."""
    settings.remove("last")


def last(settings) -> tuple[str, Path] | None:
    kind, where = settings.value(LAST_KIND), settings.value(LAST_PATH)
    if kind not in ("encounter", "campaign") or not where:
        return None
    return str(kind), Path(str(where))


def resume(window) -> bool:
    """Open what the GM had open last; True if the window now shows it or the start page
    (the last one is gone, or was closed), False if there is no history (the caller opens
    the sample)."""
    settings = window.settings
    was = last(settings)
    if was is not None:
        kind, where = was
        if kind == "encounter" and where.is_file() and window.open_path(where):
            return True
        if kind == "campaign" and (where / "campaign.afcamp").is_file():
            window.complete()  # the campaign's dock and panels
            if window.open_campaign(where):
                return True
        what = "encounter" if kind == "encounter" else "campaign"
        show(window, f"The last {what}, {where}, is gone (moved, renamed or deleted).")
        return True
    if recent(settings) or recent(settings, RECENT_CAMPAIGNS):
        show(window)
        return True
    return False


def show(window, note: str = "") -> StartPage:
    """The start page over the map (made once; it hides when an encounter opens)."""
    page = getattr(window, "start_page", None)
    if page is None:
        page = StartPage(window)
        window.start_page = page
    page.fill(note)
    page.show()
    page.raise_()
    window.setWindowTitle("afdesk")
    return page


class StartPage(QWidget):
    """Recent encounters and campaigns and the samples, over the map: a double click (or
    Enter) opens one."""

    def __init__(self, window) -> None:
        super().__init__(window.map)
        self.setObjectName("startPage")
        self.window_ = window
        self.setAutoFillBackground(True)
        box = QVBoxLayout(self)
        box.setContentsMargins(40, 30, 40, 30)
        title = QLabel("<h2>afdesk</h2>Open an encounter or a campaign to start.")
        box.addWidget(title)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setObjectName("startNote")
        self.note.setStyleSheet("color: #b00020; font-weight: bold;")
        box.addWidget(self.note)
        self.list = QListWidget()
        self.list.setObjectName("startList")
        self.list.itemActivated.connect(self.open_item)
        box.addWidget(self.list, 1)
        hint = QLabel("File > Open… and File > New encounter… work here too.")
        box.addWidget(hint)
        window.map.installEventFilter(self)
        follow(window, self._opened, now=False)
        self.setGeometry(window.map.rect())

    def _opened(self, _doc) -> None:
        self.hide()
        self.window_._enable_encounter_actions(True)
        self.window_._update_actions()  # the commands as the model allows them

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(self.window_.map.rect())
        return False

    def fill(self, note: str = "") -> None:
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.list.clear()
        settings = self.window_.settings
        rows: list[tuple[str, tuple[str, str]]] = []
        for p in recent(settings):
            rows.append((f"Encounter: {Path(p).name}  ({Path(p).parent})", ("encounter", p)))
        for p in recent(settings, RECENT_CAMPAIGNS):
            rows.append((f"Campaign: {Path(p).name}  ({p})", ("campaign", p)))
        rows.append(("Sample: River ford (a battle)", ("sample", "")))
        for screens in modes.registered():
            if screens.sample and (paths.resource_dir() / "encounters" / screens.sample).is_file():
                rows.append((f"Sample: {screens.sample_label}", ("mode", screens.mode.value)))
        first = -1
        for text, data in rows:
            kind, where = data
            there = kind not in ("encounter", "campaign") or Path(where).exists()
            item = QListWidgetItem(text if there else f"{text}: missing")
            item.setData(ROLE, data)
            if not there:  # listed, so the GM sees it went, but not offered
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            elif first < 0:
                first = self.list.count()
            self.list.addItem(item)
        self.list.setCurrentRow(first)

    def open_item(self, item: QListWidgetItem) -> bool:
        """Open what ``item`` names; a clear message and the page kept if it cannot be."""
        kind, where = item.data(ROLE)
        w = self.window_
        if kind == "sample":
            w.open_sample()
            return True
        if kind == "mode":
            w.complete()  # the mode's board
            from afdesk.encounter.state import Mode

            return open_mode_sample(w, Mode(where))
        if kind == "campaign":
            w.complete()
            return w.open_campaign(where)
        return w.open_path(where)
