"""Map art in files and the crash journal (schema version 6): the pictures' bytes come
back exactly from a saved file and from a journal after a crash, and a file whose art is
wrong is refused naming the place (afdesk.encounter.art, E9)."""

from __future__ import annotations

import json

import pytest

from afdesk.encounter.art import TileArt
from afdesk.encounter.ops.art import SetMapArt
from afdesk.storage import LoadError, decode, encode, load, save
from afdesk.storage.check import check_file
from afdesk.storage.journal import Journal, recover
from afdesk.storage.samples import build
from tests.pictures import png_bytes
from tests.storage.test_journal import Live, _crash, _only_pending


def _art(col: int, row: int) -> TileArt:
    return TileArt(col, row, "image/png", 5, 5, png_bytes(5, 5, (col * 60, row * 60, 90)))


def test_map_art_is_journaled_and_recovered_exactly():
    enc = build()
    live = Live(enc, Journal.start("Painted ford", base=enc.state()))
    live.do(SetMapArt(put=tuple(_art(c, r) for r in range(3) for c in range(3))))
    live.do(SetMapArt(clear=((1, 1),)))
    live.undo()
    live.redo()
    assert len(enc.art.tiles) == 8
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()


def test_a_saved_file_holds_the_art_and_opens_with_it(tmp_path):
    enc = build()
    enc.apply(SetMapArt(put=(_art(0, 0), _art(2, 2))))
    path = tmp_path / "painted.afenc"
    save(path, enc.state())
    loaded = load(path)
    assert loaded.state.art == enc.art
    assert loaded.state == enc.state()
    assert check_file(str(path)) == ""


def _with(data: bytes, change) -> bytes:
    doc = json.loads(data)
    change(doc["art"]["tiles"])
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t[0].update(mime="image/gif"), "art.tiles[0]: the picture type 'image/gif'"),
        (lambda t: t[1].update(data="R0lGODlh"), "art.tiles[1]: the picture says it is image/png"),
        (lambda t: t[0].update(width=4096), "art.tiles[0].width: "),
        (lambda t: t[1].update(col=0, row=0), "art.tiles[1]: a second picture for the tile"),
        (lambda t: t[0].update(data="%%%"), "art.tiles[0].data"),
    ],
)
def test_a_file_with_wrong_art_is_refused_naming_the_place(change, words):
    enc = build()
    enc.apply(SetMapArt(put=(_art(0, 0), _art(2, 2))))
    data = _with(encode(enc.state()), change)
    with pytest.raises(LoadError) as err:
        decode(data, source="painted.afenc")
    assert str(err.value).startswith("painted.afenc: ")
    assert words in str(err.value)
