"""The file format's identity, for callers that only need the names: the ``format`` string,
the current schema version and the extension."""

from __future__ import annotations

from afdesk.storage import migrations
from afdesk.storage.files import EXTENSION

FORMAT = migrations.FORMAT

__all__ = ["EXTENSION", "FORMAT", "SCHEMA_VERSION"]  # noqa: F822 - SCHEMA_VERSION by __getattr__


def __getattr__(name: str) -> int:
    # Read at each use, so that it follows migrations.CURRENT_VERSION (tests change it).
    if name == "SCHEMA_VERSION":
        return migrations.CURRENT_VERSION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
