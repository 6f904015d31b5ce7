"""Schema versions of the encounter file and the chain of migrations between them.

A file written by an older afdesk is upgraded on load, one version at a time, by pure
functions on the parsed JSON document: ``migrate_1_to_2(doc) -> doc`` and so on. Adding a
version is one function plus one entry in :data:`MIGRATIONS` (and ``CURRENT_VERSION`` up by
one, and a fixture file of the new version under ``tests/storage/fixtures/``); see
:func:`migrate_1_to_2`.

The versions:

1. The first format.
2. The zone keeps a copy of the tile kinds it draws new tiles from (``zone.kinds``), so
   that extending it never depends on which tile sets are installed.
3. The chase's part (``chase``).
4. A countdown chase records whether its die was rolled this round
   (``chase.countdown.rolled``, H4: one roll a round).
5. The dispute's and the infiltration's parts (``dispute``, P1-P9; ``infiltration``,
   N1-N8).
6. Map art: the GM's own pictures under the tiles (``art``, E9), each picture's bytes
   (base64) with its type and size.

Changing a *default* value of a model field is a schema change too: files omit fields that
hold their default, so a migration must write the old default into documents that lack it.

Other modules read ``migrations.CURRENT_VERSION`` and ``migrations.MIGRATIONS`` at call
time (never ``from ... import``), so tests can inject a migration by monkeypatching them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from afdesk.errors import AfdeskError

FORMAT = "afdesk-encounter"
"""The ``format`` field every encounter file starts with."""

CURRENT_VERSION = 6
"""The schema version this afdesk writes."""

Document = dict[str, Any]
"""A parsed encounter file without its ``format`` and ``schema_version`` header."""

Migration = Callable[[Document], Document]


def migrate_1_to_2(doc: Document) -> Document:
    """Copy the kinds of the zone's tile set into the zone (``zone.kinds``).

    A version-1 zone drew new tiles from the installed tile set its ``tileset`` names, so
    that set's kinds are what it meant. If no such tile set is installed the zone gets no
    kinds, and extending it is refused, as it was in version 1.
    """
    zone = doc.get("zone")
    if not isinstance(zone, dict) or "kinds" in zone:
        return doc  # the validation after the upgrade names what is wrong
    from afdesk.storage.tilesets import catalog

    name = zone.get("tileset")
    tileset = catalog().sets.get(name) if isinstance(name, str) else None
    kinds = msgspec.to_builtins(tileset.kinds) if tileset is not None else []
    return {**doc, "zone": {**zone, "kinds": kinds}}


def migrate_2_to_3(doc: Document) -> Document:
    """Nothing to rewrite: a version-2 encounter has no chase part, and a missing ``chase``
    is the empty chase (its default), so the file opens unchanged. A version-2 file holding
    a ``chase`` key is not one this afdesk wrote; the validation after the upgrade judges it.
    """
    return doc


def migrate_3_to_4(doc: Document) -> Document:
    """Nothing to rewrite: a version-3 countdown has no ``rolled`` and its default (not
    rolled this round) is right for it: a version-3 afdesk let the die be rolled any time,
    so the round the file was saved in may roll it once more."""
    return doc


def migrate_4_to_5(doc: Document) -> Document:
    """Nothing to rewrite: a version-4 encounter has no dispute or infiltration part, and
    a missing one is the empty part (its default: no platforms, no roles), so the file
    opens unchanged and plays as before (P1, N1). A version-4 file holding a ``dispute`` or
    ``infiltration`` key is not one this afdesk wrote; the validation after the upgrade
    judges it."""
    return doc


def migrate_5_to_6(doc: Document) -> Document:
    """Nothing to rewrite: a version-5 encounter has no map art, and a missing ``art`` is
    no art (its default), so the file opens unchanged and draws its tiles as before. A
    version-5 file holding an ``art`` key is not one this afdesk wrote; the validation
    after the upgrade judges it."""
    return doc


MIGRATIONS: dict[int, Migration] = {
    1: migrate_1_to_2,
    2: migrate_2_to_3,
    3: migrate_3_to_4,
    4: migrate_4_to_5,
    5: migrate_5_to_6,
}
"""``MIGRATIONS[n]`` turns a version-n document into a version-(n + 1) one."""


def migrate_campaign_1_to_2(doc: Document) -> Document:
    """Campaign files (``campaign.afcamp``, :mod:`afdesk.storage.campaign`) version 1 to 2.

    Version 2 holds one character sheet for the roster and the encounter: a roster entry
    may hold ``attacks`` (weapons, E6, E12), and a run keeps the linked characters as it took
    them (``at_run``, ``referee_at_run``) so carry-over proposes only what changed during
    it (R10). Nothing to rewrite: a version-1 entry has no attacks (the default, none), and
    a run without ``at_run`` is compared with the roster, as version 1 did.
    """
    return doc


class MigrationError(AfdeskError):
    """A migration step is missing or failed (the caller turns it into a LoadError)."""


def migrate(doc: Document, version: int) -> Document:
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
