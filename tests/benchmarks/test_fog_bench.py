"""Revealing a fogged region on the players' screen repaints that region and no
more.

The map starts wholly fogged (the GM prepares the players' screen so), then the GM reveals
the segments one at a time. For each reveal the viewport's painted region must lie within
the revealed areas (plus the segment outline's 4 scene units and the 2 px QGraphicsView adds
around what changed, plus rounding) and the rectangles of what stands there (a token's
name plate). Timed against two floors measured in the same run: the same rectangle
repainted with nothing changed (warm caches), and the whole screen drawn afresh (every
item's cache dropped); a reveal must cost under half the whole screen. Run with
``pytest tests/benchmarks``.
"""

from __future__ import annotations

import statistics
import time

import pytest
from PySide6.QtCore import QEvent, QObject, QRectF
from PySide6.QtGui import QRegion
from PySide6.QtWidgets import QApplication

from afdesk.encounter.fog import Region, all_regions
from afdesk.encounter.ops.fog import SetFog
from afdesk.gui import mapgeom
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.tokens import DecoyItem, TokenItem
from afdesk.gui.map.view import MapView
from afdesk.storage import samples as sample

SIZE = (1920, 1080)


class PaintRegions(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.rects: list = []

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.rects.extend(event.region())
        return False


def bbox(areas) -> QRectF:
    rect = QRectF()
    for a in areas:
        rect = rect.united(QRectF(*mapgeom.area_rect(a)))
    return rect


@pytest.fixture(autouse=True)
def _quiet_journal(monkeypatch, tmp_path):
    monkeypatch.setenv("AFDESK_DATA_DIR", str(tmp_path))


def test_a_reveal_repaints_only_its_region(qapp, qtbot, benchmark):
    enc = sample.build()
    whole = tuple(a for t in enc.zone.tiles for a in t.areas())
    enc.apply(SetFog.of(Region("areas", "the whole zone", whole), True))
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    view = MapView(doc, player=True)
    qtbot.addWidget(view)
    view.resize(*SIZE)
    with qtbot.waitExposed(view):
        view.show()
    view.fit_to_zone()
    vp = view.viewport()
    vp.repaint()
    QApplication.processEvents()
    spy = PaintRegions()
    vp.installEventFilter(spy)
    segments = [r for r in all_regions(enc.zone) if r.kind == "segment"]
    reveal_times, floor_times, painted, region_px = [], [], [], []
    seen: set = set()
    for region in segments:
        fresh = [a for a in region.areas if a not in seen]
        if not fresh:
            continue
        seen.update(region.areas)
        # The region, its segment outline (4 scene units) and 2 px of antialiasing.
        box = view.mapFromScene(bbox(fresh).adjusted(-4, -4, 4, 4)).boundingRect()
        box = box.adjusted(-3, -3, 3, 3)
        spy.rects.clear()
        t = time.perf_counter()
        assert doc.push(SetFog.of(region, False)) == ""
        QApplication.processEvents()
        reveal_times.append(time.perf_counter() - t)
        assert spy.rects, region.name
        # What stands in the region may be drawn a little larger than its area (a
        # token's name plate): its own rectangle counts as the region's.
        allowed = [box] + [
            view.mapFromScene(i.sceneBoundingRect()).boundingRect().adjusted(-3, -3, 3, 3)
            for i in view.map_scene.items()
            if isinstance(i, (TokenItem, DecoyItem)) and i.area in region.areas
        ]
        within = QRegion()
        for a in allowed:
            within = within.united(a)
        for r in spy.rects:
            assert QRegion(r).subtracted(within).isEmpty(), (region.name, r, box)
        painted.append(sum(r.width() * r.height() for r in spy.rects))
        region_px.append(box.width() * box.height())
        # The floor: the same rectangle repainted, nothing changed.
        t = time.perf_counter()
        vp.update(box)
        QApplication.processEvents()
        floor_times.append(time.perf_counter() - t)
    # The whole screen drawn afresh (every item's cache dropped): what a reveal that
    # redrew everything would cost at least.
    full_times = []
    for _ in range(7):
        for item in view.map_scene.items():
            item.update()
        vp.update()
        t = time.perf_counter()
        QApplication.processEvents()
        full_times.append(time.perf_counter() - t)
    reveal, floor = statistics.median(reveal_times), statistics.median(floor_times)
    full = statistics.median(full_times)
    ratio = reveal / floor
    share = sum(painted) / (SIZE[0] * SIZE[1] * len(painted))
    benchmark.extra_info.update(
        reveals=len(reveal_times),
        reveal_ms=round(reveal * 1e3, 3),
        floor_ms=round(floor * 1e3, 3),
        ratio=round(ratio, 2),
        full_redraw_ms=round(full * 1e3, 3),
        ratio_to_full_redraw=round(reveal / full, 3),
        painted_share_of_screen=round(share, 4),
    )
    # The benchmark proper: the floor (a repaint of one region's rectangle).
    last = view.mapFromScene(bbox(segments[-1].areas)).boundingRect()
    benchmark(lambda: (vp.update(last), QApplication.processEvents()))
    print(
        f"\nreveal a segment (push + repaint), {len(reveal_times)} reveals: median "
        f"{reveal * 1e3:.2f} ms; floor (same rectangle repainted, nothing changed) "
        f"{floor * 1e3:.2f} ms; ratio {ratio:.2f}; painted on average "
        f"{share * 100:.2f}% of the 1920x1080 screen; the whole screen drawn afresh "
        f"{full * 1e3:.2f} ms (ratio {reveal / full:.2f})"
    )
    assert share < 0.05
    assert reveal < 0.5 * full
