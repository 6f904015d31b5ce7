"""The current actor's glow and ring around its token, drawn once per size.

The glow is three wide translucent circles and the ring two more: five antialiased strokes
of a 7-pixel pen, most of the cost of a token's paint and a twentieth of a GM action's (the
token whose turn came repaints in the GM's view and on the players' screen at every turn).
They look the same for every token of a radius at a zoom: they are drawn once into an
image, in device pixels, and the image is put down where the token is. A painter that
rotates or shears, one at a partial opacity, one that records vectors (a picture, a PDF)
and a zoom so close that the image would be large draw the strokes as before.

The image is drawn at the token's place to a quarter of a device pixel and put down on
whole pixels, so that it is the picture the strokes would have made there (to a level or
two of 255 on the edges; the ring is at most an eighth of a pixel from the disc's centre,
which no eye sees): translucent strokes laid over one another and then over the map make
the colours they make laid one by one over it. Sixteen places a pixel, not more: with a
long roster each turn brings a token at a new place, and an image per place to a 64th of a
pixel was drawn for each and never used again (a turn at 200 characters paid the strokes
and the image both).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from afdesk.gui import style

KEPT = 64
"""Images kept (the radii, zooms and places to a quarter pixel in use: at most 16 places
for a radius at a zoom, in each view); more are drawn again."""
BYTES_KEPT = 16 * 1024 * 1024
"""The most the kept images hold (the oldest go first)."""
LARGEST = 384
"""The widest image kept, in device pixels: closer in, the strokes are drawn (a zoom
dragged to the nearest makes a new image at every frame, each larger than the strokes'
cost)."""
PLACES = 4
"""The places an image is drawn at, per device pixel each way (a quarter pixel apart)."""

_images: dict[tuple, tuple] = {}  # (QImage, half its side)
_held = [0]


def forget() -> None:
    """Let every kept image go."""
    _images.clear()
    _held[0] = 0


def draw_strokes(painter: QPainter, r: float) -> None:
    """The glow and the ring around a disc of radius ``r`` centred on the origin."""
    glow = QColor(style.ACTOR)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for extra, alpha in ((14, 40), (10, 80), (6, 140)):
        glow.setAlpha(alpha)
        painter.setPen(QPen(glow, 7))
        painter.drawEllipse(QPointF(0, 0), r + extra, r + extra)
    painter.setPen(QPen(QColor("#000000"), max(7.0, r * 0.26)))
    painter.drawEllipse(QPointF(0, 0), r + 4, r + 4)
    painter.setPen(QPen(style.ACTOR, max(5.0, r * 0.2)))
    painter.drawEllipse(QPointF(0, 0), r + 4, r + 4)


def paint_actor_ring(painter: QPainter, r: float) -> None:
    """:func:`draw_strokes` around the painter's origin, from a kept image when the
    painter only scales (alike both ways) and moves."""
    # here, not at the top: the start makes the window whole before a token is painted,
    # and these types cost it their enums
    from PySide6.QtGui import QImage, QPixmap

    t = painter.deviceTransform()
    scale = t.m11()
    # the widest stroke: the outer glow's 7-pixel pen, and a pixel of anti-aliasing
    half = math.ceil((r + 14 + 3.5 + max(0.0, r * 0.26 - 7)) * scale) + 2
    if (
        t.m12()
        or t.m21()
        or t.m13()
        or t.m23()
        or scale <= 0
        or abs(t.m22() - scale) > 1e-9
        or 2 * half > LARGEST
        or painter.opacity() != 1.0  # the strokes each blend at it, not once together
        or painter.compositionMode() != QPainter.CompositionMode.CompositionMode_SourceOver
        # a picture, a PDF, a printer: vectors stay vectors (asked of the device: the
        # paint engine's type would cost the start its enums)
        or not isinstance(painter.device(), (QWidget, QImage, QPixmap))
    ):
        draw_strokes(painter, r)
        return
    device = painter.device()
    dpr = device.devicePixelRatio() if device is not None else 1.0
    # to a quarter pixel: every token of a radius at a zoom comes to one of 16 images
    qx, qy = round(t.dx() * PLACES) / PLACES, round(t.dy() * PLACES) / PLACES
    x, y = math.floor(qx), math.floor(qy)
    fx, fy = qx - x, qy - y
    key = (r, round(scale, 6), fx, fy, dpr)
    kept = _images.get(key)
    if kept is None:
        image = QImage(2 * half, 2 * half, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.translate(half + fx, half + fy)
        p.scale(scale, scale)
        draw_strokes(p, r)
        p.end()
        # one image pixel on one device pixel; set once: a kept image never changes (the
        # campaign's thumbnails paint scenes on other threads)
        image.setDevicePixelRatio(dpr)
        _images[key] = kept = (image, half)
        _held[0] += image.sizeInBytes()
        while len(_images) > 1 and (len(_images) > KEPT or _held[0] > BYTES_KEPT):
            old, _ = _images.pop(next(iter(_images)))
            _held[0] -= old.sizeInBytes()
    image, half = kept
    painter.save()
    painter.resetTransform()
    painter.drawImage(QPointF((x - half) / dpr, (y - half) / dpr), image)
    painter.restore()
