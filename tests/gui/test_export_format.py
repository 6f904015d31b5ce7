"""``afdesk export-png FILE OUT``: the image's bytes are in the format its suffix names
(``out.jpg`` is a JPEG, not a PNG called .jpg), or the command refuses and writes nothing."""

from __future__ import annotations

import struct

import pytest
from PySide6.QtGui import QImage

from afdesk.encounter.model import Encounter
from afdesk.gui.export import main, render_map, write_image
from afdesk.paths import sample_encounter
from afdesk.storage import load

MAGIC = {
    "png": b"\x89PNG\r\n\x1a\n",
    "jpg": b"\xff\xd8\xff",
    "jpeg": b"\xff\xd8\xff",
    "bmp": b"BM",
}


@pytest.mark.parametrize("suffix", ["png", "jpg", "JPEG", "bmp"])
def test_the_suffix_chooses_the_format(qapp, tmp_path, capsys, suffix):
    out = tmp_path / f"map.{suffix}"
    assert main([str(sample_encounter()), str(out), "--size", "320x200"]) == 0
    assert out.read_bytes().startswith(MAGIC[suffix.lower()])
    assert capsys.readouterr().out.strip() == f"{out}: 320x200 GM map"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("map.xyz", "cannot write .xyz images; the formats here are "),
        ("map", "give the image a suffix that names its format ("),
    ],
)
def test_a_suffix_qt_cannot_write_is_refused_and_nothing_written(
    qapp, tmp_path, capsys, name, said
):
    out = tmp_path / name
    assert main([str(sample_encounter()), str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"afdesk export-png: {out}: {said}"), err
    assert ".png" in err and ".jpg" in err
    assert list(tmp_path.iterdir()) == []


def _zlib_level_class(png: bytes) -> int:
    """FLEVEL of the first IDAT's zlib header: 0 for zlib's levels 0-1, 1 for 2-5, 2 for
    its default (6), 3 for 7-9 (RFC 1950)."""
    pos = 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        if kind == b"IDAT":
            flg = png[pos + 9]
            return flg >> 6
        pos += 12 + length
    raise AssertionError("no IDAT chunk")


def test_a_png_is_written_at_zlibs_fastest_level_and_reads_back_the_same(qapp, tmp_path):
    out = tmp_path / "map.png"
    assert main([str(sample_encounter()), str(out), "--size", "640x360", "--player"]) == 0
    assert _zlib_level_class(out.read_bytes()) == 0  # level 1 (PNG_QUALITY), not 6
    image = render_map(Encounter.from_state(load(sample_encounter()).state), (640, 360), True)
    back = QImage(str(out)).convertToFormat(image.format())
    assert back == image  # lossless all the same


def test_the_window_exports_through_the_same_writer(qapp, tmp_path):
    image = render_map(Encounter.from_state(load(sample_encounter()).state), (320, 200))
    assert write_image(image, tmp_path / "a.png")
    assert _zlib_level_class((tmp_path / "a.png").read_bytes()) == 0
    assert write_image(image, tmp_path / "a.jpg")  # another format: Qt's own default
    assert (tmp_path / "a.jpg").read_bytes().startswith(MAGIC["jpg"])
    assert not write_image(image, tmp_path / "no such folder" / "a.png")
