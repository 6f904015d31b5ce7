"""Odds speed (issue 2): each round recomputes from a cold cache.

Targets on the 2-core machine: 10 dice + 6 Interference against the same at most 25 ms
median; 4 dice + 1 Interference against 3 dice at most 3 ms.
"""

from __future__ import annotations

from afdesk.rules import odds


def _cold(attacker, defender):
    odds.clear_cache()
    return odds.contest_odds(attacker, defender)


def test_contest_odds_large(benchmark):
    spec = odds.PoolSpec(10, 6)
    result = benchmark(_cold, spec, spec)
    assert 0 < result.p_stopped < result.p_attacker_succeeds < 1
    assert benchmark.stats.stats.median < 0.025


def test_contest_odds_small(benchmark):
    result = benchmark(_cold, odds.PoolSpec(4, 1), odds.PoolSpec(3))
    assert 0 < result.p_attack_lands < 1
    assert benchmark.stats.stats.median < 0.003


def test_contest_odds_advantage_large(benchmark):
    benchmark(_cold, odds.PoolSpec(10, 6, advantage=True), odds.PoolSpec(10, 6, disadvantage=True))


def test_classic_contest_odds_large(benchmark):
    def run():
        odds.clear_cache()
        return odds.classic_contest_odds(odds.PoolSpec(10, 6), odds.PoolSpec(10, 6))

    benchmark(run)
