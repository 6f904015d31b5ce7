"""Map art as a part of the encounter: SetMapArt puts and clears the GM's pictures under
the tiles (E9), undo gives back exactly what was there, and a bad picture or a place with
no tile is refused with its reason, changing nothing (afdesk.encounter.art)."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter import art as art_mod
from afdesk.encounter import limits
from afdesk.encounter.art import Alignment, MapArt, TileArt, map_art_problem, tiles_covered
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import History
from afdesk.encounter.ops.art import SetMapArt
from afdesk.storage.samples import build
from tests.pictures import png_bytes


def _art(col: int, row: int, size: int = 6, colour=(40, 120, 60)) -> TileArt:
    return TileArt(col, row, "image/png", size, size, png_bytes(size, size, colour))


def test_pictures_go_under_tiles_and_undo_and_redo_are_exact():
    enc = build()
    history = History(enc)
    before = enc.state()
    history.push(SetMapArt(put=(_art(0, 0), _art(2, 1))))
    assert [a.slot for a in enc.art.tiles] == [(0, 0), (2, 1)]
    history.push(SetMapArt(put=(_art(0, 0, colour=(200, 10, 10)),), clear=((2, 1),)))
    assert [a.slot for a in enc.art.tiles] == [(0, 0)]
    assert enc.art.at(0, 0).data == png_bytes(6, 6, (200, 10, 10))
    history.undo()
    assert [a.slot for a in enc.art.tiles] == [(0, 0), (2, 1)]
    assert enc.art.at(0, 0).data == png_bytes(6, 6)
    history.undo()
    assert enc.state() == before
    history.redo()
    history.redo()
    assert [a.slot for a in enc.art.tiles] == [(0, 0)]
    assert enc.log == list(before.log)  # not logged: the log never holds the pictures


@pytest.mark.parametrize(
    ("op", "words"),
    [
        (SetMapArt(), "no picture to put and none to clear"),
        (SetMapArt(put=(_art(7, 7),)), "the zone has no tile at (7, 7)"),
        (SetMapArt(put=(_art(0, 0), _art(0, 0))), "two pictures for the tile at (0, 0)"),
        (SetMapArt(clear=((1, 1),)), "the tile at (1, 1) has no map art to clear"),
        (
            SetMapArt(put=(TileArt(0, 0, "image/gif", 4, 4, b"GIF89a"),)),
            "the picture type 'image/gif' is not one map art holds",
        ),
        (
            SetMapArt(put=(TileArt(0, 0, "image/jpeg", 4, 4, png_bytes(4, 4)),)),
            "says it is image/jpeg but its bytes are image/png",
        ),
        (
            SetMapArt(put=(TileArt(0, 0, "image/png", 2048, 4, png_bytes(4, 4)),)),
            "width would be 2048, which is out of range: a tile's picture is 1 to 1024",
        ),
    ],
)
def test_a_bad_picture_or_place_is_refused_and_changes_nothing(op, words):
    enc = build()
    before = enc.state()
    with pytest.raises(IllegalOp, match=words.replace("(", r"\(").replace(")", r"\)")):
        enc.apply(op)
    assert enc.state() == before


def test_the_byte_limits_hold_per_tile_and_for_the_encounter(monkeypatch):
    enc = build()
    big = png_bytes(6, 6) + b"\0" * 200
    monkeypatch.setattr(art_mod, "ART_TILE_BYTES", 100)
    with pytest.raises(IllegalOp, match=r"a tile's picture takes at most 0\.0 MiB"):
        enc.apply(SetMapArt(put=(TileArt(0, 0, "image/png", 6, 6, big),)))
    monkeypatch.undo()
    from afdesk.encounter.ops import art as art_ops

    monkeypatch.setattr(art_ops, "ART_TOTAL_BYTES", 2 * len(png_bytes(6, 6)))
    enc.apply(SetMapArt(put=(_art(0, 0), _art(1, 0))))
    with pytest.raises(IllegalOp, match="an encounter's map art takes at most"):
        enc.apply(SetMapArt(put=(_art(2, 0),)))
    assert [a.slot for a in enc.art.tiles] == [(0, 0), (1, 0)]


def test_a_file_with_a_wrong_picture_is_found_with_its_place():
    ok = _art(0, 0)
    assert map_art_problem(MapArt((ok,))) is None
    twice = MapArt((ok, _art(0, 0)))
    assert map_art_problem(twice) == (
        "art.tiles[1]",
        "a second picture for the tile at column 0, row 0 (art.tiles[0] is there already); "
        "a tile has one picture",
    )
    liar = msgspec.structs.replace(ok, mime="image/webp")
    place, text = map_art_problem(MapArt((liar,)))
    assert place == "art.tiles[0]" and "image/webp but its bytes are image/png" in text
    found = limits.problem(MapArt((msgspec.structs.replace(ok, height=0),)), "art")
    assert found is not None and found.place == "art.tiles[0].height"


def test_the_alignment_cuts_the_picture_into_the_tiles_it_covers():
    align = Alignment(cell=10, x=-25, y=0)  # the first tile starts half a tile left
    assert align.tile_rect(1, 2) == (25.0, 100.0, 50.0, 50.0)
    assert align.area_point(35, 20) == (6.0, 2.0)
    slots = [(c, r) for r in range(3) for c in range(3)]
    assert tiles_covered(align, 100, 60, slots, (0, 0)) == [
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
    ]
    assert Alignment(cell=0.5).problem().startswith("the cell size must be at least 1 pixel")
    assert Alignment(cell=4, x=float("nan")).problem()
