"""The GM's own tile sets: create, rename, duplicate, save a painted tile as a
stamp; bundled sets are never written; a broken file beside them is skipped and reported."""

from __future__ import annotations

import pytest

from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.editor import PaintSegment, PlaceTile
from afdesk.encounter.zone import SegmentProps, empty_zone
from afdesk.storage import own_tilesets, tilesets
from afdesk.storage.errors import LoadError


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("AFDESK_DATA_DIR", str(tmp_path / "data"))
    yield tmp_path / "data" / "tilesets"
    tilesets.reload()


def test_create_rename_duplicate(folder):
    ts = own_tilesets.create("Sewers of Jade City")
    assert ts.id == "sewers-of-jade-city" and [k.id for k in ts.kinds] == ["ground"]
    assert (folder / "sewers-of-jade-city.json").is_file()
    assert tilesets.tileset("sewers-of-jade-city") == ts
    again = own_tilesets.create("Sewers of Jade City")
    assert again.id == "sewers-of-jade-city-2"
    renamed = own_tilesets.rename(ts.id, "The old sewers")
    assert renamed.id == ts.id and tilesets.tileset(ts.id).name == "The old sewers"
    copy = own_tilesets.duplicate("wilderness", "My wilderness")
    assert copy.kinds == tilesets.tileset("wilderness").kinds
    assert tilesets.catalog().files[copy.id].parent == folder


def test_bundled_sets_are_never_written(folder):
    with pytest.raises(LoadError, match=r"bundled with afdesk.*duplicate it"):
        own_tilesets.rename("wilderness", "Mine now")
    with pytest.raises(LoadError, match="no tile set 'nope'"):
        own_tilesets.duplicate("nope", "x")
    with pytest.raises(LoadError, match="needs a name"):
        own_tilesets.create("  ")


def test_a_painted_tile_becomes_a_stamp_and_places_from_the_set(folder):
    own = own_tilesets.create("Stamps")
    enc = Encounter(zone=empty_zone(tilesets.tileset("wilderness")))
    enc.apply(PlaceTile(0, 0, tilesets.tileset("wilderness").kind("meadow")))
    enc.apply(PaintSegment("pond", ((1, 1), (2, 1)), props=SegmentProps(water=True)))
    kind = own_tilesets.save_stamp(own.id, enc.zone.tile_at(0, 0), "Meadow with pond")
    assert kind.id == "meadow-with-pond"
    stored = tilesets.tileset(own.id).kind(kind.id)
    assert [s.name for s in stored.segments][-1] == "pond"
    assert stored.segments[-1].props.water
    # Placed in another encounter, the zone keeps its own copy (it opens without the set).
    other = Encounter(zone=empty_zone(tilesets.tileset("wilderness")))
    other.apply(PlaceTile(2, 2, stored))
    assert other.zone.kind(kind.id) == stored
    # Saved again under its name after more painting: the kind is updated, same id.
    enc.apply(PlaceTile(1, 0, stored))
    enc.apply(PaintSegment("reeds", ((6, 1),), props=SegmentProps(cover=True)))
    again = own_tilesets.save_stamp(own.id, enc.zone.tile_at(1, 0), "meadow WITH pond")
    assert again.id == kind.id and again.name == "Meadow with pond"
    kinds = tilesets.tileset(own.id).kinds
    assert len(kinds) == 2 and kinds[1].segments[-1].name == "reeds"
    with pytest.raises(LoadError, match="empty slot"):
        own_tilesets.save_stamp(own.id, other.zone.tile_at(0, 0), "Nothing")


def test_a_broken_own_file_is_reported_and_skipped(folder):
    own_tilesets.create("Good")
    (folder / "broken.json").write_text('{"id": "broken", "name": "B", "kinds": [}')
    cat = tilesets.reload()
    assert "good" in cat.sets and "broken" not in cat.sets
    assert len(cat.problems) == 1 and str(cat.problems[0]).startswith("broken.json")
