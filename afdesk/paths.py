"""Where afdesk's bundled resources are: the source tree, or the installed data files."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


@cache
def resource_dir() -> Path:
    """The folder holding encounters/, tilesets/, schema/ and icons/.

    A source checkout or an editable install uses ``resources/`` beside the package; a
    wheel install puts the same files under ``<prefix>/share/afdesk``.
    """
    candidates = [
        Path(__file__).resolve().parent.parent / "resources",
        Path(sys.prefix) / "share" / "afdesk",
        Path(sys.base_prefix) / "share" / "afdesk",
    ]
    for path in candidates:
        if (path / "tilesets").is_dir():
            return path
    return candidates[0]


def sample_encounter() -> Path:
    """The bundled encounter the app opens on first start."""
    return resource_dir() / "encounters" / "river-ford.afenc"
