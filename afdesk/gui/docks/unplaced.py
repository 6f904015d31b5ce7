"""The Unplaced panel: characters in the encounter but not on the map (a campaign's
Prepare adds the band, the villain and the bestiary copies unplaced). The GM drags one, or
a selection of several, onto the map: one takes the area it is dropped on, a group spreads
over the free areas of the tile or the zone's edge it is dropped on, each facing the other
side (afdesk.encounter.placing, E9, E11). A drop is one undo step of PlaceCombatant Ops."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QMimeData, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.geometry import Area
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.encounter.placing import drop_placement, unplaced
from afdesk.gui.follow import Links, follow
from afdesk.gui.map.mime import CHARACTERS, characters_mime

UNPLACED_WIDTH = 170
"""The dock's width in pixels: names, not the map, at 1280x720."""


def placement_ops(doc, ids: list[str], drop: Area) -> list[PlaceCombatant]:
    """The PlaceCombatant Ops of a drop of ``ids`` on ``drop`` (one undo step)."""
    enc = doc.encounter
    ids = [cid for cid in ids if cid in enc.combatants]
    return [PlaceCombatant(cid, a, f) for cid, a, f in drop_placement(enc, ids, drop)]


def place_dropped(view, ids: list[str], drop: Area) -> None:
    """The map view's drop of characters from the panel (``MapView.drop_characters``):
    place them where they were dropped (one undo step); a refusal or an area outside the
    zone is said on the map."""
    ops = placement_ops(view.doc, ids, drop)
    if not ops:
        view.refuse(f"{drop} is outside the zone: drop the characters on the map (E9)")
    else:
        view.push(ops, f"Place {len(ops)} characters" if len(ops) > 1 else None)


class _List(QListWidget):
    """The list the GM drags from: the selected characters' ids travel with the drag."""

    def sizeHint(self) -> QSize:
        return QSize(UNPLACED_WIDTH - 10, 160)

    def mimeTypes(self) -> list[str]:
        return [CHARACTERS]

    def mimeData(self, items) -> QMimeData:
        return characters_mime([i.data(Qt.ItemDataRole.UserRole) for i in items])


class UnplacedPanel(QWidget):
    """The characters waiting off the map, by side, for the GM to drag onto it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = None
        self._links = Links()
        self._shown: list[tuple[str, str]] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        hint = QLabel("Drag onto the map (several: spread over the tile or edge)")
        hint.setWordWrap(True)
        hint.setToolTip(
            "One takes the area it is dropped on; several selected spread over the free "
            "areas of the tile, or along the zone's edge, they are dropped on, facing the "
            "other side (E9, E11)"
        )
        layout.addWidget(hint)
        self.list = _List()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setDragEnabled(True)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        layout.addWidget(self.list, 1)

    def sizeHint(self) -> QSize:
        return QSize(UNPLACED_WIDTH, 200)

    def set_document(self, doc) -> None:
        self.doc = doc
        self._links.clear()
        self._links.connect(doc.changed, self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """List who waits now (rebuilt only when that changed, keeping the selection)."""
        if self.doc is None:
            return
        people = unplaced(self.doc.encounter)
        shown = [(c.id, f"{c.name} ({c.side.value})") for c in people]
        if shown != self._shown:
            chosen = {i.data(Qt.ItemDataRole.UserRole) for i in self.list.selectedItems()}
            self._shown = shown
            self.list.clear()
            for cid, text in shown:
                item = QListWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, cid)
                self.list.addItem(item)
                item.setSelected(cid in chosen)
        dock = self.parentWidget()
        if isinstance(dock, QDockWidget) and dock.isHidden() == bool(shown):
            dock.setVisible(bool(shown))


def install(window) -> UnplacedPanel:
    """The Unplaced dock (left, under the Reflex dock), shown while someone waits."""
    dock = QDockWidget("Unplaced", window)
    dock.setObjectName("unplacedDock")
    panel = UnplacedPanel(dock)
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    dock.setVisible(False)
    window.map.drop_characters = partial(place_dropped, window.map)
    follow(window, panel.set_document)
    return panel
