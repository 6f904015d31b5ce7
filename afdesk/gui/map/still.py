"""A still document: what a :class:`~afdesk.gui.map.scene.MapScene` follows when it draws one
picture of an encounter that does not change meanwhile (``afdesk export-png``, File > Export
map image, campaign thumbnails)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class StillDocument(QObject):
    """The encounter, no selection, and the signals of
    :class:`~afdesk.gui.document.EncounterDocument` that a map scene connects to, never
    emitted. No undo history, undo stack or journal: a picture needs none, and the export
    loads none of them (tests/gui/test_export.py checks that both draw the same map)."""

    fogChanged = Signal()
    combatantChanged = Signal(str)
    rosterChanged = Signal()
    zoneChanged = Signal()
    artChanged = Signal()
    turnChanged = Signal()
    metaChanged = Signal()
    modeChanged = Signal()
    selectionChanged = Signal(str)

    def __init__(self, encounter) -> None:
        super().__init__()
        self.encounter = encounter
        self.selected = ""
