"""A chase turn's odds under each ruleset: under 5 ms cold, as the af-2.5.4 pool
odds are (tests/benchmarks/test_pursuit_bench.py), whatever the encounter's ruleset.

The check is a facet's dice (up to 6) with the stage's penalties; the bad colour adds its
two Interference (H2). Median CPU time of cold calls (caches cleared each time).
"""

from __future__ import annotations

import statistics
import time

import pytest

from afdesk.rules import odds
from afdesk.rules.odds.core import groups
from afdesk.rules.pursuit.checks import chase_turn_odds
from afdesk.rules.rulesets import all_rulesets


def _cold(rules, dice: int, mods: tuple[int, ...]) -> float:
    odds.clear_cache()
    groups.cache_clear()
    start = time.process_time()
    chase_turn_odds(rules, 4, dice, mods)
    return (time.process_time() - start) * 1000


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.name)
@pytest.mark.parametrize(("dice", "mods"), [(2, ()), (3, (-2,)), (4, (-2,)), (6, (-2, -2))])
def test_chase_turn_odds_of_each_ruleset_under_5_ms_cold(rules, dice, mods):
    times = [_cold(rules, dice, mods) for _ in range(15)]
    median = statistics.median(times)
    print(f"{rules.name} chase_turn_odds({dice} dice, {mods}) cold: median {median:.2f} ms CPU")
    assert median < 5.0
