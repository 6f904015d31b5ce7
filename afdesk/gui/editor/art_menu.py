"""The entry points of map art: Encounter > Import map art... and Clear map art, View >
Show map art, and the zone editor's "Map art" box (import under the selected tile or the
whole zone, clear the selected tile's art). Installed by the zone editor
(:mod:`afdesk.gui.editor.install`), so the window itself names none of it.

Importing reads the file first (:func:`afdesk.gui.editor.art_import.read_file`): a file
too large, or that is no picture or Universal VTT map, is refused with its name and the
reason before any dialog opens, and nothing changes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QPushButton, QWidget

from afdesk.encounter.ops.art import SetMapArt
from afdesk.gui.map import art as map_art
from afdesk.gui.push import push
from afdesk.storage.errors import LoadError

FILTERS = (
    "Pictures and Universal VTT maps (*.png *.jpg *.jpeg *.webp *.uvtt *.dd2vtt);;"
    "Pictures (*.png *.jpg *.jpeg *.webp);;Universal VTT maps (*.uvtt *.dd2vtt)"
)


class MapArtMenu:
    """The map art actions of one window (see the module)."""

    def __init__(self, window, selected_tile) -> None:
        self.window = window
        self.selected_tile = selected_tile
        """A function: the tile place selected in the zone editor, or None."""
        self.report = self._warn
        """How a refused file is told (a message box; tests collect the words)."""
        self.import_action = QAction("Import map &art...", window)
        self.import_action.setStatusTip(
            "Your own picture (PNG, JPEG, WebP) or Universal VTT map (.uvtt, .dd2vtt) under "
            "the zone's tiles"
        )
        self.import_action.triggered.connect(lambda _c=False: self.import_art())
        self.clear_action = QAction("C&lear map art", window)
        self.clear_action.setStatusTip("Take every picture away from under the tiles")
        self.clear_action.triggered.connect(lambda _c=False: self.clear())
        self.show_action = QAction("Show map &art", window)
        self.show_action.setCheckable(True)
        self.show_action.setChecked(map_art.gm_shows_art)
        self.show_action.setStatusTip(
            "Draw the map art under the terrain on your map (the players' screen always does)"
        )
        self.show_action.toggled.connect(self.set_shown)
        encounter_menu = getattr(window, "encounter_menu", None)
        if encounter_menu is not None:
            encounter_menu.addSeparator()
            encounter_menu.addAction(self.import_action)
            encounter_menu.addAction(self.clear_action)
        view_menu = getattr(window, "view_menu", None)
        if view_menu is not None:
            view_menu.addAction(self.show_action)

    @property
    def doc(self):
        return getattr(self.window, "doc", None)

    def _warn(self, text: str) -> None:
        from PySide6.QtWidgets import QMessageBox  # made when first used

        QMessageBox.warning(self.window, "Map art", text)

    def set_shown(self, on: bool) -> None:
        """View > Show map art, for the GM's map."""
        map_art.gm_shows_art = on
        scene = getattr(getattr(self.window, "map", None), "map_scene", None)
        if scene is not None:
            scene.art.sync()

    def box(self) -> QGroupBox:
        """The zone editor's "Map art" box."""
        box = QGroupBox("Map art")
        row = QHBoxLayout(box)
        imp = QPushButton("&Map art...")
        imp.setToolTip(
            "Import a picture or a Universal VTT map under the selected tile or the whole zone"
        )
        imp.clicked.connect(lambda _c=False: self.import_art())
        clear = QPushButton("Clear tile's art")
        clear.setToolTip("Take the picture away from under the selected tile")
        clear.clicked.connect(lambda _c=False: self.clear_selected())
        row.addWidget(imp)
        row.addWidget(clear)
        return box

    # ----------------------------------------------------------------------- import

    def import_art(self, path: str | Path | None = None) -> None:
        """Ask for a file (unless given), then open the map art dialog on it."""
        from PySide6.QtWidgets import QFileDialog  # made when first used

        if self.doc is None:
            return
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Import map art", "", FILTERS)
            if not path:
                return
        dialog = self.dialog_for(path)
        if isinstance(dialog, str):
            self.report(dialog)
            return
        dialog.exec()

    def dialog_for(self, path: str | Path):
        """The map art dialog on ``path``'s picture, or why the file is refused."""
        from afdesk.gui.editor.art_dialog import MapArtDialog
        from afdesk.gui.editor.art_import import read_file

        try:
            image, uvtt_map = read_file(path)
        except LoadError as exc:
            return str(exc)
        parent: QWidget | None = self.window if isinstance(self.window, QWidget) else None
        return MapArtDialog(
            self.doc,
            image,
            Path(path).name,
            uvtt_map=uvtt_map,
            tile=self.selected_tile(),
            parent=parent,
        )

    # ------------------------------------------------------------------------ clear

    def clear_selected(self) -> str:
        """The editor's "Clear tile's art": the selected tile's picture, never all."""
        tile = self.selected_tile()
        if tile is None:
            why = "Select a tile on the map first (zone editor, tiles)."
            view = getattr(self.window, "map", None)
            if view is not None:
                view.refuse(why)
            return why
        return self.clear(tile)

    def clear(self, tile: tuple[int, int] | None = None) -> str:
        """Take away the art under ``tile`` (every tile's if None): "" or why not."""
        doc = self.doc
        if doc is None:
            return "no encounter is open"
        art = doc.encounter.art
        slots = tuple(a.slot for a in art.tiles) if tile is None else (tuple(tile),)
        view = getattr(self.window, "map", None)
        refuse = view.refuse if view is not None else None
        if not slots:
            why = "this encounter has no map art"
            if refuse is not None:
                refuse(why)
            return why
        said: list[str] = []

        def beside(why: str) -> None:
            said.append(why)
            if why and refuse is not None:
                refuse(why)

        push(doc, SetMapArt(clear=slots), beside=beside)
        return said[0]


__all__ = ["MapArtMenu"]
