"""The window's icon: PNG renderings of ``resources/icons/afdesk.svg`` at the sizes a
desktop asks for. Set from the SVG, every start loaded Qt's SVG library and its SVG icon
plugin (about 2M instructions and a megabyte of memory touched, and a rendering of the SVG
at each size the window system takes); the PNGs are decoded only when drawn. The SVG stays
the source: the desktop entry and the packaging use it, and ``--self-test`` checks that it
renders.

After changing the SVG, write the PNGs again (a test says when they are stale)::

    python -m afdesk.gui.icons
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from afdesk.paths import resource_dir

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon, QImage

SIZES = (16, 32, 48, 64, 128, 256)
"""The sizes rendered: a title bar's, a taskbar's, an Alt+Tab switcher's, a dock's."""


def icon_dir() -> Path:
    return resource_dir() / "icons"


def png_path(size: int, folder: Path | None = None) -> Path:
    """Where the PNG of ``size`` pixels is (in ``folder``, else the bundled icons)."""
    return (folder or icon_dir()) / f"afdesk-{size}.png"


def window_icon() -> QIcon:
    """The application's icon from the PNGs (each read when a size is first drawn); a
    null icon if none is there."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QIcon

    icon = QIcon()
    for size in SIZES:
        path = png_path(size)
        if path.is_file():
            icon.addFile(str(path), QSize(size, size))
    return icon


def render(size: int, svg: Path | None = None) -> QImage:
    """The SVG drawn on a transparent ``size`` x ``size`` image (needs a QGuiApplication)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    source = svg or icon_dir() / "afdesk.svg"
    renderer = QSvgRenderer(str(source))
    if not renderer.isValid():
        raise ValueError(f"{source} is not an SVG Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def write_pngs(folder: Path | None = None) -> list[Path]:
    """Render the SVG at every size of :data:`SIZES` into ``folder`` (the bundled icons by
    default); the paths written."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    written = []
    for size in SIZES:
        path = png_path(size, folder)
        if not render(size).save(str(path), "PNG"):
            raise OSError(f"{path} could not be written")
        written.append(path)
    return written


if __name__ == "__main__":
    for written in write_pngs(Path(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(written)
