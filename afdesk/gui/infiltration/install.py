"""The infiltration's parts of the GM's window: its layer on the map and its dock. Both
follow the window's document and show only while the encounter is an infiltration."""

from __future__ import annotations

from typing import NamedTuple

from afdesk.gui.follow import follow
from afdesk.gui.infiltration import panel
from afdesk.gui.infiltration.layer import InfiltrationLayer


class InfiltrationViews(NamedTuple):
    """What :func:`install` added (kept on the window's mode views)."""

    layer: InfiltrationLayer
    panel: panel.InfiltrationPanel


def install(window) -> InfiltrationViews:
    layer = InfiltrationLayer(window.map)
    follow(window, layer.set_document)
    return InfiltrationViews(layer, panel.install(window))
