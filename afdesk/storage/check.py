"""``afdesk check FILE...``: load each file the way the app does and say what is wrong
(encounters, campaigns and character files)."""

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
    else:
        load(path)


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
