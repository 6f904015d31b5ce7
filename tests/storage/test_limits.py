"""Bad input of every kind is a LoadError that names the file, the place and the problem."""

from __future__ import annotations

import json
import os

import pytest

from afdesk.encounter.registry import registered_ops
from afdesk.storage import MAX_BYTES, LoadError, decode, encode, load
from afdesk.storage import scan as scan_module
from afdesk.storage.samples import build

SAMPLE = encode(build().state())
SAMPLE_LINES = SAMPLE.count(b"\n")


def _doc() -> dict:
    return json.loads(SAMPLE)


def _bytes(doc: dict) -> bytes:
    return json.dumps(doc).encode()


def _line_of(text: bytes) -> int:
    """The line of the sample holding ``text`` (1 for the first)."""
    return SAMPLE[: SAMPLE.index(text)].count(b"\n") + 1


def _problem(data: bytes, source: str = "fight.afenc") -> str:
    with pytest.raises(LoadError) as info:
        decode(data, source=source)
    err = info.value
    assert str(err) == f"{source}: {err.detail}"
    assert "Traceback" not in err.detail
    return err.detail


# ----------------------------------------------------------------------------- types


def test_wrong_type_names_the_place_and_the_value():
    doc = _doc()
    doc["combatants"][3]["facing"] = "north"
    assert _problem(_bytes(doc)) == 'combatants[3].facing: expected a number, got "north"'


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["combatants"][0].__setitem__("grit", 1.5),
            "combatants[0].grit: expected a whole number, got 1.5",
        ),
        (
            lambda d: d["combatants"][2].__setitem__("name", 7),
            "combatants[2].name: expected text, got 7",
        ),
        (
            lambda d: d["combatants"][1].__setitem__("area", "ford"),
            'combatants[1].area: expected a list or null, got "ford"',
        ),
        (
            lambda d: d["combatants"][1].__setitem__("area", [3]),
            "combatants[1].area: expected a list of 2 items, got a list of 1 item",
        ),
        (
            lambda d: d["combatants"][1].pop("name"),
            'combatants[1]: the field "name" is missing',
        ),
        (
            lambda d: d["combatants"][4].__setitem__("side", "villain"),
            'combatants[4].side: "villain" is not one of the allowed values: '
            "band, opponent, denizen, follower",
        ),
        (
            lambda d: d.__setitem__("mode", "party"),
            'mode: "party" is not one of the allowed values: battle, chase, dispute, infiltration',
        ),
        (
            lambda d: d.__setitem__("combatants", {}),
            "combatants: expected a list, got an object",
        ),
        (
            lambda d: d["log"][2].__setitem__("op", 5),
            "log[2].op: expected an object, got 5",
        ),
        (
            lambda d: d["log"][2]["op"].__setitem__("op", "Teleport"),
            # Every registered Op, whenever it was registered (tests register their own).
            lambda: (
                'log[2].op.op: "Teleport" is not one of the allowed values: '
                f"{len(registered_ops())} kinds, such as ActHesitated, AddCombatant, AddMomentum"
            ),
        ),
        (
            lambda d: d["meta"].__setitem__("ruleset", "gurps"),
            'meta.ruleset: unknown ruleset "gurps", expected one of af-2.5.4, af-classic, '
            "d20-degrees",
        ),
        (
            lambda d: d["combatants"][1].__setitem__("id", "huang"),
            'combatants[1].id: "huang" is also the id of combatants[0]; every character '
            "needs its own",
        ),
        (lambda d: d.pop("zone"), 'the field "zone" is missing'),
    ],
)
def test_readable_type_errors(change, expected):
    doc = _doc()
    change(doc)
    assert _problem(_bytes(doc)) == (expected() if callable(expected) else expected)


def test_long_values_are_shortened():
    doc = _doc()
    doc["combatants"][0]["facing"] = "x" * 500
    problem = _problem(_bytes(doc))
    assert problem.startswith('combatants[0].facing: expected a number, got "xxx')
    assert len(problem) < 120


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity"])
def test_nan_and_infinity_are_refused(literal):
    data = SAMPLE.replace(b'"facing":20.0', b'"facing":' + literal, 1)
    assert data != SAMPLE
    problem = _problem(data)
    line = _line_of(b'"facing":20.0')  # Silent Lan's line
    assert problem.startswith(f"line {line}, column 7")  # where the number starts (or its sign)
    assert problem.endswith(": NaN and Infinity are not numbers a file may hold")


@pytest.mark.parametrize("literal", [b"1e999", b"-1e999", b"1e400"])
def test_overflowing_numbers_are_refused(literal):
    data = SAMPLE.replace(b'"facing":20.0', b'"facing":' + literal, 1)
    assert _problem(data) == "combatants[2].facing: the number is too large (or too small) to hold"


# ----------------------------------------------------------------------- structure


def test_duplicate_keys_are_refused_with_their_place():
    data = SAMPLE.replace(b'"facing":20.0', b'"facing":20.0,"facing":30.0', 1)
    assert _problem(data) == 'combatants[2]: the key "facing" appears twice'


def test_duplicate_keys_at_the_top_are_refused():
    data = SAMPLE.replace(b'"mode":"battle"', b'"mode":"battle","mode":"battle"', 1)
    assert _problem(data) == 'the key "mode" appears twice'


def test_duplicate_keys_deep_in_the_log_are_refused():
    doc = _doc()
    text = _bytes(doc).replace(b'"op": "Rename"', b'"op": "Rename", "op": "Rename"', 1)
    assert _problem(text) == 'log[0].op: the key "op" appears twice'


def test_identical_keys_in_different_objects_are_fine():
    assert decode(SAMPLE) == build().state()


def _deep(levels: int) -> bytes:
    doc = _doc()
    doc["combatants"][0]["notes"] = "placeholder"
    nested = b"[" * (levels - 3) + b"]" * (levels - 3)
    return _bytes(doc).replace(b'"placeholder"', nested)


def test_nesting_of_64_is_allowed_and_65_refused():
    # root object, combatants list, combatant object: 3 levels before the notes value.
    assert scan_module.depth_check(_deep(64)) is scan_module.Depth.OK
    assert scan_module.depth_check(_deep(65)) is scan_module.Depth.TOO_DEEP
    assert _problem(_deep(65)) == "the data nests more than 64 levels deep"
    # 64 levels is allowed by the limit; the model then refuses a list as notes.
    assert _problem(_deep(64)).startswith("combatants[0].notes: expected text, got a list")


@pytest.mark.parametrize("levels", [1000, 100_000, 2_000_000])
def test_absurd_nesting_is_a_load_error(levels):
    data = b'{"format":"afdesk-encounter","x":' + b"[" * levels + b"]" * levels + b"}"
    assert _problem(data) == "the data nests more than 64 levels deep"


def test_unclosed_nesting_is_a_load_error():
    for data in (b"[" * 100_000, b'{"a":' * 100_000, b"{" * 50_000):
        _problem(data)


def test_brackets_inside_text_do_not_count_as_nesting():
    doc = _doc()
    doc["combatants"][0]["notes"] = "[[[[{{{{" * 40 + '\\" ]]] \\\\"'
    data = _bytes(doc)
    assert scan_module.depth_check(data) is scan_module.Depth.OK
    assert decode(data).combatants[0].notes == doc["combatants"][0]["notes"]


# ------------------------------------------------------------------------ the header


def test_unknown_format_is_refused():
    doc = _doc()
    doc["format"] = "gm-helper"
    assert (
        _problem(_bytes(doc)) == 'format: unknown format "gm-helper", expected "afdesk-encounter"'
    )


def test_missing_format_is_refused():
    doc = _doc()
    del doc["format"]
    assert 'no "format" field' in _problem(_bytes(doc))


@pytest.mark.parametrize("version", ["1", 1.5, True, 0, -3, None, [1]])
def test_bad_schema_versions_are_refused(version):
    doc = _doc()
    doc["schema_version"] = version
    problem = _problem(_bytes(doc))
    assert problem.startswith("schema_version: ")


def test_newer_version_is_refused_naming_it(tmp_path):
    doc = _doc()
    doc["schema_version"] = 9
    path = tmp_path / "future.afenc"
    path.write_bytes(_bytes(doc))
    before = path.read_bytes(), path.stat().st_mtime_ns
    with pytest.raises(LoadError) as info:
        load(path)
    assert "newer afdesk" in str(info.value)
    assert "version 9" in str(info.value)
    assert str(info.value).startswith("future.afenc: ")
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


# -------------------------------------------------------------------- not encounters


NOT = "this is not an afdesk encounter: "
"""A wrong file says first what it is not, then the place and the detail."""


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "the file is empty"),
        (b"  \n\t ", "the file is empty"),
        (b"[1, 2, 3]", NOT + "expected an object {...}, got a list"),
        (b'"hello"', NOT + 'expected an object {...}, got "hello"'),
        (b"hello", NOT + "line 1, column 1 is not valid JSON (invalid character) near: hello"),
        (
            b'{"format": "afdesk-encounter",\n "x": tru}',
            NOT + 'line 2, column 8 is not valid JSON (invalid character) near: "x": tru}',
        ),
        (b"[1, 2,]", NOT + "line 1, column 7 is not valid JSON (trailing comma in array)"),
        (b'{"format": ', "the file ends before its JSON is complete (was it cut off?)"),
        (bytes(range(256)) * 4, NOT + "line 1, column 1 is not valid JSON (a control character)"),
        (b"\xff\xfe{}", NOT + "line 1, column 1 is not valid JSON (a byte that is not text)"),
        (
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
            NOT + "line 1, column 1 is not valid JSON (a byte that is not text)",
        ),
        (
            SAMPLE + b"x",
            NOT + f"line {SAMPLE_LINES + 1}, column 2 is not valid JSON (trailing characters) "
            "near: x",
        ),
    ],
)
def test_not_an_encounter(data, expected):
    assert _problem(data).startswith(expected)


def test_a_wrong_file_names_what_it_is_not_for_campaigns_and_tile_sets_too():
    from afdesk.storage.campaign import decode_campaign
    from afdesk.storage.tilesets import decode_tileset

    png = b"\x89PNG\r\n\x1a\n"
    detail = "line 1, column 1 is not valid JSON (a byte that is not text)"
    with pytest.raises(LoadError) as info:
        decode_campaign(png, source="campaign.afcamp")
    assert info.value.detail == f"this is not an afdesk campaign: {detail}"
    with pytest.raises(LoadError) as info:
        decode_tileset(b"\n\n  hello", "mine.json")
    assert info.value.detail == (
        "this is not an afdesk tile set: line 3, column 3 is not valid JSON "
        "(invalid character) near: hello"
    )


def test_text_that_is_not_utf8_is_refused():
    data = SAMPLE.replace(b"Silent Lan", b"Silent \xff\xfeLan")
    problem = _problem(data)
    assert "not UTF-8" in problem
    assert problem.startswith(f"line {_line_of(b'Silent Lan')}, column ")


def test_missing_file(tmp_path):
    with pytest.raises(LoadError, match=r"^nothing\.afenc: there is no such file"):
        load(tmp_path / "nothing.afenc")


def test_a_folder_is_not_a_file(tmp_path):
    folder = tmp_path / "folder.afenc"
    folder.mkdir()
    with pytest.raises(LoadError, match=r"^folder\.afenc: this is a folder"):
        load(folder)


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.afenc"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match="not a regular file"):
        load(fifo)


def test_binary_junk_file(tmp_path):
    path = tmp_path / "junk.afenc"
    path.write_bytes(os.urandom(5000) + b"\x00" * 100)
    with pytest.raises(LoadError, match=r"^junk\.afenc: "):
        load(path)


# --------------------------------------------------------------------------- size


def test_a_file_over_64_mib_is_refused_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "huge.afenc"
    with open(path, "wb") as f:
        f.truncate(MAX_BYTES + 1)  # sparse: costs no disk
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    with pytest.raises(LoadError) as info:
        load(path)
    assert "64 MiB" in str(info.value)
    assert str(info.value).startswith("huge.afenc: it is 64.0 MiB")
    assert reads == [], "the file was read before its size was checked"


def test_exactly_64_mib_is_read(tmp_path):
    path = tmp_path / "big.afenc"
    with open(path, "wb") as f:
        f.truncate(MAX_BYTES)
    with pytest.raises(LoadError) as info:
        load(path)
    assert "64 MiB" not in str(info.value)  # read, then refused as not JSON


def test_decode_refuses_more_than_64_mib():
    assert "at most 64 MiB" in _problem(b" " * (MAX_BYTES + 1))


# --------------------------------------------------------------- nothing else escapes


@pytest.mark.parametrize(
    "data",
    [
        b"\x00",
        b"\xef\xbb\xbf",
        b'{"format":"afdesk-encounter","schema_version":1}',
        b'{"format":"afdesk-encounter","schema_version":1,"meta":[]}',
        b'{"format":"afdesk-encounter","schema_version":99999999999999999999999}',
        b'{"format":{"a":1},"schema_version":1}',
        b'{"a":"\\ud800"}',
        b'{"format":"afdesk-encounter","schema_version":1,"zone":"' + b"\\u0000" * 10 + b'"}',
        b"[" * 64 + b"]" * 64,
        b"1" * 5000,
        b"-",
        '{"format": "☂"}'.encode(),
    ],
)
def test_odd_inputs_are_load_errors(data):
    problem = _problem(data)
    assert "could not be read" not in problem, f"an unexpected exception: {problem}"


def test_huge_integers_in_unknown_fields_are_ignored_but_duplicates_still_seen():
    data = SAMPLE.replace(b'"mode":"battle"', b'"mode":"battle","extra":' + b"7" * 5000, 1)
    assert decode(data) == build().state()
    twice = data.replace(b'"mode":"battle"', b'"mode":"battle","mode":"battle"', 1)
    assert _problem(twice) == 'the key "mode" appears twice'
