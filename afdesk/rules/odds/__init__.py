"""Exact odds for checks and contests of every ruleset (no Monte Carlo).

``core`` holds what the two dice-pool rulesets share (a pool as counts of 4s, 5s and 6s,
the pool specifications and the result tuples); ``af254``, ``classic`` and ``d20`` the
odds of each ruleset; ``margins`` the (success, margin) distribution a chase needs
(R13, H3). This package re-exports the names callers have always used.
"""

from __future__ import annotations

from afdesk.rules.odds import af254 as _af254
from afdesk.rules.odds import classic as _classic
from afdesk.rules.odds import core as _core
from afdesk.rules.odds import margins as _margins
from afdesk.rules.odds.af254 import (
    Cooperation,
    Distribution,
    check_odds,
    contest_odds,
    distribution,
    p_beats,
)
from afdesk.rules.odds.classic import (
    classic_check_odds,
    classic_contest_odds,
    classic_p_gain_above,
)
from afdesk.rules.odds.core import (
    CheckOdds,
    CheckState,
    ContestOdds,
    PoolSpec,
    PoolState,
)
from afdesk.rules.odds.d20 import degree_odds
from afdesk.rules.odds.margins import check_margins


def clear_cache() -> None:
    """Forget memoised distributions (benchmarks measure cold computations)."""
    _core.clear_cache()
    _af254.clear_cache()
    _classic.clear_cache()
    _margins.clear_cache()


__all__ = [
    "CheckOdds",
    "CheckState",
    "ContestOdds",
    "Cooperation",
    "Distribution",
    "PoolSpec",
    "PoolState",
    "check_margins",
    "check_odds",
    "classic_check_odds",
    "classic_contest_odds",
    "classic_p_gain_above",
    "clear_cache",
    "contest_odds",
    "degree_odds",
    "distribution",
    "p_beats",
]
