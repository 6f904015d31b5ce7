"""The GM's own tile sets: create, rename and duplicate a set in the user's tile
set folder (:func:`afdesk.paths.user_tileset_dir`), and save a tile painted in the zone editor
as a new kind of one of them (a "stamp").

Only the GM's own files are written, never the bundled ones; every write is atomic
(:func:`afdesk.storage.atomic.replace`) and what is written is checked as a tile set is when
it is read (:func:`afdesk.storage.tilesets.decode_tileset`), so a file afdesk writes always
loads. Failures raise :class:`SaveError` (the disk) or :class:`LoadError` (a bad set) in the
GM's words; after each change the catalog is read again.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from afdesk.encounter.zone import EMPTY, Tile, TileKind, TileSet
from afdesk.paths import user_tileset_dir
from afdesk.storage import atomic, tilesets
from afdesk.storage.errors import LoadError, SaveError

STARTER = TileKind(
    "ground",
    "Open ground",
    "#9bbf6e",
    "grass",
    description="Plain ground to paint segments on",
)
"""The one kind a new tile set starts with (a tile set has at least one)."""


def slug(text: str, fallback: str = "set") -> str:
    """An id from a name: lower case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or fallback


def _folder(folder: Path | None) -> Path:
    return user_tileset_dir() if folder is None else folder


def _free_id(base: str, taken: set[str]) -> str:
    new, n = base, 2
    while new in taken:
        new, n = f"{base}-{n}", n + 1
    return new


def _write(ts: TileSet, path: Path) -> Path:
    data = msgspec.json.format(msgspec.json.encode(ts), indent=2) + b"\n"
    tilesets.decode_tileset(data, path.name)  # what afdesk writes, afdesk reads
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(path.name, atomic.reason(exc, path)) from None
    atomic.replace(path, data)
    return path


def _own(set_id: str, folder: Path) -> tuple[TileSet, Path]:
    """One of the GM's own tile sets and its file; LoadError for any other."""
    cat = tilesets.scan(user=folder)
    if set_id not in cat.sets:
        raise LoadError(tilesets.SOURCE, f"there is no tile set {set_id!r}")
    path = cat.files[set_id]
    if path.parent != folder:
        raise LoadError(
            path.name,
            f"{cat.sets[set_id].name} is bundled with afdesk and is not changed; duplicate it "
            "to make your own copy",
        )
    return cat.sets[set_id], path


def create(name: str, folder: Path | None = None) -> TileSet:
    """A new tile set called ``name`` in the GM's folder, with one kind of open ground."""
    folder = _folder(folder)
    if not name.strip():
        raise LoadError(tilesets.SOURCE, "a tile set needs a name")
    taken = set(tilesets.scan(user=folder).sets)
    ts = TileSet(_free_id(slug(name), taken), name.strip(), (STARTER,))
    _write(ts, folder / f"{ts.id}.json")
    tilesets.reload()
    return ts


def duplicate(set_id: str, name: str, folder: Path | None = None) -> TileSet:
    """A copy of any installed tile set (bundled or the GM's) as a new set of the GM's."""
    folder = _folder(folder)
    cat = tilesets.scan(user=folder)
    if set_id not in cat.sets:
        raise LoadError(tilesets.SOURCE, f"there is no tile set {set_id!r}")
    if not name.strip():
        raise LoadError(tilesets.SOURCE, "the copy needs a name")
    source = cat.sets[set_id]
    ts = TileSet(_free_id(slug(name), set(cat.sets)), name.strip(), source.kinds)
    ts = msgspec.structs.replace(ts, random_properties=source.random_properties)
    _write(ts, folder / f"{ts.id}.json")
    tilesets.reload()
    return ts


def rename(set_id: str, name: str, folder: Path | None = None) -> TileSet:
    """Give one of the GM's tile sets another name (its id, which encounters name, stays)."""
    folder = _folder(folder)
    if not name.strip():
        raise LoadError(tilesets.SOURCE, "a tile set needs a name")
    ts, path = _own(set_id, folder)
    ts = msgspec.structs.replace(ts, name=name.strip())
    _write(ts, path)
    tilesets.reload()
    return ts


def save_stamp(set_id: str, tile: Tile, name: str, folder: Path | None = None) -> TileKind:
    """Save a tile painted in the zone editor as a kind called ``name`` of one of the GM's
    tile sets (its colour, pattern and segments with their properties). A kind of that name
    already in the set is updated in place, keeping its id: that is how the GM edits a
    kind of their own with the brush (place it, paint it, save it under its name)."""
    folder = _folder(folder)
    if not name.strip():
        raise LoadError(tilesets.SOURCE, "the new tile kind needs a name")
    if tile.kind == EMPTY and not tile.segments:
        raise LoadError(tilesets.SOURCE, "an empty slot is not a tile to keep")
    ts, path = _own(set_id, folder)
    same = [k for k in ts.kinds if k.name.strip().lower() == name.strip().lower()]
    if same:
        old = same[0]
        kind = TileKind(old.id, old.name, tile.colour, tile.pattern, tile.segments, old.description)
        kinds = tuple(kind if k is old else k for k in ts.kinds)
    else:
        kind_id = _free_id(slug(name, "tile"), {k.id for k in ts.kinds})
        kind = TileKind(kind_id, name.strip(), tile.colour, tile.pattern, tile.segments)
        kinds = (*ts.kinds, kind)
    _write(msgspec.structs.replace(ts, kinds=kinds), path)
    tilesets.reload()
    return kind


__all__ = ["STARTER", "create", "duplicate", "rename", "save_stamp", "slug"]
