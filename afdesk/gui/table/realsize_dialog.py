"""Table > Players' screen > Real size…: one area as one inch (or 25 mm) on the TV.

The GM gives the TV's diagonal (its resolution comes from the screen the players' window
is on), or measures the ruler the TV shows while this dialog is open. The numbers are
turned into pixels by :mod:`afdesk.gui.table.realsize`; the zoom then stays locked and the
players' view pans by whole areas (arrow keys in the players' window).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.gui import screens
from afdesk.gui.style import meaning_style
from afdesk.gui.table.realsize import (
    UNITS,
    CalibrationError,
    area_pixels,
    area_pixels_from_line,
)

RULER_PX = 400
"""The ruler's length on the players' screen, in logical pixels."""


class Ruler(QWidget):
    """A line of :data:`RULER_PX` logical pixels on the players' screen, to be measured."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.resize(RULER_PX + 40, 90)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(0, 0, 0, 220))
        p.setPen(QPen(QColor("#ffd54a"), 3))
        y = 30
        p.drawLine(20, y, 20 + RULER_PX, y)
        for x in (20, 20 + RULER_PX):
            p.drawLine(x, y - 14, x, y + 14)
        p.setPen(QColor("#ffffff"))
        p.drawText(
            QRectF(0, 48, self.width(), 36),
            Qt.AlignmentFlag.AlignCenter,
            "Measure this line (end to end, in mm)",
        )


class RealSizeDialog(QDialog):
    """The GM's numbers for real size (see the module)."""

    def __init__(self, player_window, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Real size on the players' screen")
        self.pw = player_window
        screen = screens.screen_of(player_window)
        dpr = screen.devicePixelRatio() if screen is not None else 1.0
        geo = screen.geometry() if screen is not None else None
        self.dpr = dpr
        form = QFormLayout()
        self.unit = QComboBox()
        self.unit.addItem("1 inch", "inch")
        self.unit.addItem("25 mm", "25mm")
        form.addRow("One area is", self.unit)
        self.diagonal = QDoubleSpinBox()
        self.diagonal.setRange(0.0, 400.0)
        self.diagonal.setDecimals(1)
        self.diagonal.setSuffix(" in")
        self.diagonal.setSpecialValueText("(not given)")
        size = screen.physicalSize() if screen is not None else None
        if size is not None and size.width() > 0:
            self.diagonal.setValue(math.hypot(size.width(), size.height()) / 25.4)
        form.addRow("Screen diagonal", self.diagonal)
        self.width_px = QSpinBox()
        self.height_px = QSpinBox()
        for box, value in (
            (self.width_px, geo.width() * dpr if geo else 1920),
            (self.height_px, geo.height() * dpr if geo else 1080),
        ):
            box.setRange(1, 16384)
            box.setValue(int(value))
        form.addRow("Resolution (width)", self.width_px)
        form.addRow("Resolution (height)", self.height_px)
        self.measured = QDoubleSpinBox()
        self.measured.setRange(0.0, 5000.0)
        self.measured.setDecimals(1)
        self.measured.setSuffix(" mm")
        self.measured.setSpecialValueText("(not measured)")
        form.addRow("Or: the ruler on the TV measures", self.measured)
        self.problem = QLabel()
        self.problem.setStyleSheet(meaning_style("error", self.problem))
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox()
        self.apply_button = buttons.addButton("Real size", QDialogButtonBox.ButtonRole.AcceptRole)
        self.off_button = buttons.addButton(
            "Back to fitting", QDialogButtonBox.ButtonRole.ResetRole
        )
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button.clicked.connect(self.apply)
        self.off_button.clicked.connect(self.off)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.ruler = Ruler(player_window)
        self.ruler.move(40, 40)
        self.ruler.show()
        self.ruler.raise_()
        self.finished.connect(lambda _r: self.ruler.deleteLater())

    def area_px(self) -> float:
        """Logical pixels per area from the numbers given (CalibrationError if none fit)."""
        unit = self.unit.currentData()
        if self.measured.value() > 0:
            return area_pixels_from_line(RULER_PX, self.measured.value(), unit=unit)
        return area_pixels(
            self.diagonal.value(),
            self.width_px.value(),
            self.height_px.value(),
            device_pixel_ratio=self.dpr,
            unit=unit,
        )

    def apply(self) -> None:
        try:
            px = self.area_px()
            self.pw.camera.set_real_size(px)
        except (CalibrationError, ValueError) as exc:
            self.problem.setText(f"Not applied: {exc}.")
            return
        self.accept()

    def off(self) -> None:
        self.pw.camera.set_real_size(None)
        self.accept()


__all__ = ["RULER_PX", "UNITS", "RealSizeDialog", "Ruler"]
