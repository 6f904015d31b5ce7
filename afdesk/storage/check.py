"""``afdesk check FILE...``: load each file the way the app does and say what is wrong
(encounters, campaigns, character files and tile sets)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from afdesk.storage.errors import LoadError
from afdesk.storage.files import load


def _load_any(path: str) -> None:
    """Load ``path`` as what its name says: a campaign (its ``campaign.afcamp`` or its
    folder), a character file, or an encounter."""
    from afdesk.storage import campaign

    p = Path(path)
    if p.suffix == campaign.EXTENSION or (p.is_dir() and (p / campaign.FILE_NAME).exists()):
        loaded = campaign.load_campaign(p)
        problems = campaign.encounter_problems(loaded)
        if problems:  # a campaign is broken if an encounter it needs is
            raise LoadError(loaded.path.name, "; ".join(problems))
    elif p.suffix == campaign.CHARACTERS_EXTENSION:
        campaign.import_characters(p)
    elif p.suffix == ".json":
        _check_tileset(p)
    else:
        load(path)


def _check_tileset(path: Path) -> None:
    """A tile-set file (``.json``) as afdesk reads the GM's own from the data folder: its
    types and meaning (E9, E10: segments inside their tile, kind ids once, the encounter
    file's limits), and an id that no bundled tile set has (afdesk would skip it)."""
    from afdesk.paths import bundled_tileset_dir
    from afdesk.storage.tilesets import read_tileset

    tileset = read_tileset(path)
    for bundled in sorted(bundled_tileset_dir().glob("*.json")):
        if bundled.resolve() != path.resolve() and read_tileset(bundled).id == tileset.id:
            raise LoadError(
                path.name,
                f"id: {tileset.id!r} is already the id of the bundled tile set in "
                f"{bundled.name}; give this one another id",
            )


def check_file(path: str) -> str:
    """'' if ``path`` loads (migrations included), else the problem in words."""
    try:
        _load_any(path)
    except LoadError as exc:
        return exc.detail
    except Exception as exc:
        # load promises a LoadError; anything else is a bug in afdesk, reported for this
        # file while the check goes on with the next (a check never shows a traceback)
        return f"unexpected error: {type(exc).__name__}: {exc}"
    return ""


def _print(out: TextIO, text: str) -> None:
    try:
        out.write(text + "\n")
    except UnicodeEncodeError:  # a console that cannot show every character of a name
        out.write(text.encode("ascii", "backslashreplace").decode("ascii") + "\n")


def check_files(paths: Iterable[str], out: TextIO | None = None) -> int:
    """Print ``FILE: ok`` or ``FILE: problem`` for each file; 0 if all are fine, else 2."""
    out = sys.stdout if out is None else out
    status = 0
    for path in paths:
        problem = check_file(path)
        if problem:
            status = 2
        _print(out, f"{path}: {problem or 'ok'}")
    out.flush()
    return status
