"""Campaign files of version 1 (before the one character sheet) open with the same meaning
under version 2, and character files of version 1 still import."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from afdesk.encounter.campaign.carry import carry_over
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.weapons import Attack
from afdesk.storage import campaign as store
from afdesk.storage import campaign_schema
from afdesk.storage.migrations import migrate_campaign_1_to_2

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_version_1_campaign_opens_with_the_same_meaning(tmp_path):
    shutil.copy(FIXTURES / "campaign-v1.afcamp", tmp_path / "campaign.afcamp")
    loaded = store.load_campaign(tmp_path)
    camp = loaded.campaign
    assert loaded.schema_version == 1
    assert store.CURRENT_VERSION == 2
    chen = camp.character("chen")
    assert (chen.grit, chen.hits, chen.shifts, chen.days_since_rest) == (2, 1, 2, 1)
    assert chen.states == (State(StateKind.WOUNDED, 2, note="arrow in the shoulder"),)
    assert (chen.attacks, chen.notes) == ((), "carries the map")
    assert [c.role for c in camp.characters] == [Role.BAND, Role.RECURRING, Role.TEMPLATE]
    ford = camp.encounter("ford")
    assert (ford.at_run, ford.referee_at_run, ford.running) == ((), None, "ford.run1.afenc")
    # A run kept no copy in version 1: carry-over compares with the roster, as it did.
    copy = chen.combatant("chen").replace(hits=2)
    lines = carry_over(camp, [copy], ford)
    assert [(ln.field, ln.before, ln.after) for ln in lines] == [("hits", 1, 2)]
    # Saved again it is a version-2 file that reads back the same.
    store.save_campaign(tmp_path, camp)
    doc = json.loads((tmp_path / "campaign.afcamp").read_text())
    assert doc["schema_version"] == 2
    assert store.load_campaign(tmp_path).campaign == camp


def test_the_migration_rewrites_nothing():
    raw = json.loads((FIXTURES / "campaign-v1.afcamp").read_text())
    body = {k: v for k, v in raw.items() if k not in ("format", "schema_version")}
    assert migrate_campaign_1_to_2(dict(body)) == body
    assert store.MIGRATIONS[1] is migrate_campaign_1_to_2


def test_character_files_keep_their_weapons_and_version_1_files_still_import(tmp_path):
    crossbow = Attack("crossbow", 3, reach=0, range=8)
    bandit = Character(id="bandit", name="Bandit", role=Role.TEMPLATE, attacks=(crossbow,))
    store.export_characters(tmp_path / "b.afchars", [bandit])
    assert json.loads((tmp_path / "b.afchars").read_text())["schema_version"] == 2
    assert store.import_characters(tmp_path / "b.afchars") == [bandit]
    old = {
        "format": "afdesk-characters",
        "schema_version": 1,
        "characters": [{"id": "wolf", "name": "Wolf", "role": "template", "grit": 2}],
    }
    (tmp_path / "old.afchars").write_text(json.dumps(old))
    (wolf,) = store.import_characters(tmp_path / "old.afchars")
    assert (wolf.name, wolf.grit, wolf.attacks) == ("Wolf", 2, ())


def test_the_bundled_campaign_schemas_are_current():
    assert campaign_schema.schema_path().name == "afdesk-campaign.v2.schema.json"
    assert (
        campaign_schema.schema_path().read_text(encoding="utf-8") == campaign_schema.schema_text()
    )
    assert (campaign_schema.schema_path().parent / "afdesk-campaign.v1.schema.json").exists()
    props = campaign_schema.schema()["$defs"]["Character"]["properties"]
    assert "attacks" in props and "days_since_rest" in props
