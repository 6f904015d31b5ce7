"""Errors of the rules engine."""

from afdesk.errors import AfdeskError


class RulesError(AfdeskError, ValueError):
    """Bad input to the rules engine: the message says what is wrong.

    Also a ``ValueError``, as it was before the common root, so existing handlers work.
    """
