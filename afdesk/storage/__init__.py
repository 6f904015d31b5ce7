"""Encounter files: format, schema versions and migrations, atomic saves, the crash journal.

Pure Python, no Qt. The GUI uses::

    from afdesk.storage import LoadError, SaveError, load, save, encode, decode
    from afdesk.storage.journal import Journal, pending_journals, recover, discard
"""

import afdesk.msgspec_first  # noqa: F401 - before msgspec is imported (see there)
from afdesk.storage.atomic import clean_stale_temps
from afdesk.storage.codec import MAX_BYTES, decode, encode
from afdesk.storage.errors import FileChangedError, LoadError, SaveError
from afdesk.storage.files import EXTENSION, Loaded, load, save

__all__ = [
    "EXTENSION",
    "MAX_BYTES",
    "FileChangedError",
    "LoadError",
    "Loaded",
    "SaveError",
    "clean_stale_temps",
    "decode",
    "encode",
    "load",
    "save",
]
