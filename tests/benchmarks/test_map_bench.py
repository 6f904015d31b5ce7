"""Map speed, against a bare QGraphicsScene with the same number of plain items,
measured in the same run.

Targets: a full render of the 1920x1080 map with 100 tokens at most 1.2x the bare scene;
moving one token and repainting at most 1 ms; 1,000 tokens under 16 ms a frame.
Run with ``pytest tests/benchmarks``.
"""

from __future__ import annotations

import random
import statistics
import time

import pytest
from PySide6.QtCore import QEvent, QObject, QRectF
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsEllipseItem,
    QGraphicsRectItem,
    QGraphicsScene,
)

from afdesk.encounter.combatant import Combatant, Side, State, StateKind
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AddCombatant, PlaceCombatant
from afdesk.encounter.zone import grid_zone
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.scene import MapScene
from afdesk.gui.map.tokens import DecoyItem, TokenItem
from afdesk.gui.map.view import MapView
from afdesk.storage import samples as sample
from afdesk.storage.tilesets import tileset

SIZE = (1920, 1080)
SIDES = (Side.OPPONENT, Side.FOLLOWER, Side.OPPONENT, Side.DENIZEN)
"""Extras act in a few groups (E2): a band member each would need a hand of its own."""


def crowd(enc: Encounter, n: int, seed: int = 7) -> Encounter:
    """``n`` characters on distinct areas of ``enc``'s zone, some with states and markers."""
    rng = random.Random(seed)
    c0, r0, c1, r1 = enc.zone.area_bounds()
    areas = [(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]
    taken = {c.area for c in enc.roster() if c.area}
    free = [a for a in areas if a not in taken]
    rng.shuffle(free)
    for i in range(n):
        states = ()
        if i % 7 == 0:
            states = (State(StateKind.BLEEDING, 2),)
        elif i % 11 == 0:
            states = (State(StateKind.PREPARED),)
        c = Combatant(
            f"x{i}",
            f"Extra {i}",
            SIDES[i % 4],
            group="Extras",
            area=free[i],
            facing=rng.choice((0.0, 45.0, 135.0, 200.0, 290.0)),
            states=states,
        )
        enc.apply(AddCombatant(c))
    return enc


def hundred() -> Encounter:
    """The sample (8 characters) and 92 more: 100 tokens on the 3 x 3 zone, in turns."""
    enc = crowd(sample.build(), 92)
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    return enc


def thousand() -> Encounter:
    """1,000 characters on a 7 x 7 tile zone (35 x 35 areas)."""
    ts = tileset("wilderness")
    rng = random.Random(3)
    layout = [[rng.choice(ts.kinds).id for _ in range(7)] for _ in range(7)]
    return crowd(Encounter(zone=grid_zone(ts, layout)), 1000)


def doc_of(enc: Encounter) -> EncounterDocument:
    return EncounterDocument(enc, journal_factory=lambda d: None)


def bare_twin(scene: MapScene) -> QGraphicsScene:
    """A bare scene with one plain item for every visible item of ``scene``, in the same
    place: ellipses for tokens and decoys, rectangles for everything else."""
    bare = QGraphicsScene()
    bare.setBackgroundBrush(scene.backgroundBrush())
    rng = random.Random(1)
    for item in scene.items():
        if not item.isVisible():
            continue
        colour = QColor.fromHsv(rng.randrange(360), 160, 200)
        if isinstance(item, (TokenItem, DecoyItem)):
            r = item.radius
            plain = QGraphicsEllipseItem(QRectF(-r, -r, 2 * r, 2 * r))
            plain.setPos(item.pos())
        else:
            plain = QGraphicsRectItem(item.sceneBoundingRect())
        plain.setBrush(QBrush(colour))
        plain.setPen(QPen(QColor("#000000"), 2))
        plain.setZValue(item.zValue())
        bare.addItem(plain)
    return bare


def visible_items(scene: QGraphicsScene) -> int:
    return sum(1 for i in scene.items() if i.isVisible())


def render(scene: QGraphicsScene, source: QRectF, image: QImage) -> None:
    image.fill(QColor("#000000"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    scene.render(painter, QRectF(image.rect()), source)
    painter.end()


def median_time(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def test_full_render_100_tokens_against_a_bare_scene(qapp, benchmark):
    doc = doc_of(hundred())
    ours = MapScene(doc)
    assert len(ours.tokens) == 100
    bare = bare_twin(ours)
    assert visible_items(bare) == visible_items(ours)
    source = ours.map_rect()
    image = QImage(*SIZE, QImage.Format.Format_ARGB32_Premultiplied)
    t = time.perf_counter()
    render(ours, source, image)  # the first render fills the item caches
    cold = time.perf_counter() - t
    render(bare, source, image)
    # Interleaved, so that both see the same machine load.
    ours_times, bare_times = [], []
    for _ in range(40):
        bare_times.append(median_time(lambda: render(bare, source, image), 1))
        ours_times.append(median_time(lambda: render(ours, source, image), 1))
    ours_t, bare_t = statistics.median(ours_times), statistics.median(bare_times)
    ratio = ours_t / bare_t
    benchmark.extra_info.update(
        items=visible_items(ours),
        bare_ms=round(bare_t * 1e3, 3),
        ours_ms=round(ours_t * 1e3, 3),
        ours_first_render_ms=round(cold * 1e3, 3),
        ratio=round(ratio, 3),
    )
    benchmark(render, ours, source, image)
    print(
        f"\nfull render 1920x1080, {visible_items(ours)} items: bare {bare_t * 1e3:.2f} ms, "
        f"map {ours_t * 1e3:.2f} ms (first, filling caches: {cold * 1e3:.1f} ms), "
        f"ratio {ratio:.2f}"
    )
    assert ratio <= 1.2


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def test_move_one_token_and_repaint(qapp, qtbot, benchmark):
    doc = doc_of(hundred())
    view = MapView(doc)
    qtbot.addWidget(view)
    view.resize(*SIZE)
    with qtbot.waitExposed(view):
        view.show()
    QApplication.processEvents()
    counter = PaintCounter()
    view.viewport().installEventFilter(counter)
    enc = doc.encounter
    occupied = {c.area for c in enc.roster()}
    spots = [a for a in ((0, 7), (1, 7), (2, 7), (3, 7), (4, 7)) if a not in occupied][:2]
    assert len(spots) == 2
    step = [0]

    def move_and_repaint():
        step[0] ^= 1
        doc.push(PlaceCombatant("x5", spots[step[0]]))  # one undo step, as a GM drag
        QApplication.processEvents()

    move_and_repaint()
    assert view.map_scene.tokens["x5"].area == spots[step[0]]
    before = counter.paints
    benchmark(move_and_repaint)
    rounds = benchmark.stats.stats.rounds
    assert counter.paints - before >= rounds  # every move was painted
    median = benchmark.stats.stats.median
    print(f"\nmove one token + repaint (100 tokens, 1920x1080 view): {median * 1e3:.3f} ms")
    assert median < 0.001


def test_frame_with_1000_tokens(qapp, qtbot, benchmark):
    doc = doc_of(thousand())
    view = MapView(doc)
    qtbot.addWidget(view)
    view.resize(*SIZE)
    with qtbot.waitExposed(view):
        view.show()
    assert len(view.map_scene.tokens) == 1000
    counter = PaintCounter()
    view.viewport().installEventFilter(counter)
    view.viewport().repaint()  # fill the caches
    assert counter.paints == 1

    def frame():
        view.viewport().repaint()

    benchmark(frame)
    median = benchmark.stats.stats.median
    print(f"\nfull frame, 1,000 tokens, 1920x1080 view: {median * 1e3:.2f} ms")
    assert median < 0.016


@pytest.fixture(autouse=True)
def _quiet_journal(monkeypatch, tmp_path):
    monkeypatch.setenv("AFDESK_DATA_DIR", str(tmp_path))
