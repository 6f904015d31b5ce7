"""Fuzzed campaign files (``campaign.afcamp``) and character files (``.afchars``): refused
with one placed message (and ``afdesk check`` exits 2 naming the place) or accepted and
usable, never a traceback. A bounded, derandomized run here; ``python -m afdesk.fuzz
--target campaigns|characters`` for a long one."""

from __future__ import annotations

import random

import pytest

from afdesk.fuzz import campaigns as fuzz_campaigns
from afdesk.fuzz.mutate import deep
from afdesk.storage import campaign as store


def test_broken_campaign_files_are_refused_with_their_place_or_usable(tmp_path):
    counts = fuzz_campaigns.run("campaigns", float("inf"), 11, stop_after=150)
    assert counts.broken == []
    assert counts.cases == 150
    assert counts.accepted >= 5 and counts.refused >= 100
    assert counts.missing >= 1, "a folder with an encounter file missing was seen"
    assert counts.line().startswith("150 campaigns fuzzed: ")


def test_broken_character_files_are_refused_with_their_place_or_usable(tmp_path):
    counts = fuzz_campaigns.run("characters", float("inf"), 12, stop_after=150)
    assert counts.broken == []
    assert counts.accepted >= 5 and counts.refused >= 100


@pytest.mark.parametrize("seed", range(6))
def test_deeply_nested_campaign_and_character_files(tmp_path, seed):
    """The deep mutation on its own (up to 100,000 levels, balanced or cut off): always
    refused with a message, never a RecursionError."""
    rng = random.Random(seed)
    counts = fuzz_campaigns.CampaignCounts("campaigns")
    data = deep(store.encode_campaign(fuzz_campaigns.sample_campaign()), rng)
    assert not fuzz_campaigns.check_campaign(data, tmp_path / "c", rng, counts)
    chars = deep(store.encode_characters(fuzz_campaigns.sample_campaign().characters), rng)
    assert not fuzz_campaigns.check_characters(chars, tmp_path / "d", counts)
    assert counts.broken == [] and counts.refused == 2


def test_the_fuzzer_catches_a_broken_promise(tmp_path, monkeypatch):
    """The checks can fail: a loader that lets a RecursionError out is caught."""

    def escape(*_a, **_k):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(store, "decode_characters", escape)
    counts = fuzz_campaigns.CampaignCounts("character files")
    data = store.encode_characters(fuzz_campaigns.sample_campaign().characters)
    with pytest.raises(fuzz_campaigns.CampaignPromiseBroken, match="RecursionError"):
        fuzz_campaigns.check_characters(data, tmp_path, counts)
