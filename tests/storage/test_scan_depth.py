"""The byte-level depth check (storage/scan.py) agrees with a walk of the parsed document
on nested arrays and objects with escapes, brackets inside strings and \\u escapes, up to
and beyond the 64-level limit (its quick passes may take two levels at once)."""

from __future__ import annotations

import json
import random

import pytest

from afdesk.storage import scan


def _nested(rng: random.Random, depth: int):
    if depth == 0:
        return rng.choice([1, 'a\\"[', "x]\\\\", None, "{}", "\\u005b", "\u005b"])
    inner = _nested(rng, depth - 1)
    kids = [inner, *(rng.choice([2, "s\\\\", []]) for _ in range(rng.randint(0, 2)))]
    if rng.random() < 0.5:
        return kids
    return {f'k{i}"': kid for i, kid in enumerate(kids)}


@pytest.mark.parametrize("seed", range(4))
def test_depth_check_agrees_with_the_parsed_document(seed):
    rng = random.Random(seed)
    for _ in range(300):
        doc = _nested(rng, rng.choice([0, 1, 5, 31, 32, 33, 63, 64, 65, 66, 90]))
        data = json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode()
        expected = scan.Depth.OK if scan.slow_depth(doc) <= scan.MAX_DEPTH else scan.Depth.TOO_DEEP
        assert scan.depth_check(data) is expected, data[:200]
