"""Tile sets: the bundled ones and the GM's own, read from JSON files (E9, E10).

Two folders are read, in order: the bundled tile sets (``resources/tilesets``, or the
installed copy) and the user's (``<data folder>/tilesets``, see :mod:`afdesk.paths`). A
broken bundled file is a broken install and raises :class:`LoadError`; a broken user file,
or one whose id is already taken, is reported in :attr:`TileSetCatalog.problems` and
skipped, so a GM's half-written tile set never stops afdesk.

The model never calls this: a new zone copies the kinds of the tile set it is made from
(:func:`afdesk.encounter.zone.grid_zone`), so what is installed only matters when a zone is
made, never when an encounter is opened, extended or replayed.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from afdesk.encounter import limits
from afdesk.encounter.zone import TILE, TileSet
from afdesk.paths import bundled_tileset_dir, user_tileset_dir
from afdesk.storage import messages
from afdesk.storage.errors import LoadError

MAX_TILESET_BYTES = 1024 * 1024
"""A tile set file larger than this is refused unread (the bundled ones hold ~6 KiB)."""

SOURCE = "tile sets"
"""What a :class:`LoadError` names when no single file is to blame."""


@dataclass(frozen=True)
class TileSetCatalog:
    """The tile sets a new zone may be made from, and what was wrong with the rest."""

    sets: Mapping[str, TileSet]
    """By id: the bundled ones first (sorted by file name), then the user's."""
    problems: tuple[LoadError, ...] = ()
    """User files that were skipped, each naming the file and what is wrong."""
    files: Mapping[str, Path] = field(default_factory=dict)
    """The file each tile set was read from."""


def read_tileset(path: Path) -> TileSet:
    """One tile set from its JSON file.

    Raises :class:`LoadError` naming the file, the place and the problem: unreadable,
    too large, not JSON, a field of the wrong type, a segment outside its tile, a kind
    id given twice.
    """
    source = path.name or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_TILESET_BYTES:
            raise LoadError(source, f"it is {size} bytes; a tile set file is at most 1 MiB")
        data = path.read_bytes()
    except FileNotFoundError:
        raise LoadError(source, f"there is no such file ({path})") from None
    except IsADirectoryError:
        raise LoadError(source, "this is a folder, not a tile set file") from None
    except PermissionError:
        raise LoadError(source, "no permission to read it") from None
    except OSError as exc:
        raise LoadError(source, f"it cannot be read: {exc.strerror or exc}") from None
    return decode_tileset(data, source)


def decode_tileset(data: bytes, source: str) -> TileSet:
    """A tile set from the bytes of its file; :class:`LoadError` as in :func:`read_tileset`."""
    try:
        tileset = msgspec.json.decode(data, type=TileSet)
    except msgspec.ValidationError as exc:
        raise LoadError(source, messages.validation_text(str(exc), _raw(data), TileSet)) from None
    except msgspec.DecodeError as exc:
        raise LoadError(
            source, messages.syntax_text(str(exc), data, "an afdesk tile set")
        ) from None
    except UnicodeDecodeError as exc:
        raise LoadError(source, f"this is not UTF-8 text (byte {exc.start})") from None
    _check_meaning(tileset, source)
    return tileset


def _raw(data: bytes) -> Any:
    """The parsed document, so that an error can show the bad value (None if unparsable)."""
    try:
        return msgspec.json.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None


def _check_meaning(tileset: TileSet, source: str) -> None:
    """What the types cannot say: an id, at least one kind, ids once, segments inside."""
    if not tileset.id.strip():
        raise LoadError(source, 'id: a tile set needs an id (a short name such as "caves")')
    if not tileset.kinds:
        raise LoadError(source, "kinds: a tile set needs at least one kind of tile")
    seen: dict[str, int] = {}
    for k, kind in enumerate(tileset.kinds):
        if kind.id in seen:
            raise LoadError(
                source,
                f"kinds[{k}].id: {messages.value_text(kind.id)} is also the id of "
                f"kinds[{seen[kind.id]}]; every kind of tile needs its own",
            )
        seen[kind.id] = k
        for s, seg in enumerate(kind.segments):
            if not seg.areas:
                raise LoadError(
                    source,
                    f"kinds[{k}].segments[{s}].areas: segment {seg.name!r} of {kind.id} covers "
                    "no area; a segment covers at least one area of its tile",
                )
            for a, (c, r) in enumerate(seg.areas):
                if not (0 <= c < TILE and 0 <= r < TILE):
                    raise LoadError(
                        source,
                        f"kinds[{k}].segments[{s}].areas[{a}]: segment {seg.name!r} of "
                        f"{kind.id} has area ({c}, {r}) outside the tile's 5 x 5 areas "
                        "(0 to 4 each way)",
                    )
    # What an encounter file could not hold once a zone copies these kinds: the same
    # limits (afdesk.encounter.limits), and every number finite and 64-bit.
    found = limits.problem(tileset) or limits.number_problem(msgspec.to_builtins(tileset))
    if found is not None:
        raise LoadError(source, messages.at(found.place, found.text))


def _json_files(folder: Path) -> list[Path]:
    """The ``*.json`` files of a folder, by name; OSError if it cannot be listed."""
    with os.scandir(folder) as entries:
        names = sorted(e.name for e in entries if e.name.endswith(".json"))
    return [folder / name for name in names]


def scan(bundled: Path | None = None, user: Path | None = None) -> TileSetCatalog:
    """Read the bundled tile sets, then the user's (the default folders unless given).

    Raises :class:`LoadError` only for the bundled ones; a user folder that is missing is
    no problem, and one that cannot be read, or a broken or clashing user file, is a
    problem in the catalog.
    """
    bundled = bundled_tileset_dir() if bundled is None else bundled
    user = user_tileset_dir() if user is None else user
    sets: dict[str, TileSet] = {}
    files: dict[str, Path] = {}
    try:
        bundled_files = _json_files(bundled)
    except OSError as exc:
        raise LoadError(
            SOURCE, f"the bundled tile sets cannot be read ({bundled}): {exc}"
        ) from None
    for path in bundled_files:
        tileset = read_tileset(path)
        if tileset.id in sets:
            raise LoadError(path.name, f"id: the tile set id {tileset.id!r} is used twice")
        sets[tileset.id] = tileset
        files[tileset.id] = path
    problems: list[LoadError] = []
    try:
        user_files = _json_files(user) if user.is_dir() else []
    except OSError as exc:
        problems.append(LoadError(str(user), f"your tile sets cannot be read: {exc}"))
        user_files = []
    for path in user_files:
        try:
            tileset = read_tileset(path)
        except LoadError as exc:
            problems.append(exc)
            continue
        if tileset.id in sets:
            problems.append(
                LoadError(
                    path.name,
                    f"id: {tileset.id!r} is already the id of the tile set in "
                    f"{files[tileset.id].name}; give this one another id",
                )
            )
            continue
        sets[tileset.id] = tileset
        files[tileset.id] = path
    return TileSetCatalog(sets, tuple(problems), files)


@functools.cache
def _cached(bundled: Path, user: Path) -> TileSetCatalog:
    return scan(bundled, user)


def catalog() -> TileSetCatalog:
    """Every installed tile set, read once per pair of folders (see :func:`reload`)."""
    return _cached(bundled_tileset_dir(), user_tileset_dir())


def reload() -> TileSetCatalog:
    """Read the folders again (after the GM added or fixed a tile set)."""
    _cached.cache_clear()
    return catalog()


def tilesets() -> dict[str, TileSet]:
    """Every installed tile set by id, the bundled ones first."""
    return dict(catalog().sets)


def tileset(tileset_id: str) -> TileSet:
    """The installed tile set with this id; :class:`LoadError` if there is none."""
    sets = catalog().sets
    if tileset_id not in sets:
        raise LoadError(
            SOURCE,
            f"there is no tile set {tileset_id!r}; the installed ones are "
            + ", ".join(sorted(sets)),
        )
    return sets[tileset_id]
