"""Schema versions: every version's fixture loads; a migration chain upgrades old files
(tested with a migration injected here); the first save over an older file keeps it as
``NAME.vN.bak``; newer files are refused untouched."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from afdesk.encounter.state import Mode
from afdesk.storage import LoadError, decode, encode, load, save
from afdesk.storage import migrations as mig
from afdesk.storage.files import backup_path, peek_version

FIXTURES = Path(__file__).parent / "fixtures"


def test_every_version_has_a_fixture():
    names = sorted(p.name for p in FIXTURES.glob("v*.afenc"))
    assert names == [f"v{n}.afenc" for n in range(1, mig.CURRENT_VERSION + 1)]


def test_v1_fixture_loads():
    """Saved by afdesk at schema version 1 (a played session: contests with dice, a deal,
    cards, moves, states). It must load, through whatever migrations exist, forever."""
    loaded = load(FIXTURES / "v1.afenc")
    s = loaded.state
    assert loaded.schema_version == 1
    assert s.meta.name == "Ambush at the river ford"
    assert s.meta.ruleset == "af-classic"
    assert s.mode is Mode.INFILTRATION
    assert [c.id for c in s.combatants][:4] == ["huang", "chen", "lan", "bao"]
    assert len(s.combatants) == 10
    assert len(s.log) == 274
    assert (s.turn.exchange, s.turn.round) == (2, 2)
    kinds = {type(e.op).__name__ for e in s.log}
    assert {"ResolveContest", "DealHands", "PlayCards", "NextTurn", "MoveCombatant"} <= kinds
    contest = next(e.op for e in s.log if type(e.op).__name__ == "ResolveContest")
    assert contest.record.attack is not None and contest.record.attack.dice


def _stand_in(doc: dict) -> dict:
    """A stand-in for a future migration, with a visible effect: the next version of this
    test marks the GM's notes as migrated."""
    doc = dict(doc)
    doc["meta"] = {**doc["meta"], "notes": "[migrated] " + doc["meta"].get("notes", "")}
    return doc


NOW = mig.CURRENT_VERSION
LATEST = FIXTURES / f"v{NOW}.afenc"
"""A file saved by this afdesk (a played session)."""


@pytest.fixture
def next_version(monkeypatch):
    """afdesk as if version NOW + 1 were current, with one more migration after the real
    ones."""
    monkeypatch.setattr(mig, "CURRENT_VERSION", NOW + 1)
    monkeypatch.setattr(mig, "MIGRATIONS", {**mig.MIGRATIONS, NOW: _stand_in})


def test_old_file_is_migrated_on_load(tmp_path, next_version):
    path = tmp_path / "old.afenc"
    shutil.copy(LATEST, path)
    loaded = load(path)
    assert loaded.schema_version == NOW
    assert loaded.state.meta.notes.startswith("[migrated] ")
    assert path.read_bytes() == LATEST.read_bytes(), "loading wrote to disk"
    header = b'{"format":"afdesk-encounter","schema_version":%d,' % (NOW + 1)
    assert encode(loaded.state).startswith(header)


def test_first_save_over_an_older_file_keeps_a_backup(tmp_path, next_version):
    path = tmp_path / "old.afenc"
    shutil.copy(LATEST, path)
    original = path.read_bytes()
    loaded = load(path)
    save(path, loaded.state, on_disk_version=loaded.schema_version)
    bak = tmp_path / f"old.afenc.v{NOW}.bak"
    assert backup_path(path, NOW) == bak
    assert bak.read_bytes() == original
    assert peek_version(path) == NOW + 1
    again = load(path)
    assert again.schema_version == NOW + 1
    assert again.state == loaded.state
    # Later saves leave the backup alone, even if the GUI still says the old version.
    bak.write_bytes(b"kept")
    save(path, again.state, on_disk_version=NOW)
    save(path, again.state)
    assert bak.read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.afenc", bak.name]


def test_backup_without_the_hint(tmp_path, next_version):
    """The version on disk is read from the file when the GUI does not say it."""
    path = tmp_path / "old.afenc"
    shutil.copy(LATEST, path)
    save(path, load(path).state)
    assert (tmp_path / f"old.afenc.v{NOW}.bak").read_bytes() == LATEST.read_bytes()


def test_no_backup_when_saving_a_current_file(tmp_path):
    path = tmp_path / "new.afenc"
    shutil.copy(LATEST, path)
    save(path, load(path).state, on_disk_version=NOW)
    assert [p.name for p in tmp_path.iterdir()] == ["new.afenc"]


def test_the_first_save_over_a_version_1_file_keeps_it(tmp_path):
    path = tmp_path / "old.afenc"
    shutil.copy(FIXTURES / "v1.afenc", path)
    loaded = load(path)
    assert save(path, loaded.state, on_disk_version=1) == NOW
    assert (tmp_path / "old.afenc.v1.bak").read_bytes() == (FIXTURES / "v1.afenc").read_bytes()
    assert load(path).state == loaded.state


def test_migrations_chain_in_order(monkeypatch):
    seen = []

    def step(n):
        def migrate(doc):
            seen.append(n)
            return {**doc, "meta": {**doc["meta"], "name": doc["meta"]["name"] + f" v{n + 1}"}}

        return migrate

    monkeypatch.setattr(mig, "CURRENT_VERSION", 4)
    monkeypatch.setattr(mig, "MIGRATIONS", {1: step(1), 2: step(2), 3: step(3)})
    doc = json.loads((FIXTURES / "v1.afenc").read_bytes())
    doc["schema_version"] = 2
    state = decode(json.dumps(doc).encode())
    assert seen == [2, 3]
    assert state.meta.name == "Ambush at the river ford v3 v4"


def test_a_missing_migration_is_a_load_error(monkeypatch):
    monkeypatch.setattr(mig, "CURRENT_VERSION", 3)
    monkeypatch.setattr(mig, "MIGRATIONS", {1: _stand_in})
    with pytest.raises(LoadError, match="cannot upgrade files from version 2 to 3"):
        decode((FIXTURES / "v1.afenc").read_bytes())


def test_a_failing_migration_is_a_load_error(monkeypatch):
    def broken(doc):
        return doc["no such field"]

    monkeypatch.setattr(mig, "CURRENT_VERSION", 2)
    monkeypatch.setattr(mig, "MIGRATIONS", {1: broken})
    with pytest.raises(LoadError) as info:
        decode((FIXTURES / "v1.afenc").read_bytes(), source="old.afenc")
    assert str(info.value).startswith("old.afenc: version 1 file: upgrading from version 1 to 2")
    assert "KeyError" in str(info.value)


def test_a_migration_result_is_validated(monkeypatch):
    def wrong(doc):
        return {**doc, "mode": 3}

    monkeypatch.setattr(mig, "CURRENT_VERSION", 2)
    monkeypatch.setattr(mig, "MIGRATIONS", {1: wrong})
    with pytest.raises(LoadError, match=r"mode: expected text, got 3 \(after upgrading"):
        decode((FIXTURES / "v1.afenc").read_bytes())


def test_duplicate_keys_are_refused_in_old_files_too(next_version):
    data = LATEST.read_bytes()
    data = data.replace(b'"mode":', b'"mode":"battle","mode":', 1)
    with pytest.raises(LoadError, match='the key "mode" appears twice'):
        decode(data)


def test_a_newer_file_is_never_overwritten_without_a_backup(tmp_path):
    """Saving over a file from a newer afdesk (an explicit save-as) keeps it aside."""
    doc = json.loads((FIXTURES / "v1.afenc").read_bytes())
    doc["schema_version"] = NOW + 1
    path = tmp_path / "future.afenc"
    path.write_bytes(json.dumps(doc).encode())
    newer = path.read_bytes()
    save(path, load(FIXTURES / "v1.afenc").state)
    assert (tmp_path / f"future.afenc.v{NOW + 1}.bak").read_bytes() == newer


def test_save_returns_the_version_it_wrote(tmp_path, next_version):
    path = tmp_path / "x.afenc"
    assert save(path, load(LATEST).state) == NOW + 1


def test_a_version_2_file_opens_unchanged_with_an_empty_chase():
    """Version 3 adds the chase's part: a version-2 file has none and opens as it
    was, its chase empty (the default), and saves as version 3 with nothing else changed
    but the empty chase written out."""
    from afdesk.encounter.chase.state import ChaseState

    raw = (FIXTURES / "v2.afenc").read_bytes()
    loaded = load(FIXTURES / "v2.afenc")
    assert loaded.schema_version == 2
    assert loaded.state.chase == ChaseState()
    doc = json.loads(raw)
    del doc["format"], doc["schema_version"]
    assert mig.migrate_2_to_3(doc) == doc
    again = json.loads(encode(loaded.state))
    assert again.pop("schema_version") == mig.CURRENT_VERSION
    import msgspec

    from afdesk.encounter.dispute.state import DisputeState
    from afdesk.encounter.infiltration.state import InfiltrationState

    assert msgspec.convert(again.pop("dispute"), DisputeState) == DisputeState()
    assert msgspec.convert(again.pop("infiltration"), InfiltrationState) == InfiltrationState()

    assert msgspec.convert(again.pop("chase"), ChaseState) == ChaseState()
    from afdesk.encounter.art import MapArt
    from afdesk.encounter.fog import Fog

    assert msgspec.convert(again.pop("art"), MapArt) == MapArt()

    assert msgspec.convert(again.pop("fog"), Fog) == Fog()  # the optional part
    assert again == {k: v for k, v in json.loads(raw).items() if k != "schema_version"}


def test_v3_fixture_is_a_played_chase():
    """Saved by afdesk at schema version 3: the rooftop chase played for one exchange."""
    loaded = load(FIXTURES / "v3.afenc")
    s = loaded.state
    assert loaded.schema_version == 3 and s.mode is Mode.CHASE
    assert {p.id for p in s.chase.participants} == {"huang", "mei", "runner-1", "runner-2", "cart"}
    assert {p.result for p in s.chase.participants} <= {"escaped", "out", "captor"} | {
        f"captured by {p.id}" for p in s.chase.participants
    }
    kinds = {type(e.op).__name__ for e in s.log}
    assert {"RollPursuit", "ChaseCheck", "ResolveChase", "AddVehicle"} <= kinds


def test_v4_fixture_holds_a_countdown_rolled_this_round():
    """Saved by afdesk at schema version 4: the v3 chase with a countdown whose die was
    rolled this round (H4: once a round); a version-3 file opens with it not rolled."""
    from afdesk.encounter.chase.ops import RollCountdown
    from afdesk.encounter.model import Encounter

    loaded = load(FIXTURES / "v4.afenc")
    assert loaded.schema_version == 4
    c = loaded.state.chase.countdown
    assert (c.rows, c.rows_removed, c.rolled) == (True, 2, True)
    assert Encounter.from_state(loaded.state).refusal(RollCountdown((2,)))
    v3 = load(FIXTURES / "v3.afenc").state.chase.countdown
    assert not v3.rolled
    doc = json.loads((FIXTURES / "v3.afenc").read_bytes())
    del doc["format"], doc["schema_version"]
    assert mig.migrate_3_to_4(doc) == doc


def test_a_version_4_file_opens_unchanged_with_no_dispute_or_infiltration():
    """Version 5 adds the dispute's and the infiltration's parts (P1-P9, N1-N8): a
    version-4 file has neither, opens as it was with both empty, and plays as before."""
    from afdesk.encounter.dispute.state import DisputeState
    from afdesk.encounter.infiltration.state import InfiltrationState

    raw = (FIXTURES / "v4.afenc").read_bytes()
    loaded = load(FIXTURES / "v4.afenc")
    assert loaded.schema_version == 4
    assert loaded.state.dispute == DisputeState()
    assert loaded.state.infiltration == InfiltrationState()
    doc = json.loads(raw)
    del doc["format"], doc["schema_version"]
    assert mig.migrate_4_to_5(doc) == doc
    again = json.loads(encode(loaded.state))
    assert again.pop("schema_version") == mig.CURRENT_VERSION
    again.pop("dispute"), again.pop("infiltration"), again.pop("art")
    if "fog" not in json.loads(raw):
        again.pop("fog")  # the optional part, written out as empty
    assert again == {k: v for k, v in json.loads(raw).items() if k != "schema_version"}


def test_v5_fixture_is_a_played_dispute():
    """Saved by afdesk at schema version 5: the village council played for one round (a
    Convince of the audience with its dice, tension, a group split, P3-P7)."""
    loaded = load(FIXTURES / "v5.afenc")
    s = loaded.state
    assert loaded.schema_version == 5 and s.mode is Mode.DISPUTE
    d = s.dispute
    assert [p.id for p in d.platforms] == ["mill", "bridge", "magistrate"]
    assert d.tension == 1 and d.present() == 15
    assert d.support() == {"mill": 1, "bridge": 3, "magistrate": 3}
    convince = next(e.op for e in s.log if type(e.op).__name__ == "DisputeConvince")
    assert convince.attack is not None and convince.attack.dice


def test_a_version_5_file_opens_unchanged_with_no_map_art():
    """Version 6 adds map art (the GM's pictures under the tiles, E9): a version-5 file
    has none, opens as it was with no art, and writes the same fields plus the empty art."""
    from afdesk.encounter.art import MapArt

    raw = (FIXTURES / "v5.afenc").read_bytes()
    loaded = load(FIXTURES / "v5.afenc")
    assert loaded.schema_version == 5
    assert loaded.state.art == MapArt()
    doc = json.loads(raw)
    del doc["format"], doc["schema_version"]
    assert mig.migrate_5_to_6(doc) == doc
    again = json.loads(encode(loaded.state))
    assert again.pop("schema_version") == 6
    assert again.pop("art") == {"tiles": []}
    assert again == {k: v for k, v in json.loads(raw).items() if k != "schema_version"}


def test_v6_fixture_holds_map_art_under_two_tiles():
    """Saved by afdesk at schema version 6: the v5 council with a PNG under the tiles at
    (0, 0) and (1, 0); the bytes come back exactly, and saving writes the same file."""
    from tests.pictures import png_bytes

    loaded = load(FIXTURES / "v6.afenc")
    art = loaded.state.art
    assert loaded.schema_version == 6
    assert [(a.col, a.row, a.mime, a.width, a.height) for a in art.tiles] == [
        (0, 0, "image/png", 8, 8),
        (1, 0, "image/png", 8, 8),
    ]
    assert art.at(0, 0).data == png_bytes(8, 8)
    assert encode(loaded.state) == (FIXTURES / "v6.afenc").read_bytes()
