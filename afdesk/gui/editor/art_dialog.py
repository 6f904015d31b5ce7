"""The map art dialog: where the picture goes (the whole zone, cut into its tiles, or one
tile), its alignment (an area's side in pixels, and the pixel where the first area's
corner lies) with a live preview of the areas drawn over the picture, and for a
Universal VTT map whether its walls and doors become segments (E10). OK pushes one undo
step (afdesk.gui.editor.art_import.import_ops); a refusal is shown in the dialog, which
stays open, and nothing changes."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.art import Alignment
from afdesk.encounter.zone import TILE
from afdesk.gui.editor import art_import
from afdesk.gui.errors import show_refusal
from afdesk.gui.push import push
from afdesk.storage import uvtt

PREVIEW = 420
"""The preview's longer side, in pixels."""


class _Preview(QLabel):
    """The preview: a drag moves the areas over the picture (the offset), the wheel
    changes their size (the cell size); ``moved(dx, dy)`` and ``wheeled(steps)`` are in
    the preview's pixels."""

    def __init__(self, dialog: MapArtDialog) -> None:
        super().__init__()
        self.dialog = dialog
        self._last: tuple[float, float] | None = None
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setToolTip("Drag to move the areas over the picture; the wheel sizes them")

    def mousePressEvent(self, event) -> None:
        p = event.position()
        self._last = (p.x(), p.y())

    def mouseMoveEvent(self, event) -> None:
        if self._last is None:
            return
        p = event.position()
        self.dialog.drag(p.x() - self._last[0], p.y() - self._last[1])
        self._last = (p.x(), p.y())

    def mouseReleaseEvent(self, event) -> None:
        self._last = None

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.dialog.cell.setValue(self.dialog.cell.value() * (1.02**steps))


class MapArtDialog(QDialog):
    """Place a picture under the zone's tiles (see the module). ``tile``: the tile the
    GM selected (offered first when given)."""

    def __init__(
        self,
        doc,
        image: QImage,
        source: str,
        *,
        uvtt_map: uvtt.UvttMap | None = None,
        tile: tuple[int, int] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        self.image = image
        self.uvtt_map = uvtt_map
        self.setWindowTitle(f"Map art: {source}")
        self._thumb = image.scaled(
            PREVIEW,
            PREVIEW,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
        layout = QVBoxLayout(self)
        about = QLabel(
            f"{source}: {image.width()} x {image.height()} pixels. Set the size of one area "
            "in the picture's pixels and where the first area's top-left corner lies; the "
            "preview draws the areas (tiles in bold) over the picture."
        )
        about.setWordWrap(True)
        layout.addWidget(about)
        form = QFormLayout()
        self.target = QComboBox()
        self.target.addItem("The whole zone (cut into its tiles)")
        self._slots: list[tuple[int, int] | None] = [None]
        for t in doc.encounter.zone.tiles:
            self.target.addItem(f"Only the tile at ({t.col}, {t.row}): {t.name}")
            self._slots.append((t.col, t.row))
        if tile is not None and tuple(tile) in self._slots:
            self.target.setCurrentIndex(self._slots.index(tuple(tile)))
        form.addRow("&Under", self.target)
        self.cell = self._spin(1, 100_000, " px", 2)
        self.x = self._spin(-1_000_000, 1_000_000, " px", 1)
        self.y = self._spin(-1_000_000, 1_000_000, " px", 1)
        form.addRow("&Cell size (one area)", self.cell)
        offset = QHBoxLayout()
        offset.addWidget(QLabel("x"))
        offset.addWidget(self.x)
        offset.addWidget(QLabel("y"))
        offset.addWidget(self.y)
        form.addRow("&Offset of the first area", offset)
        self.walls = QCheckBox("Walls and doors become segments (Walls: Cover and 'Wall'; Doors)")
        self.walls.setToolTip(
            "Walls are lines and segments are whole areas: each area a wall passes through "
            "is marked (on an area border: the area right of or below it). afdesk does not "
            "stop moves through walls; the GM does (E10)."
        )
        if uvtt_map is not None:
            self.walls.setChecked(True)
            n = len(uvtt_map.walls)
            form.addRow("Walls", self.walls)
            form.addRow("", QLabel(f"{n} wall lines, {len(uvtt_map.portals)} doors in the map"))
        layout.addLayout(form)
        self.preview = _Preview(self)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.preview.setMinimumSize(PREVIEW // 2, PREVIEW // 2)
        layout.addWidget(self.preview, 1)
        self.why = QLabel()
        self.why.setWordWrap(True)
        layout.addWidget(self.why)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.reset_alignment()
        self.target.currentIndexChanged.connect(self.reset_alignment)
        for spin in (self.cell, self.x, self.y):
            spin.valueChanged.connect(self.redraw)

    def _spin(self, low: float, high: float, suffix: str, decimals: int) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setRange(low, high)
        spin.setDecimals(decimals)
        spin.setSuffix(suffix)
        return spin

    # ---------------------------------------------------------------------- values

    def tile(self) -> tuple[int, int] | None:
        return self._slots[max(0, self.target.currentIndex())]

    def alignment(self) -> Alignment:
        return Alignment(self.cell.value(), self.x.value(), self.y.value())

    def set_alignment(self, align: Alignment) -> None:
        for spin, value in ((self.cell, align.cell), (self.x, align.x), (self.y, align.y)):
            spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(False)
        self.redraw()

    def reset_alignment(self) -> None:
        """The picture's own grid for a ``.uvtt`` map; else the picture fitted to the
        zone (or to the tile)."""
        if self.uvtt_map is not None:
            self.set_alignment(uvtt.alignment(self.uvtt_map))
            return
        cols, rows = (1, 1) if self.tile() is not None else self.doc.encounter.zone.size()
        self.set_alignment(art_import.default_alignment(self.image, cols, rows))

    def drag(self, dx: float, dy: float) -> None:
        """Move the areas by a drag of ``dx``, ``dy`` preview pixels."""
        k = self._thumb.width() / max(1, self.image.width())
        self.x.setValue(self.x.value() + dx / k)
        self.y.setValue(self.y.value() + dy / k)

    # --------------------------------------------------------------------- preview

    def preview_image(self) -> QImage:
        """The picture with the areas drawn over it (tiles in bold, the first in red)."""
        out = QImage(self._thumb.size(), QImage.Format.Format_ARGB32_Premultiplied)
        out.fill(QColor("#202020"))
        painter = QPainter(out)
        painter.drawImage(0, 0, self._thumb)
        k = self._thumb.width() / max(1, self.image.width())
        align = self.alignment()
        if self.tile() is not None:
            cols, rows = 1, 1
        else:
            cols, rows = self.doc.encounter.zone.size()
        cell = align.cell * k
        x0, y0 = align.x * k, align.y * k
        for i in range(cols * TILE + 1):
            bold = i % TILE == 0
            painter.setPen(QPen(QColor(255, 255, 255, 220 if bold else 110), 2 if bold else 1))
            painter.drawLine(
                int(x0 + i * cell), int(y0), int(x0 + i * cell), int(y0 + rows * TILE * cell)
            )
        for j in range(rows * TILE + 1):
            bold = j % TILE == 0
            painter.setPen(QPen(QColor(255, 255, 255, 220 if bold else 110), 2 if bold else 1))
            painter.drawLine(
                int(x0), int(y0 + j * cell), int(x0 + cols * TILE * cell), int(y0 + j * cell)
            )
        painter.setPen(QPen(QColor("#e53935"), 2))
        painter.drawRect(QRectF(x0, y0, TILE * cell, TILE * cell))
        painter.end()
        return out

    def redraw(self) -> None:
        self.preview.setPixmap(QPixmap.fromImage(self.preview_image()))
        why = self.alignment().problem()
        self.why.setText(why)

    # ------------------------------------------------------------------------ apply

    def apply(self) -> None:
        """Push the import as one undo step; on a refusal say why and stay open."""
        try:
            ops = art_import.import_ops(
                self.doc.encounter.zone,
                self.image,
                self.alignment(),
                tile=self.tile(),
                uvtt_map=self.uvtt_map,
                walls=self.walls.isChecked(),
            )
        except ValueError as exc:
            show_refusal(self.why, exc)
            return
        n = len(ops[0].put)  # type: ignore[attr-defined]
        text = f"Map art ({n} tile{'s' if n != 1 else ''})"
        if push(self.doc, ops, beside=lambda why: why and show_refusal(self.why, why), text=text):
            self.accept()


__all__ = ["MapArtDialog"]
