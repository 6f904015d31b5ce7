"""Fuzzed crash journals and tile set files: broken journals recover an intact
prefix with a message or are refused, never a state that never was, never a lost file;
broken tile sets are refused with a placed message or accepted and usable. A bounded,
derandomized run here; ``python -m afdesk.fuzz --target journals|tilesets`` for a long one."""

from __future__ import annotations

import json
import random

import pytest

from afdesk.fuzz import formats as fuzz_formats
from afdesk.storage import LoadError
from afdesk.storage.tilesets import decode_tileset


def test_broken_journals_recover_a_prefix_or_are_refused(tmp_path, data_dir):
    counts = fuzz_formats.FormatCounts("journals")
    rng = random.Random(13)
    markers = set()
    for seed, steps in ((0, 30), (2, 20), (1, 30), (3, 20)):
        case = fuzz_formats.journal_case(tmp_path, seed, steps)
        assert len(case.states) > steps // 2
        markers.add(case.marker)
        for _ in range(45):
            data, kind = fuzz_formats.mutate_journal(case.journal, rng)
            fuzz_formats.check_journal(case, data, kind, counts)
    assert counts.broken == []
    assert markers == {"", "failed", "end"}  # plain, a failed save, saved before the crash
    assert set(counts.kinds) == {
        "cut",
        "flip",
        "swap",
        "drop",
        "twice",
        "garbage",
        "blank",
        "renumber",
        "newer",
    }
    assert counts.recovered_all and counts.recovered_part and counts.refused
    assert counts.line().startswith("180 journals fuzzed: ")


def test_a_renumbered_resealed_line_is_left_out_with_a_message(tmp_path, data_dir):
    """A line whose CRC is right but whose number is not its place (a line given twice,
    or moved) is out of order: the changes before it are recovered, the GM is told."""
    from afdesk.storage.journal import pending_journals, recover_report

    case = fuzz_formats.journal_case(tmp_path, 0, 12)
    assert case.marker == ""
    lines = case.journal.split(b"\n")[:-1]
    lines.insert(4, lines[2])  # line 2 again, as line 4
    data = b"".join(line + b"\n" for line in lines)
    counts = fuzz_formats.FormatCounts("journals")
    fuzz_formats.check_journal(case, data, "twice", counts)
    (p,) = pending_journals()
    report = recover_report(p)
    assert report.state == case.states[3]
    assert report.dropped.startswith(f"step 4 of {len(lines) - 1} is out of order (it says 2)")


def test_broken_tile_sets_are_refused_or_usable(tmp_path, qapp):
    from afdesk import fuzz

    counts = fuzz_formats.FormatCounts("tile sets")
    rng = random.Random(21)
    corpus = fuzz_formats.bundled_tilesets()
    for _ in range(250):
        fuzz_formats.check_tileset(fuzz.mutate(rng.choice(corpus), rng), tmp_path, counts)
    assert counts.broken == []
    assert counts.recovered_all > 5 and counts.refused > 100


@pytest.mark.parametrize("altitude", [2**63, -(10**30)])
def test_a_tile_set_with_a_number_no_encounter_can_hold_is_refused(altitude):
    """Found by the tile-set fuzzer: an altitude beyond 64 bits passed the tile set and
    then made every encounter drawn from it unsavable."""
    doc = json.loads(fuzz_formats.bundled_tilesets()[0])
    doc["kinds"][1]["segments"][0].setdefault("props", {})["altitude"] = altitude
    broken = json.dumps(doc).encode()
    with pytest.raises(LoadError) as info:
        decode_tileset(broken, "mine.json")
    assert str(info.value).startswith("mine.json: kinds[1].segments[0].props.altitude: number ")
    assert "64-bit" in str(info.value)
