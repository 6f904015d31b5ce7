"""The bundled files: the published JSON Schema and the sample encounters are never stale."""

from __future__ import annotations

import json

from afdesk.paths import resource_dir, sample_encounter
from afdesk.storage import encode, load
from afdesk.storage import migrations as mig
from afdesk.storage import samples as sample
from afdesk.storage import schema as schema_module
from afdesk.storage.samples import write_river_ford


def test_published_schema_is_current():
    path = schema_module.schema_path()
    assert path.name == f"afdesk-encounter.v{mig.CURRENT_VERSION}.schema.json"
    assert path.read_text(encoding="utf-8") == schema_module.schema_text(), (
        "resources/schema is stale: run python -m afdesk.storage.schema"
    )


def test_schema_describes_the_file():
    s = schema_module.schema()
    assert s["properties"]["format"] == {"const": "afdesk-encounter"}
    assert s["properties"]["schema_version"] == {"const": mig.CURRENT_VERSION}
    assert {"format", "schema_version", "meta", "zone", "combatants", "log"} <= set(s["properties"])
    assert {"format", "schema_version", "combatants"} <= set(s["required"])
    # Every Op is described, tagged by "op".
    assert "ResolveContest" in s["$defs"] and "MoveCombatant" in s["$defs"]
    refs = json.dumps(s)
    for name in s["$defs"]:
        assert f'"#/$defs/{name}"' in refs, f"{name} is never used"


def test_write_schema_regenerates_the_file(tmp_path):
    path = schema_module.write_schema(tmp_path / "schema.json")
    assert path.read_text(encoding="utf-8") == schema_module.schema_text()
    assert json.loads(path.read_text(encoding="utf-8"))["title"].startswith("afdesk encounter")


def test_every_bundled_encounter_loads():
    paths = sorted((resource_dir() / "encounters").glob("*.afenc"))
    assert sample_encounter() in paths
    for path in paths:
        loaded = load(path)
        assert loaded.schema_version == mig.CURRENT_VERSION, path.name
        assert encode(loaded.state) == path.read_bytes(), f"{path.name} is not as afdesk saves"


def test_river_ford_is_what_the_sample_builds():
    fresh = sample.build().state()
    assert load(sample_encounter()).state == fresh, (
        "resources/encounters/river-ford.afenc is stale: run python -m afdesk.storage.samples"
    )
    assert sample_encounter().read_bytes() == encode(fresh)


def test_samples_module_writes_the_file(tmp_path):
    path = write_river_ford(tmp_path / "encounters" / "river-ford.afenc")
    assert path.read_bytes() == sample_encounter().read_bytes()


def test_rooftop_chase_is_what_the_sample_builds(tmp_path):
    from afdesk.paths import chase_sample_encounter
    from afdesk.storage.samples import write_rooftop_chase

    fresh = sample.build_chase().state()
    assert load(chase_sample_encounter()).state == fresh, (
        "resources/encounters/rooftop-chase.afenc is stale: run python -m afdesk.storage.samples"
    )
    path = write_rooftop_chase(tmp_path / "rooftop-chase.afenc")
    assert path.read_bytes() == chase_sample_encounter().read_bytes()
    assert fresh.mode.value == "chase"
    assert {v.id for v in fresh.chase.vehicles} == {"cart"}
    assert len(fresh.chase.stages_ahead) == 3
