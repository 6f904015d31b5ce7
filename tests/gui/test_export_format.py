"""``afdesk export-png FILE OUT``: the image's bytes are in the format its suffix names
(``out.jpg`` is a JPEG, not a PNG called .jpg), or the command refuses and writes nothing."""

from __future__ import annotations

import pytest

from afdesk.gui.export import main
from afdesk.paths import sample_encounter

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
