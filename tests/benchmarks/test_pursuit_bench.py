"""Chase turn odds speed: a chase turn's odds under 5 ms cold.

A chase check is a facet's dice (up to 6) with the stage's penalties (Difficult, the bad
colour: up to 4 Interference on the good colour, 6 on the bad). Asserted on the median CPU
time of cold calls (caches cleared each time), as the odds benchmarks do.
"""

from __future__ import annotations

import statistics
import time

import pytest

from afdesk.rules import odds
from afdesk.rules.odds.core import groups
from afdesk.rules.pursuit import turn_odds


def _cold(speed: int, dice: int, intf: int) -> float:
    odds.clear_cache()
    groups.cache_clear()
    start = time.process_time()
    turn_odds(speed, odds.PoolSpec(dice, intf))
    return (time.process_time() - start) * 1000


@pytest.mark.parametrize(("dice", "intf"), [(2, 0), (3, 2), (4, 2), (6, 2), (6, 4)])
def test_chase_turn_odds_under_5_ms_cold(dice, intf):
    times = [_cold(4, dice, intf) for _ in range(15)]
    median = statistics.median(times)
    print(f"turn_odds({dice} dice, {intf} Interference) cold: median {median:.2f} ms CPU")
    assert median < 5.0
