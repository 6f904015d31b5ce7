"""Tokens on the map: distinct short labels (afdesk.encounter.labels) and a label that
stays readable when a shared area shrinks the discs at the fitted zoom."""

from __future__ import annotations

import msgspec
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from afdesk.encounter.ops.roster import EditCombatant
from afdesk.gui.map.scene import MapScene
from afdesk.gui.map.tokens import MIN_LABEL_PX, paint_label_plate
from tests.gui.test_map_items import bare, foe, hero


def test_two_characters_never_share_initials_on_the_map(qapp):
    doc = bare(
        hero("silk", (2, 2), name="Silk Whisper"),
        hero("wen", (2, 2), name="Scholar Wen"),
        foe(),
    )
    scene = MapScene(doc)
    texts = {cid: scene.tokens[cid]._text for cid in ("silk", "wen", "orc")}
    assert texts == {"silk": "SWh", "wen": "SWe", "orc": "Or"}
    # A rename ends the clash: the other token goes back to its initials too.
    wen = doc.encounter.combatants["wen"]
    assert doc.push(EditCombatant(msgspec.structs.replace(wen, name="Gao Wen"))) == ""
    assert scene.tokens["silk"]._text == "SW" and scene.tokens["wen"]._text == "GW"
    # The players' screen draws the same labels (the token drawing is shared).
    player = MapScene(doc, player=True)
    assert player.tokens["silk"]._text == "SW"


def _plate_size(scale: float, text: str = "SWh") -> tuple[float, QImage]:
    image = QImage(200, 200, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.scale(scale, scale)
    box = QRectF(0, 0, 20, 20)
    size, _box = paint_label_plate(painter, box, 8.0, QColor("#1565c0"), text)
    painter.end()
    return size, image


def test_a_shrunken_label_is_raised_to_reading_size_on_a_plate():
    size, image = _plate_size(0.5)  # a 20-unit disc drawn 10 px wide
    assert size * 0.5 >= MIN_LABEL_PX
    assert image.pixelColor(5, 5).alpha() > 0  # the plate behind the raised label
    size, image = _plate_size(4.0, "SW")  # zoomed in: the disc's own size, no plate
    assert size == 8.0
    assert all(image.pixelColor(x, 40).alpha() == 0 for x in range(0, 200, 10))
    size, image = _plate_size(4.0, "SWh")  # wider than the disc: a plate, whole
    assert size == 8.0 and image.pixelColor(2, 40).alpha() > 0
