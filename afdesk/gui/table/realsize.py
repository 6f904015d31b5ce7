"""Real size for miniatures: how many of the players' window's pixels make one
area, so that an area is one inch (or 25 mm) on the screen. Plain numbers, no Qt.

A screen's size is known from its diagonal (the TV's box says 55") and its resolution, or
from a line measured on it with a ruler. Qt places widgets in logical pixels: on a screen
scaled by the desktop (device pixel ratio 2), one logical pixel is two physical ones.
"""

from __future__ import annotations

import math

MM_PER_INCH = 25.4
UNITS = {"inch": MM_PER_INCH, "25mm": 25.0}
"""How long one area is on the screen, in millimetres."""


class CalibrationError(ValueError):
    """Numbers that cannot describe a screen; the message says which and why."""


def pixels_per_inch(diagonal_in: float, width_px: int, height_px: int) -> float:
    """Physical pixels per inch of a screen of ``width_px`` x ``height_px`` physical pixels
    whose visible diagonal is ``diagonal_in`` inches."""
    if not diagonal_in or diagonal_in <= 0 or not math.isfinite(diagonal_in):
        raise CalibrationError(
            f"the screen's diagonal must be more than 0 inches, not {diagonal_in}"
        )
    if width_px <= 0 or height_px <= 0:
        raise CalibrationError(f"the screen's size must be positive, not {width_px}x{height_px}")
    return math.hypot(width_px, height_px) / diagonal_in


def area_pixels(
    diagonal_in: float,
    width_px: int,
    height_px: int,
    *,
    device_pixel_ratio: float = 1.0,
    unit: str = "inch",
) -> float:
    """Logical pixels per area for an area of ``unit`` ("inch" or "25mm") on that screen.
    ``width_px`` and ``height_px`` are physical pixels (the TV's resolution)."""
    if unit not in UNITS:
        raise CalibrationError(f"an area is one of {', '.join(UNITS)}, not {unit!r}")
    if device_pixel_ratio <= 0:
        raise CalibrationError("the device pixel ratio must be positive")
    ppi = pixels_per_inch(diagonal_in, width_px, height_px)
    return ppi * UNITS[unit] / MM_PER_INCH / device_pixel_ratio


def area_pixels_from_line(line_px: float, measured_mm: float, *, unit: str = "inch") -> float:
    """Logical pixels per area from a line ``line_px`` logical pixels long that measured
    ``measured_mm`` millimetres on the screen."""
    if unit not in UNITS:
        raise CalibrationError(f"an area is one of {', '.join(UNITS)}, not {unit!r}")
    if not measured_mm or measured_mm <= 0 or not math.isfinite(measured_mm):
        raise CalibrationError(f"the measured length must be more than 0 mm, not {measured_mm}")
    if line_px <= 0:
        raise CalibrationError("the line must be longer than 0 pixels")
    return line_px / measured_mm * UNITS[unit]


__all__ = [
    "MM_PER_INCH",
    "UNITS",
    "CalibrationError",
    "area_pixels",
    "area_pixels_from_line",
    "pixels_per_inch",
]
