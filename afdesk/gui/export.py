"""``afdesk export-png FILE OUT.png [--player] [--size WxH]``: the map of an encounter file
as an image, as the GM or the players see it, with no window shown. Also
:func:`render_map`, for the main window's File > Export map image."""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
from pathlib import Path

DEFAULT_SIZE = (1920, 1080)
MAX_SIDE = 16384
PNG_QUALITY = 85
"""Qt's quality for a PNG: zlib's level 1 (Qt maps 100 - quality onto levels 9 to 0). A
map is mostly flat colours: the file is about 8% larger than at zlib's default level 6,
and written in about 60% of the time (the sample's map at 1920x1080: 574 KB against
532 KB, 56-61 ms against 78-104 ms, November 2026)."""


class ExportError(Exception):
    """A problem the command reports in one line (exit status 2)."""


def render_map(encounter, size: tuple[int, int] = DEFAULT_SIZE, player: bool = False):
    """The map of ``encounter`` rendered into a QImage of ``size`` (width, height): the
    zone, characters and legend, fitted and centred. ``player=True`` leaves out what only
    the GM may see (hidden characters' true places, notes)."""
    _ensure_app()
    from afdesk.gui.map.scene import MapScene
    from afdesk.gui.map.still import StillDocument

    scene = MapScene(StillDocument(encounter), player=player)
    try:
        # One picture: the items' caches (for a view's repaints) would only be drawn into
        # and thrown away. Drawn straight, the picture is the same to the eye (a hatching's
        # phase or an edge's anti-aliasing may shift by a pixel).
        for item in scene.items():
            item.setCacheMode(item.CacheMode.NoCache)
        return render_scene(scene, size)
    finally:
        scene.detach()
        scene.deleteLater()


def render_scene(scene, size: tuple[int, int]):
    """A map scene's :meth:`~afdesk.gui.map.scene.MapScene.map_rect` fitted and centred in
    a QImage of ``size``. The image is opaque (the theme's background under everything), so
    it has no alpha channel: the same pixels, and its PNG is smaller and quicker to write."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QImage, QPainter

    width, height = size
    opaque = scene.theme.background.alpha() == 255  # then nothing shows through
    fmt = QImage.Format.Format_RGB32 if opaque else QImage.Format.Format_ARGB32_Premultiplied
    image = QImage(width, height, fmt)
    image.fill(scene.theme.background)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    source = scene.map_rect()
    # Fitted and centred (QGraphicsScene.render would align it top left).
    scale = min(width / source.width(), height / source.height())
    w, h = source.width() * scale, source.height() * scale
    target = QRectF((width - w) / 2, (height - h) / 2, w, h)
    scene.render(painter, target, source, Qt.AspectRatioMode.KeepAspectRatio)
    painter.end()
    return image


def write_image(image, path: str | Path, fmt: str | None = None) -> bool:
    """Write ``image`` to ``path`` in ``fmt`` (default: as the suffix names it); a PNG at
    :data:`PNG_QUALITY`, every other format at Qt's own default. False if it cannot be
    written."""
    name = str(path)
    kind = (fmt or Path(name).suffix.lstrip(".")).lower()
    quality = PNG_QUALITY if kind == "png" else -1
    return image.save(name, fmt, quality)


def _ensure_app():
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "afdesk"])
    return app


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> (1920, 1080); ExportError for anything else."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text or "")
    if not m:
        raise ExportError(f"--size must be WIDTHxHEIGHT, such as 1920x1080 (got {text!r})")
    w, h = int(m.group(1)), int(m.group(2))
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise ExportError(f"--size must be between 1x1 and {MAX_SIDE}x{MAX_SIDE} (got {text!r})")
    return w, h


def load_encounter(path: Path):
    """The encounter stored in ``path`` (through afdesk.storage); ExportError if it
    cannot be read."""
    if not path.exists():
        raise ExportError(f"{path}: no such file")
    if not path.is_file():
        raise ExportError(f"{path}: not a file")
    from afdesk.encounter.model import Encounter
    from afdesk.storage import LoadError, load

    try:
        state = load(path).state
    except (LoadError, OSError) as exc:  # the file's problem, in one line
        text = " ".join(str(exc).split()) or type(exc).__name__
        raise ExportError(f"{path}: cannot read this encounter file: {text}") from None
    return Encounter.from_state(state)


def image_format(out: Path) -> str:
    """The image format ``out``'s suffix names (``.png``, ``.jpg``, ...), as Qt writes it
    here; ExportError when there is no suffix or Qt has no writer for it (the bytes always
    match the name)."""
    from PySide6.QtGui import QImageWriter

    _ensure_app()  # the image plugins are found through the application
    writable = sorted(
        {bytes(f.data()).decode().lower() for f in QImageWriter.supportedImageFormats()}
    )
    suffix = out.suffix.lower().lstrip(".")
    if suffix in writable:
        return suffix
    known = ", ".join(f".{f}" for f in writable)
    if not suffix:
        raise ExportError(f"{out}: give the image a suffix that names its format ({known})")
    raise ExportError(f"{out}: cannot write .{suffix} images; the formats here are {known}")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line, exit status 2 (not usage + error)
        raise ExportError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="afdesk export-png",
        description="Render the map of an encounter file to a PNG image (no window opens).",
    )
    p.add_argument("file", metavar="FILE", help="the encounter file (.afenc)")
    p.add_argument("out", metavar="OUT.png", help="the image to write")
    p.add_argument(
        "--player", action="store_true", help="the players' view: no GM-only information"
    )
    p.add_argument(
        "--size",
        default=f"{DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]}",
        metavar="WxH",
        help="image size in pixels (default 1920x1080)",
    )
    return p


def main(argv: list[str], *, last: bool = False) -> int:
    """Run ``afdesk export-png``; returns the exit status (2 for any error).

    The cycle collector is paused meanwhile: the command makes no garbage worth it, and
    each pass would traverse every object the imports made (ten thousand and more), several
    times a run. ``last``: the process ends when this returns (the command line), so what it
    made is frozen: the interpreter's exit does not traverse it all once more either.
    Together about 20 ms of a 250 ms export."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _export(argv)
    finally:
        if last:
            gc.freeze()
        if enabled:
            gc.enable()


def _export(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        size = parse_size(args.size)
        encounter = load_encounter(Path(args.file))
        out = Path(args.out)
        if not out.parent.exists():
            raise ExportError(f"{out}: the folder {out.parent} does not exist")
        from PySide6.QtWidgets import QApplication

        if QApplication.instance() is None:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # never show or need a display
        fmt = image_format(out)
        image = render_map(encounter, size, player=args.player)
        if not write_image(image, out, fmt):
            raise ExportError(f"{out}: cannot write the image there")
    except ExportError as exc:
        print(f"afdesk export-png: {exc}", file=sys.stderr)
        return 2
    print(f"{out}: {size[0]}x{size[1]} {'player' if args.player else 'GM'} map")
    return 0
