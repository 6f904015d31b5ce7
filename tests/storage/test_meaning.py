"""Meaning checked on load (afdesk.storage.meaning): limits, unique ids, references; each
refused with the file, the place and the problem in words, and the limits published."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from afdesk.paths import resource_dir
from afdesk.storage import LoadError, SaveError, decode, encode, load, meaning, save
from afdesk.storage.check import check_files
from afdesk.storage.migrations import CURRENT_VERSION
from afdesk.storage.samples import build
from afdesk.storage.schema import bound_nodes, schema
from tests.storage.builders import random_encounter

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = encode(build().state())


def _doc() -> dict:
    return json.loads(SAMPLE)


def _problem(doc: dict) -> str:
    with pytest.raises(LoadError) as info:
        decode(json.dumps(doc).encode(), source="fight.afenc")
    assert str(info.value) == f"fight.afenc: {info.value.detail}"
    return info.value.detail


def _set(path: list, value):
    def change(doc: dict) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


TILES_RULE = "tiles must lie within 64 tiles of the origin"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            _set(["zone", "tiles", 3, "col"], 10**400),
            f"zone.tiles[3].col: column 1000000000000000... is outside the zone: {TILES_RULE}",
        ),
        (
            _set(["zone", "tiles", 3, "col"], 65),
            f"zone.tiles[3].col: column 65 is outside the zone: {TILES_RULE}",
        ),
        (
            _set(["zone", "tiles", 0, "row"], -65),
            f"zone.tiles[0].row: row -65 is outside the zone: {TILES_RULE}",
        ),
        (
            _set(["zone", "tiles", 1, "segments", 0, "areas", 0], [5, 0]),
            "zone.tiles[1].segments[0].areas[0][0]: area 5 is out of range: "
            "a segment's areas lie inside its tile (0 to 4)",
        ),
        (
            _set(["zone", "tiles", 1, "segments", 0, "areas"], []),
            'zone.tiles[1].segments[0].areas: segment "Boulders" covers no area; a segment '
            "covers at least one area of its tile",
        ),
        (
            _set(["combatants", 2, "area"], [0, 10**6]),
            "combatants[2].area[1]: area 1000000 is outside the zone: areas must lie within "
            "the zone's reach (-320 to 324, 64 tiles from the origin)",
        ),
        (
            _set(["combatants", 0, "facing"], 1e300),
            "combatants[0].facing: facing 1e+300 is out of range: a facing is an angle in degrees",
        ),
        (
            _set(["combatants", 0, "grit"], 2**40),
            "combatants[0].grit: count 1099511627776 is out of range: "
            "counters lie between -1,000,000 and 1,000,000",
        ),
        (
            _set(["combatants", 0, "grit"], -(10**30)),
            "combatants[0].grit: count -1000000000000000... is out of range: "
            "counters lie between -1,000,000 and 1,000,000",
        ),
        (
            _set(["turn", "order"], ["nobody"]),
            'turn.order[0]: "nobody" is not the id of a character in the encounter',
        ),
        (
            _set(["turn", "interjection"], "ghost"),
            'turn.interjection: "ghost" is not the id of a character in the encounter',
        ),
        (
            _set(["turn", "index"], 3),
            "turn.index: 3 points at no place in the turn order (it holds 0; -1 is nobody's turn)",
        ),
        (
            _set(["zone", "tiles", 2, "kind"], "lava"),
            'zone.tiles[2].kind: "lava" is not one of the zone\'s tile kinds',
        ),
    ],
)
def test_meaning_is_refused_with_place_and_words(change, expected):
    doc = _doc()
    change(doc)
    assert _problem(doc).startswith(expected)


def test_ids_and_places_are_unique():
    doc = _doc()
    doc["combatants"][4]["id"] = doc["combatants"][1]["id"]
    assert _problem(doc).startswith("combatants[4].id: ")
    assert "is also the id of combatants[1]; every character needs its own" in _problem(doc)
    doc = _doc()
    doc["zone"]["tiles"][5]["col"] = doc["zone"]["tiles"][0]["col"]
    doc["zone"]["tiles"][5]["row"] = doc["zone"]["tiles"][0]["row"]
    assert _problem(doc).startswith("zone.tiles[5]: a second tile at column 0, row 0")
    doc = _doc()
    doc["zone"]["kinds"].append(doc["zone"]["kinds"][0])
    assert "every kind of tile needs its own" in _problem(doc)


def test_hand_members_must_be_characters():
    state = random_encounter(3, 40).state()
    assert state.reflex.hands, "the random play dealt no hands"
    doc = json.loads(encode(state))
    doc["reflex"]["hands"][0]["members"] = ["stranger"]
    assert _problem(doc) == (
        'reflex.hands[0].members[0]: "stranger" is not the id of a character in the encounter'
    )


def test_huge_numbers_anywhere_are_refused_at_their_place():
    doc = _doc()
    doc["log"] = []
    doc["meta"]["unknown"] = 10**30  # fields the types ignore are still read as numbers
    assert _problem(doc).startswith("meta.unknown: number 1000000000000000... is out of range")
    doc = _doc()
    doc["zone"]["tiles"][0]["col"] = "@"  # 5,000 digits: more than Python's str() allows
    data = json.dumps(doc).replace('"@"', "1" + "0" * 5000).encode()
    with pytest.raises(LoadError) as info:
        decode(data, source="fight.afenc")
    assert info.value.detail.startswith("zone.tiles[0].col: ")
    assert "out of range" in info.value.detail


def test_long_digit_runs_in_text_are_fine():
    doc = _doc()
    doc["meta"]["notes"] = "1" * 40 + " 3e5 #1e5"
    assert decode(json.dumps(doc).encode()).meta.notes.startswith("111")


def test_check_refuses_the_huge_column_with_exit_2(tmp_path, capsys):
    doc = _doc()
    doc["zone"]["tiles"][3]["col"] = 10**400
    path = tmp_path / "far.afenc"
    path.write_text(json.dumps(doc))
    assert check_files([str(path)]) == 2
    out = capsys.readouterr().out
    assert out == (
        f"{path}: zone.tiles[3].col: column 1000000000000000... is outside the zone: {TILES_RULE}\n"
    )
    for args in (["check", str(path)], ["export-png", str(path), str(tmp_path / "x.png")]):
        proc = subprocess.run(
            [sys.executable, "-m", "afdesk", *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "Traceback" not in proc.stdout + proc.stderr
        assert "zone.tiles[3].col: column 1000000000000000... is outside the zone" in (
            proc.stdout + proc.stderr
        )
    assert not (tmp_path / "x.png").exists()


def test_save_refuses_what_it_could_not_open_again(tmp_path):
    path = tmp_path / "fight.afenc"
    save(path, build().state())
    before = path.read_bytes()
    state = build().state()
    far = msgspec.structs.replace(
        state.combatants[0], grit=meaning.MAX_COUNT + 1, grit_max=meaning.MAX_COUNT + 1
    )
    bad = msgspec.structs.replace(state, combatants=(far, *state.combatants[1:]))
    with pytest.raises(SaveError) as info:
        save(path, bad)
    assert "combatants[0].grit: count 1000001 is out of range" in str(info.value)
    assert "the file on disk is unchanged" in str(info.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.afenc"]
    assert load(path).state == state


def test_limits_are_published_in_the_schema_and_the_readme():
    published = json.loads(
        (resource_dir() / "schema" / f"afdesk-encounter.v{CURRENT_VERSION}.schema.json").read_text(
            "utf-8"
        )
    )
    assert published == json.loads(json.dumps(schema()))
    readme = (ROOT / "README.md").read_text("utf-8")
    defs = published["$defs"]
    for cls, bounds in meaning.BOUNDS.items():
        for bound in bounds:
            limit = bound.limit
            nodes = bound_nodes(defs, cls, bound)
            assert nodes, f"{cls.__name__}.{bound.field} reaches no number in the schema"
            for node in nodes:
                assert (node["minimum"], node["maximum"]) == (limit.low, limit.high), bound
            low, high = (f"{int(v)}" for v in (limit.low, limit.high))
            assert f"{low} to" in readme or f"{low} to\n" in readme, (bound, low)
            assert high in readme, (bound, high)
