"""The tile palette: the tiles of the encounter's own tile kinds and of every
installed tile set (bundled and the GM's own) as thumbnails. Drag one onto a slot of the map
to place it there, or select a slot and double-click (or press Enter on) a tile to pick it.
Problems with the GM's own tile set files are listed, not raised (they are skipped)."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.zone import EMPTY_KIND, TileKind
from afdesk.gui.editor.thumbs import THUMB, icon
from afdesk.gui.follow import Links
from afdesk.gui.map.mime import TILE_KIND, kind_mime
from afdesk.gui.style import meaning_style

ENCOUNTER = ""
"""The palette's choice "the encounter's own tiles" (the other choices are tile set ids)."""

KIND_ROLE = Qt.ItemDataRole.UserRole


class _Tiles(QListWidget):
    def mimeData(self, items) -> QMimeData:
        kind = items[0].data(KIND_ROLE) if items else None
        return kind_mime(kind) if kind is not None else QMimeData()

    def mimeTypes(self) -> list[str]:
        return [TILE_KIND]


class TilePalette(QWidget):
    """Thumbnails of tile kinds; ``picked(kind)`` on a double-click or Enter."""

    picked = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = None
        self._links = Links()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.source = QComboBox()
        self.source.setToolTip("Whose tiles: this encounter's, or an installed tile set's")
        self.source.currentIndexChanged.connect(lambda _i: self.refresh())
        layout.addWidget(self.source)
        self.tiles = _Tiles()
        self.tiles.setViewMode(QListWidget.ViewMode.IconMode)
        self.tiles.setIconSize(QSize(THUMB, THUMB))
        self.tiles.setGridSize(QSize(THUMB + 26, THUMB + 34))
        self.tiles.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.tiles.setMovement(QListWidget.Movement.Static)
        self.tiles.setWordWrap(True)
        self.tiles.setDragEnabled(True)
        self.tiles.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tiles.setToolTip(
            "Drag a tile onto a slot of the map, or select a slot and double-click a tile"
        )
        self.tiles.itemActivated.connect(self._activated)
        layout.addWidget(self.tiles, 1)
        row = QHBoxLayout()
        self.new_button = QPushButton("New set…")
        self.new_button.setToolTip("A tile set of your own, in your tile set folder")
        self.new_button.clicked.connect(lambda _c=False: self.new_set())
        self.copy_button = QPushButton("Duplicate…")
        self.copy_button.setToolTip("Your own copy of the chosen tile set")
        self.copy_button.clicked.connect(lambda _c=False: self.duplicate_set())
        self.rename_button = QPushButton("Rename…")
        self.rename_button.setToolTip("Rename the chosen tile set (one of yours)")
        self.rename_button.clicked.connect(lambda _c=False: self.rename_set())
        for b in (self.new_button, self.copy_button, self.rename_button):
            row.addWidget(b)
        layout.addLayout(row)
        self.stamp_button = QPushButton("Save the selected tile as a stamp…")
        self.stamp_button.setToolTip(
            "Keep the tile selected on the map, with its painted segments, as a new kind "
            "of the chosen tile set (one of yours); under the name of one of its kinds, "
            "that kind is updated (edit your kinds with the brush)"
        )
        self.stamp_button.clicked.connect(lambda _c=False: self.save_stamp())
        layout.addWidget(self.stamp_button)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.folder = QLabel()
        self.folder.setWordWrap(True)
        self.folder.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.folder.setStyleSheet(meaning_style("hint", self.folder))
        layout.addWidget(self.folder)
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet(meaning_style("error", self.problems))
        layout.addWidget(self.problems)
        self._sets: dict[str, tuple[TileKind, ...]] = {}
        self.reload_sets()

    # -------------------------------------------------------------------- sources

    def reload_sets(self) -> None:
        """Read the installed tile sets again; broken files of the GM's are listed."""
        from afdesk.paths import user_tileset_dir
        from afdesk.storage import tilesets

        cat = tilesets.reload()
        self._sets = {ts.id: ts.kinds for ts in cat.sets.values()}
        current = self.source.currentData()
        self.source.blockSignals(True)
        self.source.clear()
        self.source.addItem("This encounter's tiles", ENCOUNTER)
        for ts in cat.sets.values():
            self.source.addItem(f"Tile set: {ts.name}", ts.id)
        index = self.source.findData(current) if current is not None else 0
        self.source.setCurrentIndex(max(index, 0))
        self.source.blockSignals(False)
        self.folder.setText(f"Your tile sets: {user_tileset_dir()}")
        self.problems.setText(
            "\n".join(f"Skipped {p}" for p in cat.problems) if cat.problems else ""
        )
        self.problems.setVisible(bool(cat.problems))
        self.refresh()

    def set_document(self, doc) -> None:
        self.doc = doc
        self._links.clear()
        self._links.connect(doc.zoneChanged, self.refresh)
        self.refresh()

    def kinds(self) -> list[TileKind]:
        """The tile kinds shown now (the empty slot first)."""
        source = self.source.currentData()
        if source == ENCOUNTER or source is None:
            own = list(self.doc.encounter.zone.kinds) if self.doc is not None else []
        else:
            own = list(self._sets.get(source, ()))
        return [EMPTY_KIND, *(k for k in own if k.id != EMPTY_KIND.id)]

    def choose(self, source: str) -> None:
        """Show the tiles of tile set ``source`` (or ENCOUNTER)."""
        self.source.setCurrentIndex(max(self.source.findData(source), 0))

    def refresh(self) -> None:
        kinds = self.kinds()
        shown = [self.tiles.item(i).data(KIND_ROLE) for i in range(self.tiles.count())]
        if shown == kinds:
            return
        self.tiles.clear()
        for kind in kinds:
            item = QListWidgetItem(icon(kind), kind.name)
            item.setData(KIND_ROLE, kind)
            tip = kind.name + (f": {kind.description}" if kind.description else "")
            if kind.segments:
                tip += "\n" + "\n".join(
                    f"{s.name}: {', '.join(s.props.labels()) or 'no properties'}"
                    for s in kind.segments
                )
            item.setToolTip(tip)
            self.tiles.addItem(item)

    def kind_named(self, name: str) -> TileKind:
        """The shown tile kind called ``name`` (tests and scripts pick by name)."""
        for i in range(self.tiles.count()):
            kind = self.tiles.item(i).data(KIND_ROLE)
            if kind.name == name or kind.id == name:
                return kind
        raise KeyError(name)

    # ------------------------------------------------------------- own tile sets

    selected_tile = staticmethod(lambda: None)
    """The tile selected on the map (the installer points it at the editor)."""

    def _ask(self, title: str, label: str, text: str = "") -> str:
        name, ok = QInputDialog.getText(self, title, label, text=text)
        return name.strip() if ok else ""

    def _own_call(self, call, done: str) -> bool:
        """Run a change to the GM's tile sets; its failure is said here, never raised."""
        from afdesk.storage.errors import LoadError, SaveError

        try:
            result = call()
        except (LoadError, SaveError) as exc:
            self.message.setStyleSheet(meaning_style("error", self.message))
            self.message.setText(str(exc))
            return False
        self.reload_sets()
        if hasattr(result, "kinds"):  # a tile set: show it
            self.choose(result.id)
        self.message.setStyleSheet(meaning_style("good", self.message))
        self.message.setText(done.format(result.name))
        return True

    def new_set(self, name: str | None = None) -> bool:
        from afdesk.storage import own_tilesets

        name = self._ask("New tile set", "Name of the tile set:") if name is None else name
        return bool(name) and self._own_call(lambda: own_tilesets.create(name), "Made {}.")

    def duplicate_set(self, name: str | None = None) -> bool:
        from afdesk.storage import own_tilesets

        source = self.source.currentData() or self._zone_set()
        if name is None:
            name = self._ask("Duplicate tile set", "Name of the copy:")
        return bool(name) and self._own_call(
            lambda: own_tilesets.duplicate(source, name), "Made {}, your copy."
        )

    def rename_set(self, name: str | None = None) -> bool:
        from afdesk.storage import own_tilesets

        source = self.source.currentData()
        if not source:
            self.message.setText("Choose one of your tile sets above first.")
            return False
        name = self._ask("Rename tile set", "New name:") if name is None else name
        return bool(name) and self._own_call(
            lambda: own_tilesets.rename(source, name), "Renamed it {}."
        )

    def save_stamp(self, name: str | None = None) -> bool:
        from afdesk.storage import own_tilesets

        source = self.source.currentData()
        tile = self.selected_tile()
        if not source or tile is None:
            self.message.setStyleSheet(meaning_style("error", self.message))
            self.message.setText(
                "Select a tile on the map and choose one of your tile sets above first."
            )
            return False
        if name is None:
            name = self._ask("Save as a stamp", "Name of the new tile kind:", tile.name)
        return bool(name) and self._own_call(
            lambda: own_tilesets.save_stamp(source, tile, name), "Saved {} as a stamp."
        )

    def _zone_set(self) -> str:
        return self.doc.encounter.zone.tileset if self.doc is not None else ""

    def _activated(self, item: QListWidgetItem) -> None:
        self.picked.emit(item.data(KIND_ROLE))
