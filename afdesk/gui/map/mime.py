"""What a drag onto the map carries, as MIME data: the map reads it, and the panels above
that start such drags (the zone editor's tile palette, the Unplaced panel) write it."""

from __future__ import annotations

import msgspec
from PySide6.QtCore import QByteArray, QMimeData

from afdesk.encounter.zone import TileKind

TILE_KIND = "application/x-afdesk-tile-kind"
"""A dragged tile kind: its JSON."""


def kind_mime(kind: TileKind) -> QMimeData:
    """A drag of ``kind`` (its name as the drag's text)."""
    data = QMimeData()
    data.setData(TILE_KIND, QByteArray(msgspec.json.encode(kind)))
    data.setText(kind.name)
    return data


def kind_from_mime(data: QMimeData) -> TileKind | None:
    """The tile kind a drag carries (None if it carries none, or a broken one)."""
    if not data.hasFormat(TILE_KIND):
        return None
    try:
        return msgspec.json.decode(bytes(data.data(TILE_KIND).data()), type=TileKind)
    except msgspec.DecodeError:
        return None


CHARACTERS = "application/x-afdesk-unplaced"
"""Dragged characters (from the Unplaced panel): their ids, one per line."""


def characters_mime(ids: list[str]) -> QMimeData:
    """A drag of the characters ``ids``."""
    data = QMimeData()
    data.setData(CHARACTERS, "\n".join(ids).encode())
    return data


def dragged_ids(data: QMimeData) -> list[str]:
    """The ids of the characters a drag carries (none for any other drag)."""
    if not data.hasFormat(CHARACTERS):
        return []
    return [cid for cid in bytes(data.data(CHARACTERS).data()).decode().split("\n") if cid]
