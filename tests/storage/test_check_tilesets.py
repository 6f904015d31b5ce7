"""``afdesk check`` checks tile-set files (``.json``) as afdesk reads the GM's own (E9,
E10): the bundled ones pass, a broken one is named with its place, and an id a bundled
tile set already has is refused (afdesk would skip that file)."""

from __future__ import annotations

import json

from afdesk.cli import run
from afdesk.paths import bundled_tileset_dir


def _own(tmp_path, name="caves.json", **change):
    doc = json.loads((bundled_tileset_dir() / "town.json").read_text("utf-8"))
    doc.update({"id": "caves", "name": "Caves"} | change)
    path = tmp_path / name
    path.write_text(json.dumps(doc), "utf-8")
    return path


def test_the_bundled_tile_sets_and_an_own_one_pass(tmp_path, capsys):
    bundled = sorted(str(p) for p in bundled_tileset_dir().glob("*.json"))
    own = str(_own(tmp_path))
    assert len(bundled) >= 3
    assert run(["check", *bundled, own]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{p}: ok" for p in [*bundled, own]]


def test_a_broken_tile_set_is_named_with_its_place(tmp_path, capsys):
    doc = json.loads(_own(tmp_path).read_text("utf-8"))
    doc["kinds"][0]["segments"][0]["areas"] = [[7, 0]]
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(doc), "utf-8")
    empty = _own(tmp_path, "empty.json", kinds=[])
    assert run(["check", str(outside), str(empty), str(_own(tmp_path))]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{outside}: kinds[0].segments[0].areas[0]: segment ")
    assert "outside the tile's 5 x 5 areas" in out[0]
    assert out[1] == f"{empty}: kinds: a tile set needs at least one kind of tile"
    assert out[2].endswith(": ok")


def test_an_id_a_bundled_tile_set_has_is_refused(tmp_path, capsys):
    clash = _own(tmp_path, "my-town.json", id="town")
    assert run(["check", str(clash)]) == 2
    assert capsys.readouterr().out == (
        f"{clash}: id: 'town' is already the id of the bundled tile set in town.json; "
        "give this one another id\n"
    )
