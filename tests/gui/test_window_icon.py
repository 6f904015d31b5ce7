"""The window's icon comes from PNG renderings of resources/icons/afdesk.svg
(afdesk.gui.icons): set from the SVG, every start loaded Qt's SVG library and icon plugin.
The PNGs must stay what the SVG draws (``python -m afdesk.gui.icons`` writes them again)."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from afdesk.gui import icons


def _differing(a: QImage, b: QImage) -> int:
    """Pixels whose colour or alpha differ by more than a rounding step of antialiasing."""
    a = a.convertToFormat(QImage.Format.Format_ARGB32)
    b = b.convertToFormat(QImage.Format.Format_ARGB32)
    count = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if any(abs((p >> s & 0xFF) - (q >> s & 0xFF)) > 8 for s in (0, 8, 16, 24)):
                count += 1
    return count


def test_each_png_is_there_at_its_size_and_draws_what_the_svg_draws(qapp):
    for size in icons.SIZES:
        path = icons.png_path(size)
        image = QImage(str(path))
        assert not image.isNull(), f"{path} is missing: run python -m afdesk.gui.icons"
        assert image.size() == QSize(size, size), path
        stale = _differing(image, icons.render(size))
        assert stale <= size * size // 100, (
            f"{path.name}: {stale} pixels differ from afdesk.svg: run python -m afdesk.gui.icons"
        )


def test_the_pngs_written_again_are_the_bundled_ones(qapp, tmp_path):
    written = icons.write_pngs(tmp_path)
    assert [p.name for p in written] == [f"afdesk-{s}.png" for s in icons.SIZES]
    for path in written:
        assert _differing(QImage(str(path)), QImage(str(icons.icon_dir() / path.name))) == 0


def test_the_application_icon_is_the_pngs():
    code = (
        "from PySide6.QtCore import QSize\n"
        "from PySide6.QtGui import QImage\n"
        "from afdesk.gui import icons\n"
        "from afdesk.gui.app import make_app\n"
        "icon = make_app([]).windowIcon()\n"
        "print(sorted(s.width() for s in icon.availableSizes()))\n"
        "argb = QImage.Format.Format_ARGB32\n"
        "drawn = icon.pixmap(QSize(16, 16)).toImage().convertToFormat(argb)\n"
        "png = QImage(str(icons.png_path(16))).convertToFormat(argb)\n"
        "print(drawn == png)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    sizes, same = done.stdout.split("\n")[:2]
    assert sizes == str(sorted(icons.SIZES))
    assert same == "True"  # at a title bar's size: the 16 px rendering, not a scaled one


def test_no_png_there_leaves_the_icon_null(qapp, monkeypatch, tmp_path):
    monkeypatch.setattr(icons, "icon_dir", lambda: tmp_path)
    assert icons.window_icon().isNull()
