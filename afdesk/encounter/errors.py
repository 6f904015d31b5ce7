"""Errors of the encounter model."""

from afdesk.errors import AfdeskError


class IllegalOp(AfdeskError, ValueError):
    """An Op the rules (or the encounter's state) do not allow; the message says why in
    words a GM understands. A refused Op changes nothing.

    Also a ``ValueError``, as it was before the common root, so existing handlers work.
    """
