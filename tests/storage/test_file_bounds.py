"""Files that cannot hurt: campaign and character files nested 100,000 deep, a campaign
whose encounter files are missing, characters beyond an encounter's limits (E15, R10) or
with fields afdesk does not know, and the memory a refusal costs (a small multiple of the
file's size, measured with tracemalloc: deterministic)."""

from __future__ import annotations

import io
import shutil
import tracemalloc

import pytest

from afdesk.encounter.campaign.edits import PutCharacter
from afdesk.encounter.campaign.roster import Character, Role, check_character
from afdesk.encounter.campaign.state import Campaign, Planned, Play
from afdesk.encounter.errors import IllegalOp
from afdesk.paths import sample_encounter
from afdesk.storage import campaign as store
from afdesk.storage import codec, scan
from afdesk.storage.check import check_files
from afdesk.storage.errors import LoadError

DEEP = 100_000
CAMPAIGN_HEAD = b'{"format":"afdesk-campaign","schema_version":1,'
CHARACTERS_HEAD = b'{"format":"afdesk-characters","schema_version":1,'


def _deep_files() -> dict[str, bytes]:
    """Campaign and character files nesting 100,000 deep, balanced or cut off, in lists,
    in objects, in a known field and in an unknown one."""
    return {
        "campaign, a list in a known field": CAMPAIGN_HEAD
        + b'\n"characters":'
        + b"[" * DEEP
        + b"]" * DEEP
        + b"}",
        "campaign, objects in an unknown field": CAMPAIGN_HEAD
        + b'\n"x":'
        + b'{"a":' * DEEP
        + b"1"
        + b"}" * DEEP
        + b"}",
        "campaign, cut off": CAMPAIGN_HEAD + b'\n"log":' + b"[" * DEEP,
        "characters, a list in a character": CHARACTERS_HEAD
        + b'\n"characters":[{"id":"a","name":"A","role":"band","facets":'
        + b"[" * DEEP
        + b"]" * DEEP
        + b"}]}",
        "characters, only brackets": b"[" * DEEP + b"]" * DEEP,
        "characters, cut off objects": b'{"a":' * DEEP,
    }


@pytest.mark.parametrize("name", list(_deep_files()))
def test_nesting_100000_deep_is_refused_with_its_place_everywhere(tmp_path, name):
    """A RecursionError used to escape File > Open campaign, the roster's Import and
    ``afdesk check`` ("unexpected error: RecursionError")."""
    data = _deep_files()[name]
    if name.startswith("campaign"):
        path = tmp_path / "campaign.afcamp"
        path.write_bytes(data)
        with pytest.raises(LoadError) as err:
            store.load_campaign(tmp_path)
    else:
        path = tmp_path / "deep.afchars"
        path.write_bytes(data)
        with pytest.raises(LoadError) as err:
            store.import_characters(path)
    text = str(err.value)
    assert text.startswith(f"{path.name}: ")
    assert "nests more than 64 levels deep" in text
    if "cut off" not in name and "only" not in name:
        assert "line 2:" in text, "the place: the line where the nesting starts"
    out = io.StringIO()
    assert check_files([str(path)], out=out) == 2
    assert "nests more than 64" in out.getvalue() and "unexpected" not in out.getvalue()
    assert path.read_bytes() == data, "nothing changed"


@pytest.mark.parametrize("depth", [63, 64, 65, 66, 200])
def test_the_line_of_a_too_deep_subtree(depth):
    text = b"[\n" * depth + b"]" * depth
    deep = depth > scan.MAX_DEPTH
    assert (scan.depth_check(text) is scan.Depth.TOO_DEEP) == deep
    line = scan.too_deep_line(text)
    if not deep:
        assert line is None
    else:
        assert line is not None
        # the subtree that goes too deep starts there: at most half the limit above it
        assert scan.MAX_DEPTH // 2 < line <= scan.MAX_DEPTH + 1


def _band(**changes: object) -> Character:
    return Character(id="huang", name="Huang", role=Role.BAND).replace(**changes)


@pytest.mark.parametrize(
    ("changes", "place"),
    [
        ({"grit": 10**20, "grit_max": 10**20}, "grit"),
        ({"grit_max": 1_000_001}, "grit_max"),
        ({"shifts": 2_000_000}, "shifts"),
        ({"days_since_rest": 10**7}, "days_since_rest"),
    ],
)
def test_the_roster_holds_the_encounter_s_limits(tmp_path, changes, place):
    """A grit of 10^20 was accepted by the roster and then refused by every encounter:
    now the roster refuses it (the file with its place, the edit with its rule)."""
    c = _band(**changes)
    with pytest.raises(IllegalOp, match=r"Huang's .*\(E15\)|Huang's .*\(R10\)"):
        check_character(c)
    with pytest.raises(IllegalOp):
        PutCharacter(c).change(Campaign())
    path = tmp_path / "band.afchars"
    path.write_bytes(store.encode_characters([c]))
    with pytest.raises(LoadError, match=rf"characters\[0\]\.{place}: count .* is out of range"):
        store.import_characters(path)
    store.save_campaign(tmp_path, Campaign(characters=(_band(),)))
    good = (tmp_path / "campaign.afcamp").read_bytes()
    (tmp_path / "campaign.afcamp").write_bytes(store.encode_campaign(Campaign(characters=(c,))))
    with pytest.raises(LoadError, match=rf"characters\[0\]\.{place}"):
        store.load_campaign(tmp_path)
    assert good != (tmp_path / "campaign.afcamp").read_bytes()


def test_nested_numbers_of_a_character_are_held_too(tmp_path):
    text = (
        CHARACTERS_HEAD + b'"characters":[{"id":"a","name":"A","role":"band",'
        b'"states":[{"kind":"wounded","markers":9999999}]}]}'
    )
    with pytest.raises(LoadError, match=r"characters\[0\]\.states\[0\]\.markers: .*\(E17\)"):
        store.decode_characters(text, source="a.afchars")
    text = (
        CHARACTERS_HEAD
        + b'"characters":[{"id":"a","name":"A","role":"band","speeds":{"run":-5000000}}]}'
    )
    with pytest.raises(LoadError, match=r"characters\[0\]\.speeds\.run"):
        store.decode_characters(text, source="a.afchars")


@pytest.mark.parametrize(
    ("body", "place"),
    [
        (
            b'"characters":[{"id":"a","name":"A","role":"band","gritt":3}]',
            'characters[0]: unknown field "gritt"',
        ),
        (
            b'"characters":[{"id":"a","name":"A","role":"band","speeds":{"rn":3}}]',
            'characters[0].speeds: unknown field "rn"',
        ),
        (
            b'"characters":[{"id":"a","name":"A","role":"band","d20":{"quik":3}}]',
            'characters[0].d20: unknown field "quik"',
        ),
        (b'"characters":[],"bestiary":[]', 'unknown field "bestiary"'),
    ],
)
def test_an_unknown_field_in_a_character_file_is_reported(body, place):
    """Not dropped without a word: a misspelt field would otherwise vanish on the next
    export."""
    with pytest.raises(LoadError) as err:
        store.decode_characters(CHARACTERS_HEAD + body + b"}", source="band.afchars")
    assert str(err.value) == f"band.afchars: {place}"


def test_an_unknown_field_in_a_campaign_is_reported():
    with pytest.raises(LoadError, match=r'encounters\[0\]: unknown field "flie"'):
        store.decode_campaign(
            CAMPAIGN_HEAD + b'"encounters":[{"id":"e","title":"E","file":"e.afenc","flie":"x"}]}'
        )


def _campaign(tmp_path, *encounters: Planned) -> None:
    store.save_campaign(tmp_path, Campaign(name="River", encounters=encounters))


def test_check_refuses_a_campaign_whose_encounter_file_is_missing(tmp_path):
    """``afdesk check`` said ok (exit 0); the app failed only at Run."""
    _campaign(
        tmp_path,
        Planned(id="ford", title="The ford", file="ford.afenc"),
        Planned(id="mill", title="The mill", file="mill.afenc"),
    )
    shutil.copyfile(sample_encounter(), tmp_path / "ford.afenc")
    out = io.StringIO()
    assert check_files([str(tmp_path)], out=out) == 2
    assert out.getvalue() == (
        f"{tmp_path}: encounters[1].file: mill.afenc (The mill) is not in the campaign folder\n"
    )
    assert store.missing_encounters(store.load_campaign(tmp_path).campaign, tmp_path) == [
        "encounters[1].file: mill.afenc (The mill) is not in the campaign folder"
    ]
    shutil.copyfile(sample_encounter(), tmp_path / "mill.afenc")
    out = io.StringIO()
    assert check_files([str(tmp_path / "campaign.afcamp")], out=out) == 0


def test_check_names_every_broken_encounter_and_the_running_copy(tmp_path):
    _campaign(
        tmp_path,
        Planned(id="ford", title="The ford", file="ford.afenc"),
        Planned(
            id="mill", title="The mill", file="mill.afenc", play=Play.RUNNING, running="m.afenc"
        ),
        Planned(
            id="old",
            title="Old",
            file="old.afenc",
            play=Play.FINISHED,
            running="gone.afenc",
            carried=True,
        ),
    )
    (tmp_path / "ford.afenc").write_text("{", encoding="utf-8")
    shutil.copyfile(sample_encounter(), tmp_path / "mill.afenc")
    shutil.copyfile(sample_encounter(), tmp_path / "old.afenc")
    out = io.StringIO()
    assert check_files([str(tmp_path)], out=out) == 2
    line = out.getvalue()
    assert "encounters[0].file: ford.afenc: the file ends before its JSON is complete" in line
    assert "encounters[1].running: m.afenc (The mill) is not in the campaign folder" in line
    assert "gone.afenc" not in line, "a finished, carried-over run copy may be cleaned up"


# ------------------------------------------------------------------------- memory


def _peak_ratio(refuse, data: bytes) -> float:
    """The traced peak of a second refusal: the first builds what afdesk builds once per
    process (decoders, patterns), which is no cost of the file and would make the ratio
    depend on which test ran first."""
    with pytest.raises(LoadError):
        refuse(data)
    tracemalloc.start()
    try:
        with pytest.raises(LoadError):
            refuse(data)
        return tracemalloc.get_traced_memory()[1] / len(data)
    finally:
        tracemalloc.stop()


def _encounter_log(entries: bytes, n: int, last: bytes = b"") -> bytes:
    base = sample_encounter().read_bytes()
    head = base[: base.rindex(b'"log":')]
    return head + b'"log":[' + b",".join([entries] * n) + last + b"]}\n"


N = 100_000
REFUSALS = {
    # the reported file: a 63 MB file of empty log entries took 1.64 GB (26 times its size)
    "encounter, empty log entries": (codec.decode, _encounter_log(b"{}", N), 4),
    "encounter, empty lists": (codec.decode, _encounter_log(b"[]", N), 4),
    "encounter, good entries then a bad one": (
        codec.decode,
        _encounter_log(b'{"op":{"op":"NextTurn"},"text":""}', N, b",{}"),
        8,
    ),
    "encounter, a key twice at the end": (
        codec.decode,
        _encounter_log(
            b'{"op":{"op":"NextTurn"},"text":""}',
            N,
            b',{"op":{"op":"NextTurn"},"text":"","text":""}',
        ),
        8,
    ),
    "encounter, a number beyond 64 bits at the end": (
        codec.decode,
        _encounter_log(
            b'{"op":{"op":"NextTurn"},"text":""}',
            N,
            b',{"op":{"op":"AdjustCounter","id":"huang","counter":"hits",'
            b'"delta":123456789012345678901},"text":""}',
        ),
        10,
    ),
    "campaign, empty characters": (
        store.decode_campaign,
        CAMPAIGN_HEAD + b'"characters":[' + b",".join([b"{}"] * N) + b"]}",
        4,
    ),
    "campaign, log then a bad entry": (
        store.decode_campaign,
        CAMPAIGN_HEAD + b'"log":[' + b",".join([b'{"text":"a"}'] * N) + b",{}]}",
        10,
    ),
    "campaign, log then a key twice": (
        store.decode_campaign,
        CAMPAIGN_HEAD
        + b'"log":['
        + b",".join([b'{"text":"ab"}'] * N)
        + b',{"text":"a","text":"b"}]}',
        10,
    ),
    "characters, empty": (
        store.decode_characters,
        CHARACTERS_HEAD + b'"characters":[' + b",".join([b"{}"] * N) + b"]}",
        4,
    ),
    "characters, unknown field at the end": (
        store.decode_characters,
        CHARACTERS_HEAD
        + b'"characters":['
        + b",".join([b'{"id":"a","name":"A","role":"band"}'] * N)
        + b',{"id":"b","name":"B","role":"band","x":1}]}',
        10,
    ),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_refusing_a_file_costs_a_small_multiple_of_its_size(name):
    """tracemalloc's peak while a file is refused, as a multiple of its size: no refusal
    parses the whole file into Python objects any more."""
    refuse, data, most = REFUSALS[name]
    ratio = _peak_ratio(refuse, data)
    assert ratio <= most, f"{name}: refusing it took {ratio:.1f} times its size"


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.afchars"
    with path.open("wb") as f:
        f.truncate(codec.MAX_BYTES + 1)  # sparse: costs no disk
    tracemalloc.start()
    try:
        with pytest.raises(LoadError, match="afdesk opens files of at most 64 MiB"):
            store.import_characters(path)
        assert tracemalloc.get_traced_memory()[1] < 1 << 20, "not read"
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", ["x" * 300, "a\u0000b.afenc", "é" * 200])
def test_an_encounter_file_name_no_folder_can_hold_is_refused(tmp_path, name):
    """Found by the campaign fuzzer: a file name of thousands of characters passed the
    campaign and then made the check ask the disk ("File name too long")."""
    text = store.encode_campaign(Campaign(encounters=(Planned(id="e", title="E", file="e.afenc"),)))
    text = text.replace(b'"e.afenc"', json_text(name))
    with pytest.raises(LoadError, match=r"encounters\[0\]\.file: .* is not a file name"):
        store.decode_campaign(text)
    camp = Campaign(encounters=(Planned(id="e", title="E", file=name),))
    (problem,) = store.missing_encounters(camp, tmp_path)
    assert problem.startswith("encounters[0].file: ")


def json_text(value: str) -> bytes:
    import json

    return json.dumps(value).encode()
