"""Where afdesk's files are: the bundled resources (the source tree, or the installed data
files) and the user's data folder (crash journals, the GM's own tile sets).

Only storage and the GUI find files through this module; the model never does
(import contracts in ``pyproject.toml``).
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path


@cache
def resource_dir() -> Path:
    """The folder holding encounters/, tilesets/, schema/ and icons/.

    A source checkout or an editable install uses ``resources/`` beside the package; a
    wheel install puts the same files under ``<prefix>/share/afdesk``; a frozen build
    (packaging/afdesk.spec) holds them in ``resources/`` of its bundle folder.
    """
    candidates = [*_frozen_candidates(), Path(__file__).resolve().parent.parent / "resources"]
    candidates += [
        Path(sys.prefix) / "share" / "afdesk",
        Path(sys.base_prefix) / "share" / "afdesk",
    ]
    for path in candidates:
        if (path / "tilesets").is_dir():
            return path
    return candidates[0]


def frozen() -> bool:
    """True in a frozen build (PyInstaller), where no Python installation is around."""
    return bool(getattr(sys, "frozen", False))


def _frozen_candidates() -> list[Path]:
    bundle = getattr(sys, "_MEIPASS", None)
    if not frozen() or not isinstance(bundle, str):
        return []
    return [Path(bundle) / "resources"]


def sample_encounter() -> Path:
    """The bundled encounter the app opens on first start."""
    return resource_dir() / "encounters" / "river-ford.afenc"


def chase_sample_encounter() -> Path:
    """The bundled chase sample: File > Open sample > Rooftop chase."""
    return resource_dir() / "encounters" / "rooftop-chase.afenc"


def manual_dir() -> Path:
    """The illustrated guide that Help > Manual shows (``index.html`` and its pictures)."""
    return resource_dir() / "manual"


def data_dir() -> Path:
    """afdesk's data folder: ``$AFDESK_DATA_DIR``, or the platform's user data folder."""
    override = os.environ.get("AFDESK_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("afdesk", appauthor=False))


def cache_dir() -> Path:
    """What afdesk keeps only to start sooner, never anything a GM made (it can be deleted
    at any time): ``<data folder>/cache`` with ``$AFDESK_DATA_DIR`` set (a portable setup,
    the tests), else the platform's user cache folder (``~/.cache/afdesk`` on Linux)."""
    if os.environ.get("AFDESK_DATA_DIR"):
        return data_dir() / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("afdesk", appauthor=False))


def bundled_tileset_dir() -> Path:
    """The tile sets that come with afdesk."""
    return resource_dir() / "tilesets"


def user_tileset_dir() -> Path:
    """Where a GM puts their own tile sets (``<data folder>/tilesets``), read after the
    bundled ones."""
    return data_dir() / "tilesets"


def encounters_dir() -> Path:
    """Where the GM's own encounters go: the folder a first Save, Export or Open dialog
    starts in (never the working directory afdesk was started from). ``Documents/afdesk``;
    with ``$AFDESK_DATA_DIR`` set (a portable setup, the tests) ``<data folder>/encounters``
    instead, so that nothing is written beside the user's own documents. Not created here."""
    if os.environ.get("AFDESK_DATA_DIR"):
        return data_dir() / "encounters"
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / "afdesk"
