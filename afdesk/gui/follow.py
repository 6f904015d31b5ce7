"""The one way a view follows the document a window shows.

A window shows one encounter document at a time (File > Open, New, a sample, recovery, the
campaign's Run: all through ``MainWindow.set_document``). Every view that shows that
document (the map, the docks' panels, the modes' boards and layers, the players' window,
the decisions bar) asks once, when it is made::

    follow(window, panel.set_document)

and is handed the document shown now, if there is one, and every document shown after, in
the order the views asked. A view made late (a dock behind a tab, a board first shown in
the third hour) is therefore never out of date, and nothing else calls its
``set_document``: a view made of parts (a mode's boards, the editor's docks) hands its
parts its own document. A view that only reacts to a switch (the start page hides, a dialog of
the old document closes) asks with ``now=False``.

Inside ``set_document`` a view connects to the document's own signals through a
:class:`Links` (below), cleared when the next document comes, so that an old
document never drives a view of the new one.

``slot`` should be a method of a QObject (a widget): Qt drops the connection when that
object is destroyed, so a closed view stops following by itself.

``tests/gui/test_follow.py`` checks that no module connects ``documentChanged`` or hands a
view the window's document any other way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any


def follow(window: Any, slot: Callable[[Any], object], *, now: bool = True) -> None:
    """``slot(doc)`` for the document ``window`` shows now (unless ``now`` is False or none
    is shown) and for every document it shows after (see the module)."""
    window.documentChanged.connect(slot)
    if now and window.doc is not None:
        slot(window.doc)


class Links:
    """Signal connections a view made to one document, undone together when it shows
    another (so an old document never drives the new one's views)."""

    def __init__(self) -> None:
        self._links: list[tuple[object, object]] = []

    def connect(self, signal, slot) -> None:
        signal.connect(slot)
        self._links.append((signal, slot))

    def clear(self) -> None:
        for signal, slot in self._links:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)
        self._links = []
