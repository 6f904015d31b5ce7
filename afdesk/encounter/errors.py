"""Errors of the encounter model."""


class IllegalOp(ValueError):
    """An Op the rules (or the encounter's state) do not allow; the message says why in
    words a GM understands. A refused Op changes nothing."""
