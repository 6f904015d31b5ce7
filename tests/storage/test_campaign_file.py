"""Campaign.afcamp and character files: round trips, migrations, the published
schema, ``afdesk check``, atomic saves, the journal, and bad files refused with the place."""

from __future__ import annotations

import io
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afdesk.encounter.campaign.edits import PutCharacter, PutEncounter, StartSession
from afdesk.encounter.campaign.history import CampaignHistory
from afdesk.encounter.campaign.merge import merge
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.campaign.state import Campaign, Planned
from afdesk.encounter.combatant import Facet, Side, Speeds, State, StateKind
from afdesk.storage import campaign as store
from afdesk.storage import campaign_journal as cj
from afdesk.storage import campaign_schema
from afdesk.storage.check import check_files
from afdesk.storage.errors import LoadError, SaveError


def sample() -> Campaign:
    return Campaign(
        name="The river",
        characters=(
            Character(
                id="huang",
                name="Huang",
                role=Role.BAND,
                grit=2,
                hits=1,
                shifts=1,
                days_since_rest=2,
                states=(State(StateKind.EXHAUSTED), State(StateKind.WOUNDED, markers=2)),
                notes="the monk",
            ),
            Character(
                id="bandit-archer",
                name="Bandit archer",
                role=Role.TEMPLATE,
                side=Side.OPPONENT,
                facets=(Facet("fight", 3), Facet("aim", 4)),
                speeds=Speeds(run=3),
                reach=1,
                weapon_range=6,
                will=1,
                notes="shoots from the reeds",
            ),
        ),
        encounters=(Planned(id="ford", title="The ford", file="ford.afenc"),),
        session=2,
        referee_shifts=1,
    )


def test_round_trip_keeps_everything(tmp_path):
    camp = sample()
    store.save_campaign(tmp_path, camp)
    loaded = store.load_campaign(tmp_path)
    assert loaded.campaign == camp
    assert loaded.schema_version == store.CURRENT_VERSION
    assert (tmp_path / "campaign.afcamp").read_bytes() == store.encode_campaign(camp)
    doc = json.loads((tmp_path / "campaign.afcamp").read_text())
    assert (doc["format"], doc["schema_version"]) == ("afdesk-campaign", 2)


def test_characters_export_and_import_round_trip(tmp_path):
    camp = sample()
    path = tmp_path / "bestiary.afchars"
    store.export_characters(path, camp.bestiary)
    assert store.import_characters(path) == camp.bestiary
    one = tmp_path / "huang.afchars"
    store.export_characters(one, [camp.character("huang")])
    back = store.import_characters(one)
    assert back == [camp.character("huang")]
    # Imported into another campaign that has a Huang already: merged by name, id kept.
    other = Campaign(characters=(Character(id="h1", name="huang", role=Role.BAND),))
    edits = merge(other, back)
    h = CampaignHistory(other)
    h.push(edits)
    assert [c.id for c in h.campaign.band] == ["h1"]
    assert h.campaign.character("h1").notes == "the monk"


def test_published_schema_is_current():
    assert (
        campaign_schema.schema_path().read_text(encoding="utf-8") == campaign_schema.schema_text()
    ), "resources/schema is stale: run python -m afdesk.storage.schema"
    s = campaign_schema.schema()
    assert s["properties"]["format"] == {"const": "afdesk-campaign"}
    assert {"characters", "encounters", "session", "referee_shifts"} <= set(s["properties"])
    assert "Character" in s["$defs"] and "Planned" in s["$defs"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the file is empty"),
        ("[1]", "this is not an afdesk campaign: expected an object"),
        ('{"schema_version": 1}', 'it has no "format" field'),
        ('{"format": "afdesk-encounter", "schema_version": 3}', 'expected "afdesk-campaign"'),
        ('{"format": "afdesk-campaign", "schema_version": 9}', "saved by a newer afdesk"),
        ('{"format": "afdesk-campaign", "schema_version": "x"}', "schema_version: expected"),
        (
            '{"format": "afdesk-campaign", "schema_version": 1, "session": "two"}',
            "session: expected",
        ),
        (
            '{"format": "afdesk-campaign", "schema_version": 1, "characters": '
            '[{"id": "a", "name": "A", "role": "band", "grit": "lots"}]}',
            'characters[0].grit: expected a whole number, got "lots"',
        ),
        (
            '{"format": "afdesk-campaign", "schema_version": 1, "characters": '
            '[{"id": "a", "name": "A", "role": "pet"}]}',
            'characters[0].role: "pet" is not one of the allowed values',
        ),
        (
            '{"format": "afdesk-campaign", "schema_version": 1, "characters": '
            '[{"id": "a", "name": "A", "role": "band", "grit": -2}]}',
            "characters[0]: A's grit",
        ),
        (
            '{"format": "afdesk-campaign", "schema_version": 1, "characters": '
            '[{"id": "a", "name": "A", "role": "band"}, {"id": "a", "name": "B", "role": "band"}]}',
            "characters[1].id: the id 'a' is given twice",
        ),
        (
            '{"format": "afdesk-campaign", "schema_version": 1, "encounters": '
            '[{"id": "e", "title": "E", "file": "../elsewhere.afenc"}]}',
            "encounters[0].file",
        ),
        (
            '{"format": "afdesk-campaign", "schema_version": 1, "last_running": "nope"}',
            "last_running",
        ),
        ('{"format": "afdesk-campaign", "format": "x", "schema_version": 1}', "appears twice"),
        (
            '{"format": "afdesk-campaign", "schema_version": 1,',
            "the file ends before its JSON is complete",
        ),
    ],
)
def test_bad_campaign_files_say_what_and_where(tmp_path, text, words):
    path = tmp_path / "campaign.afcamp"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LoadError) as err:
        store.load_campaign(tmp_path)
    assert words in str(err.value)
    assert str(err.value).startswith("campaign.afcamp: ")
    assert path.read_text(encoding="utf-8") == text, "nothing changed"


def test_migrations_run_in_order(tmp_path, monkeypatch):
    """A version-2 file under a future version 3: the chain upgrades it on load."""
    camp = sample()
    store.save_campaign(tmp_path, camp)

    def rename(doc):
        doc["name"] = doc["name"].upper()
        return doc

    monkeypatch.setattr(store, "CURRENT_VERSION", 3)
    monkeypatch.setitem(store.MIGRATIONS, 2, rename)
    loaded = store.load_campaign(tmp_path)
    assert (loaded.campaign.name, loaded.schema_version) == ("THE RIVER", 2)
    monkeypatch.delitem(store.MIGRATIONS, 2)
    with pytest.raises(LoadError, match="no upgrade from version 2"):
        store.load_campaign(tmp_path)


def test_afdesk_check_knows_campaigns_and_character_files(tmp_path):
    import shutil

    from afdesk.paths import sample_encounter

    store.save_campaign(tmp_path, sample())
    shutil.copyfile(sample_encounter(), tmp_path / "ford.afenc")  # the encounter it lists
    store.export_characters(tmp_path / "b.afchars", sample().bestiary)
    bad = tmp_path / "bad" / "campaign.afcamp"
    bad.parent.mkdir()
    bad.write_text('{"format": "afdesk-campaign", "schema_version": 2, "session": []}')
    out = io.StringIO()
    status = check_files(
        [str(tmp_path), str(tmp_path / "campaign.afcamp"), str(tmp_path / "b.afchars"), str(bad)],
        out=out,
    )
    lines = out.getvalue().splitlines()
    assert status == 2
    assert lines[:3] == [
        f"{tmp_path}: ok",
        f"{tmp_path / 'campaign.afcamp'}: ok",
        f"{tmp_path / 'b.afchars'}: ok",
    ]
    assert lines[3] == f"{bad}: session: expected a whole number, got an empty list"


def test_a_failed_save_leaves_the_old_file(tmp_path, monkeypatch):
    store.save_campaign(tmp_path, sample())
    before = (tmp_path / "campaign.afcamp").read_bytes()

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("afdesk.storage.atomic.write_all", full)
    with pytest.raises(SaveError, match="the disk is full"):
        store.save_campaign(tmp_path, sample().replace(name="Other"))
    assert (tmp_path / "campaign.afcamp").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.afcamp"]


def test_journal_gives_back_changes_the_file_missed(tmp_path):
    camp = sample()
    digest = store.save_campaign(tmp_path, camp)
    h = CampaignHistory(camp)
    journal = cj.CampaignJournal.start(tmp_path, camp, digest)
    journal.follow(h)
    h.push(PutCharacter(Character(id="chen", name="Chen", role=Role.BAND)))
    h.push(StartSession())
    h.undo()
    h.push(PutEncounter(Planned(id="camp", title="The camp", file="camp.afenc")))
    # afdesk dies here: the file never got these changes. Another afdesk would see the
    # journal as in use while the lock is held.
    assert cj.recover(tmp_path) is None
    os.close(journal._fd)
    got = cj.recover(tmp_path)
    assert got is not None and got.changes == 4
    assert got.campaign == h.campaign
    # Recovered, saved, a fresh journal, a clean close: nothing to recover, none left.
    cj.discard(tmp_path)
    journal2 = cj.CampaignJournal.start(
        tmp_path, h.campaign, store.save_campaign(tmp_path, h.campaign)
    )
    assert cj.recover(tmp_path) is None
    journal2.close(clean=True)
    assert not cj.journal_path(tmp_path).exists()


def test_journal_is_not_replayed_onto_a_changed_file(tmp_path):
    camp = sample()
    digest = store.save_campaign(tmp_path, camp)
    h = CampaignHistory(camp)
    journal = cj.CampaignJournal.start(tmp_path, camp, digest)
    journal.follow(h)
    h.push(StartSession())
    journal.close(clean=False)
    store.save_campaign(tmp_path, camp.replace(name="Changed elsewhere"))
    with pytest.raises(LoadError, match="was changed after the journal began"):
        cj.recover(tmp_path)


_names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)
_counts = st.integers(0, 30)


@st.composite
def _character(draw, i: int) -> Character:
    grit_max = draw(_counts)
    return Character(
        id=f"c{i}",
        name=draw(_names).strip() or "x",
        role=draw(st.sampled_from(list(Role))),
        side=draw(st.sampled_from(list(Side))),
        facets=tuple(Facet(n, draw(st.integers(0, 9))) for n in ("fight", "move", "aim")),
        speeds=Speeds(run=draw(_counts), fly=draw(_counts)),
        reach=draw(_counts),
        weapon_range=draw(_counts),
        grit=draw(st.integers(0, grit_max)),
        grit_max=grit_max,
        hits=draw(_counts),
        shifts=draw(_counts),
        will=draw(_counts),
        days_since_rest=draw(_counts),
        states=tuple(
            State(k, markers=draw(st.integers(0, 5)))
            for k in draw(st.sets(st.sampled_from([StateKind.EXHAUSTED, StateKind.WOUNDED])))
        ),
        notes=draw(st.text(max_size=30)),
    )


@st.composite
def _campaigns(draw) -> Campaign:
    n = draw(st.integers(0, 5))
    return Campaign(
        name=draw(_names),
        characters=tuple(draw(_character(i)) for i in range(n)),
        encounters=tuple(
            Planned(id=f"e{i}", title=draw(_names), file=f"e{i}.afenc", runs=draw(_counts))
            for i in range(draw(st.integers(0, 3)))
        ),
        session=draw(st.integers(1, 40)),
        referee_shifts=draw(_counts),
    )


@settings(max_examples=40)
@given(_campaigns())
def test_any_campaign_survives_the_file_and_the_character_files(camp):
    """Property: what afdesk writes, it reads back equal (campaign and character files)."""
    back, version = store.decode_campaign(store.encode_campaign(camp))
    assert back == camp and version == store.CURRENT_VERSION
    data = store.encode_characters(camp.characters)
    assert tuple(store.decode_characters(data, source="x")) == camp.characters


def test_a_campaign_open_elsewhere_is_in_use(tmp_path):
    digest = store.save_campaign(tmp_path, sample())
    assert not cj.in_use(tmp_path)
    journal = cj.CampaignJournal.start(tmp_path, sample(), digest)
    assert cj.in_use(tmp_path)
    journal.close(clean=True)
    assert not cj.in_use(tmp_path)
