"""The root of afdesk's own errors.

Every failure afdesk reports to a game master is an :class:`AfdeskError` with a message
the GM can read: a refused Op (``IllegalOp``), bad input to the rules engine
(``RulesError``), a file or tile set that cannot be read (``LoadError``), a save that
failed (``SaveError``, ``JournalError``). The GUI catches this one class where it shows
errors; anything else that escapes is a bug.

This module imports nothing, so every layer (rules at the bottom) may use it.
"""

from __future__ import annotations


class AfdeskError(Exception):
    """A failure with a message meant for the game master (``str(error)``)."""
