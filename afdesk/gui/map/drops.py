"""Characters dragged onto a map view (from the Unplaced panel: afdesk.gui.docks.unplaced),
for the map view (:class:`afdesk.gui.map.view.MapView`) to mix in: a drag that carries
characters is taken where ``drop_characters`` is set (the GM's view only), and the drop
hands the characters and the area under the cursor to it."""

from __future__ import annotations

from afdesk.gui import mapgeom
from afdesk.gui.map.mime import dragged_ids


class CharacterDrops:
    """Drag-and-drop of characters onto a view (a ``QGraphicsView`` with ``player``,
    ``doc`` and ``drop_characters``; mixed in before it)."""

    def _dropped_ids(self, event) -> list[str]:
        """The characters a drag carries, if this view takes them (see drop_characters)."""
        if self.player or self.doc is None or self.drop_characters is None:
            return []
        return dragged_ids(event.mimeData())

    def dragEnterEvent(self, event) -> None:
        if self._dropped_ids(event):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if self._dropped_ids(event):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        ids = self._dropped_ids(event)
        if not ids or self.drop_characters is None:
            super().dropEvent(event)
            return
        pos = self.mapToScene(event.position().toPoint())
        self.drop_characters(ids, mapgeom.area_at(pos.x(), pos.y()))
        event.acceptProposedAction()


__all__ = ["CharacterDrops"]
