"""The check dialog, one panel per part of a contested check (item 8).

``dialog`` composes the panels around the model's ``ContestFlow``: ``modifiers``
(modifiers and options), ``defense`` (the defense picker), ``dice`` (rolls and the
verdict), ``shifts`` (Shifts or Will, then Momentum) and ``extras`` (decoys).
"""

from afdesk.gui.dialogs.contest.dialog import ContestDialog

__all__ = ["ContestDialog"]
