"""The one way the GUI changes an encounter: :func:`push` applies Ops as one undo step
and says a refusal where the GM is looking, beside the control used (a label in a dialog
or a panel, the map beside the selected character): a refusal goes to whoever pushed, not
to every view. Every widget that changes an encounter pushes through it;
:class:`~afdesk.gui.context.CommandContext` (which also says it in the status bar) and the
map view's ``push`` are this call with their own place to say it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Union

from PySide6.QtWidgets import QLabel

from afdesk.encounter.op import Op

if TYPE_CHECKING:
    from afdesk.gui.document import EncounterDocument

Beside = Union[QLabel, Callable[[str], object], None]  # noqa: UP007 - a runtime alias
"""Where a refusal shows beside the control: a label (its text, cleared when the change
is made) or a function given the reason ("" when made)."""

NO_ENCOUNTER = "No encounter is open."


def push(
    doc: EncounterDocument | None,
    ops: Op | Sequence[Op],
    *,
    beside: Beside = None,
    text: str | None = None,
    merge_key: str | None = None,
) -> bool:
    """Apply ``ops`` to ``doc`` as one undo step, all or nothing (``merge_key``: one Op,
    merged with the step before if it has the same key). A refusal is said beside the
    control (``beside``), and changes nothing. True if applied."""
    ops = [ops] if isinstance(ops, Op) else list(ops)
    if merge_key is not None and len(ops) != 1:
        raise ValueError("a merged push is one Op")
    if doc is None:
        reason = NO_ENCOUNTER
    else:
        reason = doc.push_many(ops, text, merge_key=merge_key)
    say(beside, reason)
    return not reason


def say(beside: Beside, reason: str) -> None:
    """Show ``reason`` beside the control ("" clears it)."""
    if isinstance(beside, QLabel):
        beside.setText(reason)
    elif beside is not None:
        beside(reason)
