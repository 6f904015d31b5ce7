"""Tile sets are read by storage (item 5): the bundled ones, then the GM's own
from ``<data folder>/tilesets``; a broken user file is reported and skipped; files of
version 1 get their zone's tile kinds on load; nothing depends on installed tile sets
once a zone exists."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.zone import ReplaceTile, draw_extension
from afdesk.encounter.zone import Edge
from afdesk.paths import bundled_tileset_dir, user_tileset_dir
from afdesk.storage import LoadError, decode, encode, load
from afdesk.storage import tilesets as ts_module
from afdesk.storage.samples import build
from afdesk.storage.tilesets import catalog, read_tileset, reload, scan, tileset, tilesets

FIXTURES = Path(__file__).parent / "fixtures"

CAVES = {
    "id": "caves",
    "name": "Caves",
    "kinds": [
        {"id": "tunnel", "name": "Tunnel", "colour": "#555555", "pattern": "rock"},
        {
            "id": "pool",
            "name": "Pool",
            "colour": "#335577",
            "pattern": "water",
            "segments": [{"name": "Pool", "areas": [[2, 2]], "props": {"water": True}}],
        },
    ],
}


def _write(folder: Path, name: str, doc: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=1))
    return path


def _problem(tmp_path: Path, doc: object, name: str = "caves.json") -> str:
    path = _write(tmp_path, name, doc)
    with pytest.raises(LoadError) as info:
        read_tileset(path)
    assert info.value.source == name
    return info.value.detail


# ------------------------------------------------------------------------- bundled


def test_the_bundled_tile_sets_load():
    found = scan(user=Path("/nonexistent/afdesk-user-tilesets"))
    assert list(found.sets) == ["ruins", "town", "wilderness"]  # by file name
    assert found.problems == ()
    assert {k.id for k in found.sets["wilderness"].kinds} >= {"forest", "meadow", "river", "ford"}
    assert found.files["town"] == bundled_tileset_dir() / "town.json"


def test_an_unknown_tile_set_is_a_load_error_naming_the_installed_ones():
    with pytest.raises(LoadError, match="no tile set 'moon'; the installed ones are ruins, town"):
        tileset("moon")


def test_a_broken_bundled_file_is_a_broken_install(tmp_path):
    _write(tmp_path / "bundled", "town.json", "{")
    with pytest.raises(LoadError, match=r"^town\.json: "):
        scan(bundled=tmp_path / "bundled", user=tmp_path / "user")


# ------------------------------------------------------------------ reading errors


def test_a_good_file_reads(tmp_path):
    caves = read_tileset(_write(tmp_path, "caves.json", CAVES))
    assert caves.id == "caves" and [k.id for k in caves.kinds] == ["tunnel", "pool"]


def test_wrong_type_names_file_place_and_value(tmp_path):
    doc = json.loads(json.dumps(CAVES))
    doc["kinds"][1]["colour"] = 3
    assert _problem(tmp_path, doc) == "kinds[1].colour: expected text, got 3"


def test_not_json_names_the_line(tmp_path):
    assert _problem(tmp_path, '{"id": "caves",\n "name": }').startswith(
        "this is not an afdesk tile set: line 2, column 10"
    )


def test_a_segment_outside_its_tile_is_refused(tmp_path):
    doc = json.loads(json.dumps(CAVES))
    doc["kinds"][1]["segments"][0]["areas"] = [[2, 2], [5, 0]]
    assert _problem(tmp_path, doc).startswith(
        "kinds[1].segments[0].areas[1]: segment 'Pool' of pool has area (5, 0) outside"
    )


def test_a_kind_id_given_twice_is_refused(tmp_path):
    doc = json.loads(json.dumps(CAVES))
    doc["kinds"][1]["id"] = "tunnel"
    assert _problem(tmp_path, doc) == (
        'kinds[1].id: "tunnel" is also the id of kinds[0]; every kind of tile needs its own'
    )


def test_a_set_needs_an_id_and_kinds(tmp_path):
    assert _problem(tmp_path, {**CAVES, "id": " "}).startswith("id: a tile set needs an id")
    assert _problem(tmp_path, {**CAVES, "kinds": []}).startswith("kinds: a tile set needs")


def test_unknown_fields_and_missing_files_are_named(tmp_path):
    assert "unknown field" in _problem(tmp_path, {**CAVES, "colour": "red"}).lower()
    with pytest.raises(LoadError, match="there is no such file"):
        read_tileset(tmp_path / "gone.json")


def test_a_huge_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (ts_module.MAX_TILESET_BYTES + 1))
    with pytest.raises(LoadError, match="at most 1 MiB"):
        read_tileset(path)


# ------------------------------------------------------------------- user folder


def test_user_tile_sets_come_after_the_bundled_ones(tmp_path):
    _write(tmp_path, "caves.json", CAVES)
    found = scan(user=tmp_path)
    assert list(found.sets) == ["ruins", "town", "wilderness", "caves"]
    assert found.files["caves"] == tmp_path / "caves.json"
    assert found.problems == ()


def test_a_broken_user_file_is_reported_and_skipped(tmp_path):
    _write(tmp_path, "a-broken.json", {**CAVES, "id": "broken", "kinds": "many"})
    _write(tmp_path, "b-caves.json", CAVES)
    _write(tmp_path, "notes.txt", "not a tile set: not read")
    found = scan(user=tmp_path)
    assert "caves" in found.sets and "broken" not in found.sets
    assert [(p.source, p.detail) for p in found.problems] == [
        ("a-broken.json", 'kinds: expected a list, got "many"')
    ]


def test_a_user_set_cannot_take_a_bundled_id(tmp_path):
    _write(tmp_path, "my-wilderness.json", {**CAVES, "id": "wilderness"})
    found = scan(user=tmp_path)
    assert found.sets["wilderness"] == scan(user=tmp_path / "none").sets["wilderness"]
    (problem,) = found.problems
    assert str(problem) == (
        "my-wilderness.json: id: 'wilderness' is already the id of the tile set in "
        "wilderness.json; give this one another id"
    )


def test_a_user_folder_that_is_a_file_is_no_crash(tmp_path):
    _write(tmp_path, "tilesets", "not a folder")
    assert scan(user=tmp_path / "tilesets").problems == ()


def test_the_user_folder_is_in_the_data_folder(data_dir):
    """The storage tests' data folder is ``$AFDESK_DATA_DIR`` (tests/storage/conftest.py)."""
    assert user_tileset_dir() == data_dir / "tilesets"
    assert "caves" not in tilesets()
    _write(data_dir / "tilesets", "caves.json", CAVES)
    assert "caves" not in tilesets(), "read once until reload()"
    assert "caves" in reload().sets
    assert tileset("caves").name == "Caves"
    assert catalog() is catalog()


# -------------------------------------------------------- version 1 files, replay


def test_a_version_1_file_gets_its_tile_sets_kinds():
    """A version-1 zone drew from the installed tile set it names: after the upgrade it
    holds those kinds, and opens as the same encounter as the version-2 fixture."""
    old = load(FIXTURES / "v1.afenc").state
    assert old.zone.tileset == "wilderness"
    assert old.zone.kinds == tileset("wilderness").kinds
    assert old == load(FIXTURES / "v2.afenc").state


def test_a_version_1_file_of_an_unknown_tile_set_opens_but_cannot_grow():
    doc = json.loads((FIXTURES / "v1.afenc").read_bytes())
    doc["zone"]["tileset"] = "moon"
    state = decode(json.dumps(doc).encode())
    assert state.zone.kinds == ()
    enc = Encounter.from_state(state)
    with pytest.raises(IllegalOp, match="no tile set to draw new tiles from"):
        draw_extension(enc, Edge.EAST, random.Random(3))


def test_nothing_needs_installed_tile_sets_once_a_zone_exists(tmp_path, monkeypatch):
    """With no tile set installed at all, a file opens, its zone grows and changes, and it
    saves and opens again the same."""
    data = encode(build().state())
    monkeypatch.setattr(ts_module, "bundled_tileset_dir", lambda: tmp_path / "empty")
    (tmp_path / "empty").mkdir()
    assert reload().sets == {}
    try:
        enc = Encounter.from_state(decode(data))
        enc.apply(draw_extension(enc, Edge.NORTH, random.Random(5)))
        enc.apply(ReplaceTile(0, 0, "marsh"))
        assert enc.zone.tile_at(0, 0).name == "Marsh"
        assert decode(encode(enc.state())) == enc.state()
    finally:
        monkeypatch.undo()
        reload()
