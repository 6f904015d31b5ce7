"""The current actor's glow and ring around its token, drawn once per size.

The glow is three wide translucent circles and the ring two more: five antialiased strokes
of a 7-pixel pen, most of the cost of a token's paint and a tenth of a GM action's (the
token whose turn came and the one whose turn ended repaint in the GM's view and on the
players' screen at every turn). They look the same for every token of a radius at a zoom:
they are drawn once into an image, in device pixels, and the image is put down where the
token is. A painter that rotates or shears draws them as before.

The image is drawn at the token's place to a 64th of a device pixel and put down on whole
pixels, so that it is the picture the strokes would have made there (to a level or two of
255 on the edges): translucent strokes laid over one another and then over the map make
the colours they make laid one by one over it.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen

from afdesk.gui import style

KEPT = 64
"""Images kept (the radii, zooms and places to a 64th of a pixel in use: a few for each
token whose turn it was, in each view); more are drawn again."""

_images: dict[tuple[float, float, float, float], tuple[QImage, int]] = {}


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
    t = painter.deviceTransform()
    scale = t.m11()
    if t.m12() or t.m21() or t.m13() or t.m23() or scale <= 0 or abs(t.m22() - scale) > 1e-9:
        draw_strokes(painter, r)
        return
    x, y = math.floor(t.dx()), math.floor(t.dy())
    fx, fy = round((t.dx() - x) * 64) / 64, round((t.dy() - y) * 64) / 64
    key = (r, round(scale, 6), fx, fy)
    kept = _images.get(key)
    if kept is None:
        # the widest stroke: the outer glow's 7-pixel pen, and a pixel of anti-aliasing
        half = math.ceil((r + 14 + 3.5 + max(0.0, r * 0.26 - 7)) * scale) + 2
        image = QImage(2 * half, 2 * half, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.translate(half + fx, half + fy)
        p.scale(scale, scale)
        draw_strokes(p, r)
        p.end()
        if len(_images) >= KEPT:
            _images.clear()
        kept = _images[key] = (image, half)
    image, half = kept
    dpr = painter.device().devicePixelRatio() if painter.device() is not None else 1.0
    image.setDevicePixelRatio(dpr)  # one image pixel on one device pixel
    painter.save()
    painter.resetTransform()
    painter.drawImage(QPointF((x - half) / dpr, (y - half) / dpr), image)
    painter.restore()
