"""Table > Fog regions…: every tile and named segment with a box, ticked when the players
cannot see it. For preparing (mark what starts hidden) and for the keyboard; each
tick is a :class:`~afdesk.encounter.ops.fog.SetFog` through the document, so it can be
undone and is logged."""

from __future__ import annotations

import contextlib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.fog import Region, region_state, segment_region, tile_region
from afdesk.encounter.ops.fog import SetFog
from afdesk.gui.push import push

_CHECK = {
    "hidden": Qt.CheckState.Checked,
    "partly": Qt.CheckState.PartiallyChecked,
    "shown": Qt.CheckState.Unchecked,
}


class FogRegionsDialog(QDialog):
    """The zone's regions and their fog (see the module)."""

    def __init__(self, doc, refuse, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Fog regions")
        self.doc = doc
        self._refuse = refuse
        self._regions: dict[str, Region] = {}
        self._syncing = False
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel("Ticked: fogged on the players' screen. Each change can be undone.")
        )
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Region", "Fog"])
        self.tree.itemChanged.connect(self._changed)
        layout.addWidget(self.tree, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(420, 520)
        doc.fogChanged.connect(self.refresh)
        doc.zoneChanged.connect(self.rebuild)
        self.finished.connect(self._detach)
        self.rebuild()

    def _detach(self, _result=None) -> None:
        for signal, slot in (
            (self.doc.fogChanged, self.refresh),
            (self.doc.zoneChanged, self.rebuild),
        ):
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)

    def rebuild(self) -> None:
        """One row per tile, its segments under it (the zone changed)."""
        enc = self.doc.encounter
        self._syncing = True
        try:
            self.tree.clear()
            self._regions = {}
            for tile in enc.zone.tiles:
                key = f"{tile.col},{tile.row}"
                top = self._item(self.tree.invisibleRootItem(), key, tile_region(tile))
                for i in range(len(tile.segments)):
                    self._item(top, f"{key},{i}", segment_region(tile, i))
                top.setExpanded(True)
        finally:
            self._syncing = False
        self.refresh()

    def _item(self, parent: QTreeWidgetItem, key: str, region: Region) -> QTreeWidgetItem:
        item = QTreeWidgetItem([region.name.removeprefix("the "), ""])
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setData(0, Qt.ItemDataRole.UserRole, key)
        self._regions[key] = region
        parent.addChild(item)
        return item

    def items(self) -> list[QTreeWidgetItem]:
        out = []
        root = self.tree.invisibleRootItem()
        for i in range(root.childCount()):
            top = root.child(i)
            out.append(top)
            out.extend(top.child(j) for j in range(top.childCount()))
        return out

    def refresh(self) -> None:
        """Tick the rows as the encounter's fog is now (rows stay: this may run while a
        row's own tick is being handled)."""
        enc = self.doc.encounter
        self._syncing = True
        try:
            for item in self.items():
                region = self._regions[item.data(0, Qt.ItemDataRole.UserRole)]
                state = region_state(enc.zone, enc.fog, region)
                item.setCheckState(0, _CHECK[state])
                item.setText(1, state)
        finally:
            self._syncing = False

    def item_named(self, name: str) -> QTreeWidgetItem | None:
        """The first row of the region called ``name`` ("the Ford")."""
        for item in self.items():
            if self._regions[item.data(0, Qt.ItemDataRole.UserRole)].name == name:
                return item
        return None

    def _changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._syncing or column != 0:
            return
        region = self._regions.get(item.data(0, Qt.ItemDataRole.UserRole))
        if region is None:
            return
        hide = item.checkState(0) != Qt.CheckState.Unchecked
        if not push(self.doc, SetFog.of(region, hide), beside=lambda r: r and self._refuse(r)):
            self.refresh()


__all__ = ["FogRegionsDialog"]
