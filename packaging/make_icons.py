"""Render resources/icons/afdesk.svg into the icon files the builds need: afdesk.png
(256 px, Linux), afdesk.ico (Windows) and afdesk.icns (macOS), with Qt's own image plugins.

    python packaging/make_icons.py OUT_DIR
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_icons(out: Path) -> list[Path]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    renderer = QSvgRenderer(str(ROOT / "resources" / "icons" / "afdesk.svg"))
    if not renderer.isValid():
        raise SystemExit("resources/icons/afdesk.svg cannot be read")
    out.mkdir(parents=True, exist_ok=True)
    image = QImage(256, 256, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    made = []
    for name, fmt in (("afdesk.png", "PNG"), ("afdesk.ico", "ICO"), ("afdesk.icns", "ICNS")):
        path = out / name
        if not image.save(str(path), fmt):
            raise SystemExit(f"Qt cannot write {fmt} here (its image plugin is missing)")
        made.append(path)
    return made


if __name__ == "__main__":
    for path in make_icons(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "icons")):
        print(path)
