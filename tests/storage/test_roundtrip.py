"""A saved encounter loads back exactly, and saving it again writes the same bytes."""

from __future__ import annotations

import contextlib
import json
import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afdesk.encounter.combatant import Combatant, Side, State, StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import Rename, SetNotes, SetSettings
from afdesk.encounter.ops.reflex import deal_hands
from afdesk.encounter.ops.roster import AddCombatant, EditCombatant
from afdesk.encounter.snapshot import EncounterState
from afdesk.encounter.state import Settings
from afdesk.encounter.zone import grid_zone
from afdesk.storage import LoadError, SaveError, decode, encode, load, migrations, save
from afdesk.storage.meaning import FACING, MAX_COUNT
from afdesk.storage.samples import build
from afdesk.storage.tilesets import tileset, tilesets
from tests.storage.builders import random_encounter, random_session

# suppress_health_check replaces the profile's list (tests/conftest.py) rather than adding to
# it: too_slow is named again, or a loaded machine fails the run on how long drawing took.
RUNS = settings(
    max_examples=60,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _round_trip(tmp_path, state: EncounterState) -> None:
    path = tmp_path / "fight.afenc"
    save(path, state)
    first = path.read_bytes()
    loaded = load(path)
    assert loaded.state == state
    assert loaded.schema_version == migrations.CURRENT_VERSION
    assert loaded.path == path
    save(path, loaded.state)
    assert path.read_bytes() == first, "re-saving an unchanged encounter changed the bytes"
    assert encode(state) == first
    # The continued encounter is the same one: the model takes the loaded state as is.
    assert Encounter.from_state(loaded.state).state() == state


@RUNS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_round_trip_of_played_encounters(tmp_path, seed, steps):
    """Random legal play on the sample: deals, cards, moves, contests with dice, states."""
    _round_trip(tmp_path, random_encounter(seed, steps).state())


# Text a GM may type anywhere, including what JSON must escape. Hypothesis' text leaves
# out lone surrogates, which cannot be saved (see test_unencodable_text_is_a_save_error).
text = st.text(max_size=40)
names = st.text(min_size=1, max_size=20).filter(lambda s: s.strip())
# Within the limits of the format (afdesk.storage.meaning); beyond them a file is refused.
facings = st.floats(FACING.low, FACING.high, allow_nan=False, allow_infinity=False)
counters = st.integers(0, MAX_COUNT)

combatants = st.builds(
    Combatant,
    id=st.text(min_size=1, max_size=12),
    name=names,
    side=st.sampled_from(Side),
    group=text,
    area=st.none() | st.tuples(st.integers(0, 14), st.integers(0, 14)),
    facing=facings,
    reach=st.integers(0, 5),
    grit=counters,
    grit_max=counters,
    hits=counters,
    notes=text,
    states=st.lists(
        st.builds(
            State,
            kind=st.sampled_from(StateKind),
            markers=st.integers(0, 9),
            until=st.none() | st.integers(-5, 50),
            note=text,
        ),
        max_size=3,
        unique_by=lambda s: s.kind,
    ).map(tuple),
    exited=text,
)


@RUNS
@given(
    tileset_id=st.sampled_from(sorted(tilesets())),
    cols=st.integers(1, 3),
    rows=st.integers(1, 3),
    name=names,
    notes=text,
    description=text,
    people=st.lists(combatants, max_size=8),
    colour=st.sampled_from(["blue", "green"]),
    deal_seed=st.none() | st.integers(0, 2**32),
)
def test_round_trip_of_encounters_built_from_scratch(
    tmp_path, tileset_id, cols, rows, name, notes, description, people, colour, deal_seed
):
    ts = tileset(tileset_id)
    kinds = [k.id for k in ts.kinds]
    layout = [[kinds[(r * cols + c) % len(kinds)] for c in range(cols)] for r in range(rows)]
    enc = Encounter(zone=grid_zone(ts, layout))
    for op in (Rename(name), SetNotes(notes, description), SetSettings(Settings(colour, 2))):
        enc.apply(op)
    for c in people:
        # A duplicate id or an area outside a small zone: the model says no, fine.
        with contextlib.suppress(IllegalOp):
            enc.apply(AddCombatant(c))
    if deal_seed is not None:
        with contextlib.suppress(IllegalOp):
            enc.apply(deal_hands(enc, random.Random(deal_seed)))
    _round_trip(tmp_path, enc.state())


def test_round_trip_keeps_undo_history_exact(tmp_path):
    """Undo after a load gives what undo before the save gave: the log and every part an
    Op touched come back exactly (the loaded state is a full snapshot)."""
    session = random_session(build(), seed=5, steps=120)
    state = session.enc.state()
    path = tmp_path / "fight.afenc"
    save(path, state)
    again = Encounter.from_state(load(path).state)
    _op, inverse = session.undo_stack[-1]
    session.enc.apply(inverse)
    again.apply(inverse)
    assert again.state() == session.enc.state()


def test_the_file_holds_everything_explicitly(tmp_path):
    """Format header first; ruleset and pursuit-die colour written even at their default;
    one log entry and one character per line."""
    enc = random_encounter(11, 80)
    state = enc.state()
    data = encode(state)
    header = b'{"format":"afdesk-encounter","schema_version":%d,\n' % migrations.CURRENT_VERSION
    assert data.startswith(header)
    doc = json.loads(data)
    assert doc["meta"]["ruleset"] == state.meta.ruleset
    assert doc["settings"]["bad_pursuit_colour"] == state.settings.bad_pursuit_colour
    assert list(doc)[:2] == ["format", "schema_version"]
    lines = data.decode().splitlines()
    start = lines.index('"log":[')
    assert len(lines[start + 1 :]) == len(state.log) + 1  # each entry, then the closing ]
    for line, entry in zip(lines[start + 1 :], state.log, strict=False):
        assert json.loads(line.strip().rstrip(",")) == json.loads(msgspec.json.encode(entry))
    start = lines.index('"combatants":[')
    assert json.loads(lines[start + 1].strip().rstrip(","))["id"] == state.combatants[0].id


def test_layout_is_not_wasteful():
    """At most a few percent over msgspec's compact encoding of the same state."""
    state = random_encounter(3, 300).state()
    assert len(encode(state)) < 1.05 * len(msgspec.json.encode(state)) + 200


def test_hand_written_layouts_load_too():
    """Indented, reordered JSON from another tool is the same encounter."""
    state = random_encounter(4, 60).state()
    doc = json.loads(encode(state))
    for text in (json.dumps(doc, indent=2), json.dumps(doc, sort_keys=True)):
        assert decode(text.encode()) == state


def test_a_utf8_bom_is_accepted():
    state = build().state()
    assert decode(b"\xef\xbb\xbf" + encode(state)) == state


def test_unencodable_text_is_a_save_error(tmp_path):
    """A lone surrogate cannot be UTF-8: the save is refused and the old file stays."""
    path = tmp_path / "fight.afenc"
    enc = build()
    save(path, enc.state())
    before = path.read_bytes()
    enc.apply(EditCombatant(enc.combatant("huang").replace(notes="bad \ud800 text")))
    with pytest.raises(SaveError, match=r"fight\.afenc"):
        save(path, enc.state())
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["fight.afenc"]


def test_decode_names_its_source():
    with pytest.raises(LoadError) as info:
        decode(b"{}", source="notes.afenc")
    assert info.value.source == "notes.afenc"
    assert str(info.value).startswith("notes.afenc: ")
