"""Universal VTT maps (.uvtt, .dd2vtt): the picture, its grid, walls and doors, and the
clear refusal of a broken file (afdesk.storage.uvtt; map art under the tiles, E9; walls as
segments, E10)."""

from __future__ import annotations

import base64
import json

import pytest

from afdesk.encounter.art import Alignment
from afdesk.storage import LoadError, uvtt
from tests.pictures import png_bytes, uvtt_bytes, uvtt_document


def test_a_dungeondraft_export_gives_its_picture_grid_walls_and_doors():
    walls = [[(0, 5), (3, 5)], [(7.5, 0.5), (7.5, 2.5), (9.5, 2.5)]]
    portals = [
        {
            "position": {"x": 4, "y": 5},
            "bounds": [{"x": 3, "y": 5}, {"x": 5, "y": 5}],
            "rotation": 0,
            "closed": True,
            "freestanding": False,
        }
    ]
    m = uvtt.parse(uvtt_bytes(walls=walls, portals=portals), "keep.dd2vtt")
    assert (m.columns, m.rows, m.pixels_per_grid) == (15, 15, 4)
    assert m.mime == "image/png" and m.image == png_bytes(60, 60)
    assert m.walls == (((0.0, 5.0), (3.0, 5.0)), ((7.5, 0.5), (7.5, 2.5), (9.5, 2.5)))
    assert m.portals == (uvtt.Portal((3.0, 5.0), (5.0, 5.0), True),)
    assert uvtt.alignment(m) == Alignment(cell=4)


def test_walls_mark_the_areas_they_pass_and_doors_are_left_open():
    walls = [[(0, 5), (3, 5)], [(7.5, 0.5), (7.5, 2.5), (9.5, 2.5)]]
    portals = [{"bounds": [{"x": 3, "y": 5}, {"x": 5, "y": 5}], "closed": False}]
    m = uvtt.parse(uvtt_bytes(walls=walls, portals=portals))
    zone = {(c, r) for c in range(15) for r in range(15)}
    wall, doors, closed = uvtt.wall_areas(m, uvtt.alignment(m), (0, 0), zone)
    # along the border y = 5: the row below it; through areas: those areas
    assert {(0, 5), (1, 5), (2, 5)} <= wall
    assert {(7, 0), (7, 1), (7, 2), (8, 2), (9, 2)} <= wall
    assert (0, 4) not in wall and (6, 1) not in wall
    assert doors == {(3, 5), (4, 5)} and not closed
    assert not wall & doors


def test_walls_follow_the_alignment_the_gm_picked_and_stay_in_the_zone():
    m = uvtt.parse(uvtt_bytes(walls=[[(0, 0.5), (4, 0.5)]]))
    # two grid squares per area, the zone's corner two areas left of the picture's
    align = Alignment(cell=8, x=-16, y=0)
    zone = {(c, r) for c in range(-5, 10) for r in range(0, 15)}
    wall, doors, _ = uvtt.wall_areas(m, align, (-5, 0), zone)
    assert wall == {(-3, 0), (-2, 0)}  # areas 2..3 from the corner, shifted by it
    assert doors == set()
    outside = uvtt.wall_areas(m, Alignment(cell=4, x=-200, y=0), (0, 0), {(0, 0)})[0]
    assert outside == set()  # beyond the zone: nothing


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("resolution"), "resolution: the field is missing"),
        (lambda d: d["resolution"].update(pixels_per_grid=0), "resolution.pixels_per_grid: 0"),
        (lambda d: d["resolution"]["map_size"].update(x="wide"), "map_size.x: expected a number"),
        (lambda d: d.update(image="not base64!"), "image: the picture is not valid base64"),
        (lambda d: d.update(image=base64.b64encode(b"GIF89a....").decode()), "no PNG, JPEG"),
        (lambda d: d.update(line_of_sight=[[{"x": 1}]]), "line_of_sight[0][0].y: the field is"),
        (lambda d: d.update(portals=[{"bounds": [{"x": 1, "y": 1}]}]), "expected 2 points"),
    ],
)
def test_a_broken_file_is_refused_naming_the_file_and_the_place(change, words):
    doc = uvtt_document()
    change(doc)
    with pytest.raises(LoadError) as err:
        uvtt.parse(json.dumps(doc).encode(), "cellar.uvtt")
    assert str(err.value).startswith("cellar.uvtt: ")
    assert words in str(err.value)


def test_not_json_and_too_large_files_are_refused_before_anything_else(tmp_path, monkeypatch):
    with pytest.raises(LoadError, match=r"^cellar.uvtt: .*Universal VTT"):
        uvtt.parse(b"\x89PNG\r\n\x1a\n not json", "cellar.uvtt")
    path = tmp_path / "big.dd2vtt"
    path.write_bytes(uvtt_bytes())
    monkeypatch.setattr(uvtt, "MAX_UVTT_BYTES", 100)
    with pytest.raises(LoadError, match=r"^big.dd2vtt: it is 0.0 MiB; .* at most 0 MiB"):
        uvtt.read(path)
    with pytest.raises(LoadError, match="cannot be read"):
        uvtt.read(tmp_path / "missing.uvtt")
