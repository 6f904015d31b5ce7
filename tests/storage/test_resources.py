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


def test_village_council_is_what_the_sample_builds(tmp_path):
    """The dispute sample (P2, P3): three platforms, a dozen villagers in two groups."""
    fresh = sample.build_council().state()
    assert load(sample.council_encounter()).state == fresh, (
        "resources/encounters/village-council.afenc is stale: run python -m afdesk.storage.samples"
    )
    path = sample.write_council(tmp_path / "village-council.afenc")
    assert path.read_bytes() == sample.council_encounter().read_bytes()
    d = fresh.dispute
    assert fresh.mode.value == "dispute" and len(d.platforms) == 3
    groups = [e for e in d.entries if e.group and e.side == ""]
    assert len(groups) == 2 and sum(e.count for e in groups) == 12
    assert {e.id for e in d.entries if e.side and not e.player} == {"bao", "lan"}


def test_smugglers_warehouse_is_what_the_sample_builds(tmp_path):
    """The infiltration sample (N1, N2): two hidden intruders, three guardians, two
    objectives; no decoy in a tile holding a guardian."""
    fresh = sample.build_warehouse().state()
    assert load(sample.warehouse_encounter()).state == fresh, (
        "resources/encounters/smugglers-warehouse.afenc is stale: run "
        "python -m afdesk.storage.samples"
    )
    path = sample.write_warehouse(tmp_path / "smugglers-warehouse.afenc")
    assert path.read_bytes() == sample.warehouse_encounter().read_bytes()
    inf = fresh.infiltration
    assert fresh.mode.value == "infiltration"
    assert len(inf.intruders) == 2 and len(inf.guardians) == 3 and len(inf.objectives) == 2
    people = {c.id: c for c in fresh.combatants}
    guard_tiles = {(people[g].area[0] // 5, people[g].area[1] // 5) for g in inf.guardians}
    for i in inf.intruders:
        assert people[i].hidden and len(people[i].decoys) == 2
        assert all((d[0] // 5, d[1] // 5) not in guard_tiles for d in people[i].decoys)


def test_afdesk_check_accepts_the_new_samples():
    import io

    from afdesk.storage.check import check_files

    out = io.StringIO()
    paths = [str(sample.council_encounter()), str(sample.warehouse_encounter())]
    assert check_files(paths, out) == 0, out.getvalue()
    assert out.getvalue().count(": ok") == 2
