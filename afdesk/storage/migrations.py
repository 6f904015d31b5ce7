"""Schema versions of the encounter file and the chain of migrations between them.

A file written by an older afdesk is upgraded on load, one version at a time, by pure
functions on the parsed JSON document: ``migrate_1_to_2(doc) -> doc`` and so on. Adding a
version is one function plus one entry in :data:`MIGRATIONS` (and ``CURRENT_VERSION`` up by
one, and a fixture file of the old version under ``tests/storage/fixtures/``)::

    def migrate_1_to_2(doc: dict) -> dict:
        # version 2 keeps the pursuit-die colour under "chase"
        doc["chase"] = {"bad_colour": doc["settings"].pop("bad_pursuit_colour", "blue")}
        return doc

    MIGRATIONS = {1: migrate_1_to_2}

Changing a *default* value of a model field is a schema change too: files omit fields that
hold their default, so a migration must write the old default into documents that lack it.

Other modules read ``migrations.CURRENT_VERSION`` and ``migrations.MIGRATIONS`` at call
time (never ``from ... import``), so tests can inject a migration by monkeypatching them.
"""

from __future__ import annotations

from collections.abc import Callable

from afdesk.errors import AfdeskError

FORMAT = "afdesk-encounter"
"""The ``format`` field every encounter file starts with."""

CURRENT_VERSION = 1
"""The schema version this afdesk writes."""

Migration = Callable[[dict], dict]

MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` turns a version-n document into a version-(n + 1) one."""


class MigrationError(AfdeskError):
    """A migration step is missing or failed (the caller turns it into a LoadError)."""


def migrate(doc: dict, version: int) -> dict:
    """Upgrade a parsed document from ``version`` to :data:`CURRENT_VERSION`.

    Each step gets the document of its version (without the ``format`` and
    ``schema_version`` header) and returns the next version's document.
    """
    for v in range(version, CURRENT_VERSION):
        step = MIGRATIONS.get(v)
        if step is None:
            raise MigrationError(f"this afdesk cannot upgrade files from version {v} to {v + 1}")
        try:
            doc = step(doc)
        except (LookupError, TypeError, ValueError, AttributeError) as exc:
            # a broken old file (a field missing, or of another type) trips a step
            raise MigrationError(
                f"upgrading from version {v} to {v + 1} failed: {type(exc).__name__}: {exc}"
            ) from exc
        if not isinstance(doc, dict):
            raise MigrationError(f"upgrading from version {v} to {v + 1} gave no document")
    return doc
