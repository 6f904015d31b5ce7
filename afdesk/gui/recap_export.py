"""File > Export recap: the GUI's part of the session recap (:mod:`afdesk.storage.recap`
builds the page). It finds the starting encounter (the undo history's first state), renders
the map at the start of each round through :func:`afdesk.gui.export.render_map` and hands
the PNG bytes to the page, which :func:`~afdesk.storage.recap.write_recap` writes
atomically."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QIODevice

from afdesk.encounter.model import Encounter
from afdesk.storage.recap import RecapError, recap_html, round_starts, starting_state

PICTURE_SIZE = (960, 540)
"""Each round's map picture, in pixels (a page's width; the legend stays readable)."""


def png_bytes(image) -> bytes:
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RecapError("a map picture could not be made")
    return bytes(buffer.data())


def build(doc, *, players: bool, size: tuple[int, int] = PICTURE_SIZE) -> str:
    """The recap page of the document's encounter (see :mod:`afdesk.storage.recap`)."""
    from afdesk.gui.export import render_map

    now = doc.encounter.state()
    if not now.log:
        raise RecapError("the encounter's log is empty: nothing has been played to recap yet")
    history = doc.history
    start = starting_state(now, history.steps[: history.index])
    moments, problem = round_starts(start, now.log)
    pictures = [
        png_bytes(render_map(Encounter.from_state(m.state), size, player=players)) for m in moments
    ]
    return recap_html(now, moments, pictures, players=players, problem=problem)
