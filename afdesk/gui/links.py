"""Signal connections a view made to one document (:class:`Links`), apart from
:mod:`afdesk.gui.document` so that the window's first frame makes them without importing
the model (:mod:`afdesk.gui.document` re-exports it)."""

from __future__ import annotations

import contextlib


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
