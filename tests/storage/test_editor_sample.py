"""The second bundled sample, prepared with the zone editor's Ops: fresh on disk,
and showing what the editor does."""

from __future__ import annotations

from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.reserve import reserve_groups
from afdesk.encounter.samples.jade_river_mill import RESERVE
from afdesk.encounter.visibility import player_visible
from afdesk.encounter.zone import EMPTY, segment_names
from afdesk.storage import load
from afdesk.storage import samples as sample


def test_the_mill_is_what_the_sample_builds(tmp_path):
    fresh = sample.build_mill().state()
    assert load(sample.mill_encounter()).state == fresh, (
        "resources/encounters/jade-river-mill.afenc is stale: run python -m afdesk.storage.samples"
    )
    path = sample.write_mill(tmp_path / "jade-river-mill.afenc")
    assert path.read_bytes() == sample.mill_encounter().read_bytes()


def test_the_mill_shows_the_editor():
    enc = Encounter.from_state(load(sample.mill_encounter()).state)
    assert enc.zone.size() == (3, 3) and EMPTY not in {t.kind for t in enc.zone.tiles}
    assert {"the mill race", "the mill", "the landing"} <= set(segment_names(enc.zone))
    race = enc.terrain_at((10, 4))
    assert race.water and race.slippery
    mill = enc.terrain_at((7, 2))
    assert mill.cover and mill.altitude >= 1 and mill.custom[-1].name == "Millstones"
    assert any(e.text.startswith("Zone: the Hills tile at (0, 0) turns 90°") for e in enc.log)
    assert [c.id for c in reserve_groups(enc)[RESERVE]] == [
        "smuggler-1",
        "smuggler-2",
        "smuggler-3",
    ]
    assert not any(player_visible(enc, c.id) for c in reserve_groups(enc)[RESERVE])
    assert sum(c.side.value == "band" for c in enc.roster()) == 4
