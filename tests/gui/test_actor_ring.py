"""The actor's glow and ring come from a kept image: the same picture the five strokes
make at the token's place to a quarter pixel (to a few levels of 255 on anti-aliased
edges), drawn once for a radius, a zoom and such a place (E2: whose turn it is shows on
the map and on the players' screen)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtGui import QColor, QImage, QPainter

from afdesk.gui.map import actor_ring
from afdesk.gui.map.actor_ring import draw_strokes, paint_actor_ring

GROUND = QColor("#5a7d3a")


def _render(paint, x: float, y: float, scale: float, r: float, turn: float = 0.0) -> QImage:
    image = QImage(260, 260, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(GROUND)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.translate(x, y)
    painter.rotate(turn)
    painter.scale(scale, scale)
    paint(painter, r)
    painter.end()
    return image


def _largest_difference(a: QImage, b: QImage) -> int:
    worst = 0
    for y in range(a.height()):
        for x in range(a.width()):
            pa, pb = a.pixel(x, y), b.pixel(x, y)
            worst = max(worst, *(abs((pa >> s & 255) - (pb >> s & 255)) for s in (0, 8, 16, 24)))
    return worst


@pytest.fixture(autouse=True)
def _fresh():
    actor_ring.forget()
    yield
    actor_ring.forget()


def _quarter(v: float) -> float:
    return round(v * 4) / 4


def test_the_kept_image_is_the_picture_the_strokes_make(qapp):
    """The picture the strokes make at the token's place to a quarter pixel (an eighth of
    a pixel at most from it)."""
    rng = random.Random(7)
    for _ in range(6):
        x, y = 130 + rng.random(), 130 + rng.random()
        scale, r = rng.choice((0.6, 1.0, 1.37, 2.0)), rng.choice((15.0, 23.04, 30.0))
        qx, qy = _quarter(x), _quarter(y)
        assert abs(qx - x) <= 1 / 8 and abs(qy - y) <= 1 / 8
        direct = _render(draw_strokes, qx, qy, scale, r)
        kept = _render(paint_actor_ring, x, y, scale, r)
        assert direct != _render(draw_strokes, qx, qy, scale, r + 1)  # the picture tells
        assert _largest_difference(direct, kept) <= 8, (x, y, scale, r)


def test_tokens_at_any_places_share_sixteen_images(qapp, monkeypatch):
    """A long roster brings a token at a new place each turn: the ring's images are
    drawn at a quarter pixel's places, at most 16 for a radius at a zoom, then kept."""
    drawn = []
    real = actor_ring.draw_strokes
    monkeypatch.setattr(actor_ring, "draw_strokes", lambda p, r: (drawn.append(r), real(p, r)))
    rng = random.Random(3)
    for _ in range(120):
        _render(paint_actor_ring, 120 + rng.random() * 20, 120 + rng.random() * 20, 1.37, 23.04)
    assert len(drawn) == len(actor_ring._images) <= 16
    assert len(drawn) >= 12  # the places do differ


def test_a_turned_painter_draws_the_strokes(qapp):
    direct = _render(draw_strokes, 130.3, 129.6, 1.2, 23.04, turn=30)
    assert _render(paint_actor_ring, 130.3, 129.6, 1.2, 23.04, turn=30) == direct
    assert not actor_ring._images


def test_the_image_is_drawn_once_for_a_place(qapp, monkeypatch):
    drawn = []
    monkeypatch.setattr(actor_ring, "draw_strokes", lambda p, r: drawn.append(r))
    for _ in range(5):
        _render(paint_actor_ring, 120.25, 121.5, 1.5, 23.04)
    assert drawn == [23.04]
    _render(paint_actor_ring, 120.75, 121.5, 1.5, 23.04)  # another place: drawn there
    _render(paint_actor_ring, 120.25, 121.5, 2.0, 23.04)  # another zoom
    assert len(drawn) == 3
    for n in range(actor_ring.KEPT + 5):  # a zoom dragged: the images kept stay bounded
        _render(paint_actor_ring, 120.25, 121.5, 1.0 + n / 100, 23.04)
    assert len(actor_ring._images) <= actor_ring.KEPT


def test_what_an_image_would_change_draws_the_strokes(qapp):
    """A partial opacity (each stroke blends at it), a recorded picture (vectors stay
    vectors) and a zoom so close that the image would be large draw the strokes."""
    from PySide6.QtGui import QPicture

    def faded(painter, r):
        painter.setOpacity(0.55)
        paint_actor_ring(painter, r)

    def strokes_faded(painter, r):
        painter.setOpacity(0.55)
        draw_strokes(painter, r)

    assert _render(faded, 130.3, 129.6, 1.2, 23.04) == _render(
        strokes_faded, 130.3, 129.6, 1.2, 23.04
    )
    picture = QPicture()
    painter = QPainter(picture)
    paint_actor_ring(painter, 23.04)
    painter.end()
    assert not actor_ring._images  # recorded as strokes
    close = _render(paint_actor_ring, 130.0, 130.0, 9.0, 23.04)  # close in: no image kept
    assert close == _render(draw_strokes, 130.0, 130.0, 9.0, 23.04)
    assert not actor_ring._images


def test_the_images_kept_stay_within_their_bytes(qapp, monkeypatch):
    monkeypatch.setattr(actor_ring, "BYTES_KEPT", 300_000)
    for n in range(30):
        _render(paint_actor_ring, 120.25, 121.5, 1.0 + n / 30, 23.04)
    assert sum(image.sizeInBytes() for image, _ in actor_ring._images.values()) <= 300_000
    assert len(actor_ring._images) > 1
    assert actor_ring._held[0] == sum(i.sizeInBytes() for i, _ in actor_ring._images.values())
