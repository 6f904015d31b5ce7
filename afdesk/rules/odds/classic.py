"""Exact odds of af-classic checks and contests (C1-C3, C5)."""

from __future__ import annotations

import math
from collections import defaultdict
from functools import lru_cache

from afdesk.rules import classic
from afdesk.rules.odds.core import CheckOdds, CheckState, ContestOdds, PoolSpec, PoolState, groups


def _classic_state(spec: PoolSpec, *, against_advantage: bool = False) -> CheckState:
    classic.check_ventures(spec.ventures)
    adv = spec.advantage and not spec.disadvantage
    dis = spec.disadvantage and not spec.advantage
    return CheckState(
        check=PoolState(exploding=spec.dice, explode=not dis and not against_advantage),
        interference=PoolState(exploding=spec.interference + spec.ventures, explode=not adv),
        ventures=spec.ventures,
        advantage=adv,
    )


@lru_cache(maxsize=512)
def _classic_remaining(state: CheckState) -> dict[tuple[int, int, int], float]:
    """Distribution of the successes left after Interference (C1): (4s, 5s, 6s) -> p.

    Failures with unspent Interference are folded into (0, 0, 0); fumbles are not a
    classic notion.
    """
    vectors: list[tuple[float, ...]] = []
    index: dict[int, int] = {}

    def vid(vec: tuple[float, ...]) -> int:
        i = index.get(id(vec))
        if i is None:
            i = index[id(vec)] = len(vectors)
            vectors.append(vec)
        return i

    check = [(*cg.low, cg.p, vid(cg.six)) for cg in groups(state.check)]
    intf = [(*ig.low, ig.p, vid(ig.six)) for ig in groups(state.interference)]
    # Interference 4s take check 4s; 5s take the remaining 4s first, then 5s.
    after_low: dict[tuple[int, int, int, int], float] = defaultdict(float)
    for i4, i5, ip, ii in intf:
        for c4, c5, cp, ci in check:
            a = c4 - i4 if c4 > i4 else 0
            if a > i5:
                after_low[(a - i5, c5, ci, ii)] += cp * ip
            else:
                left5 = i5 - a
                after_low[(0, c5 - left5 if c5 > left5 else 0, ci, ii)] += cp * ip
    # Masses by what the Interference 6s leave, each with its check 6-distribution: the
    # low successes (r4, r5) when they suffice, else how many check 6s they cancel.
    low_part: dict[tuple[int, int, int], float] = defaultdict(float)
    over_part: dict[tuple[int, int], float] = defaultdict(float)
    for (rem4, rem5, ci, ii), mass in after_low.items():
        low = rem4 + rem5
        for i6, q in enumerate(vectors[ii]):
            mq = mass * q
            if mq < 1e-30:
                continue
            if i6 <= low:
                if i6 <= rem4:
                    low_part[(rem4 - i6, rem5, ci)] += mq
                else:
                    low_part[(0, low - i6, ci)] += mq
            else:
                over_part[(i6 - low, ci)] += mq
    out: dict[tuple[int, int, int], float] = defaultdict(float)
    for (r4, r5, ci), m in low_part.items():
        for c6, pc in enumerate(vectors[ci]):
            out[(r4, r5, c6)] += m * pc
    for (d, ci), m in over_part.items():
        vec = vectors[ci]
        out[(0, 0, 0)] += m * math.fsum(vec[: d + 1])
        for c6 in range(d + 1, len(vec)):
            out[(0, 0, c6 - d)] += m * vec[c6]
    return dict(out)


def classic_p_gain_above(spec: PoolSpec, n: int) -> float:
    """P(an af-classic check succeeds with a Gain above ``n``): its success margin (R13)
    exceeds ``n``."""
    rem = _classic_remaining(_classic_state(spec))
    total = 0.0
    for counts, p in rem.items():
        if sum(counts):
            top = max(i for i in range(3) if counts[i])  # the Result's face: 4, 5 or 6
            if counts[top] > n:
                total += p
    return total


def classic_check_odds(spec: PoolSpec | CheckState) -> CheckOdds:
    """Exact odds of one af-classic check (C1, C3, C5); ``p_fumble`` is always 0."""
    state = spec if isinstance(spec, CheckState) else _classic_state(spec)
    p_success, momentum, *_ = _summary(state)
    return CheckOdds(p_success, 0.0, momentum)


_Summary = tuple[
    float, float, dict[int, float], tuple[tuple[int, int, int, int, float], ...], dict[int, float]
]


@lru_cache(maxsize=512)
def _summary(state: CheckState) -> _Summary:
    """(P(success), expected Momentum, {highest success: p}, rows, spent) of a check (C1-C3).

    ``rows`` are the successful outcomes as (lowest success, successes, Momentum,
    Momentum once the lowest success is removed, p) for the opposition (C2). ``spent``:
    the expected Momentum of this check as an opposition once it has opposed an original
    whose lowest success is 4, 5 or 6: it spends its lowest success not below that one
    (none if it has none such) and counts pairs on what is left (C2, C3)."""
    v = state.ventures
    highest: dict[int, float] = defaultdict(float)
    rows: dict[tuple[int, int, int, int], float] = defaultdict(float)
    momentum = 0.0
    spent4 = spent5 = spent6 = 0.0
    for (r4, r5, r6), p in _classic_remaining(state).items():
        n = r4 + r5 + r6
        if not n:
            continue
        pairs = (r4 >> 1) + (r5 >> 1) + (r6 >> 1)
        singles = (r4 & 1) + (r5 & 1) + (r6 & 1)
        mom = pairs + (v if v < singles else singles)
        # Momentum with one success of a face showing ``c`` removed: an odd count loses a
        # single, an even one a pair and gains a single.
        less6 = _less_one(r6, pairs, singles, v) if r6 else mom
        less5 = _less_one(r5, pairs, singles, v) if r5 else less6
        reduced = _less_one(r4, pairs, singles, v) if r4 else less5
        momentum += p * mom
        spent4 += p * reduced
        spent5 += p * less5
        spent6 += p * less6
        highest[6 if r6 else 5 if r5 else 4] += p
        low = 4 if r4 else 5 if r5 else 6
        rows[(low, min(n, 2), mom, reduced)] += p
    p_success = math.fsum(highest.values())
    flat = tuple((lo, n, m, red, p) for (lo, n, m, red), p in rows.items())
    return p_success, momentum, dict(highest), flat, {4: spent4, 5: spent5, 6: spent6}


def _less_one(count: int, pairs: int, singles: int, ventures: int) -> int:
    """C3 Momentum once one success is removed from a face showing ``count`` (> 0)."""
    if count & 1:
        singles -= 1
    else:
        pairs -= 1
        singles += 1
    return pairs + (ventures if ventures < singles else singles)


def classic_contest_odds(
    attacker: PoolSpec | CheckState,
    defender: PoolSpec | CheckState | None,
    *,
    defense_wins_ties: bool = False,
) -> ContestOdds:
    """Exact odds of an af-classic contest (C2, C3).

    The opposition spends its lowest success that is not below the original's lowest
    success to remove it; the original then needs a success left. Both sides' Momentum is
    counted on what is left: the original's after the removal, the opposition's after its
    spent success (C3). With Advantage on the original, the opposition's 6s do not explode
    (C5): a spec defender is rolled that way against an attacker with Advantage, before the
    attack is rolled and after (``CheckState.advantage``). ``defense_wins_ties`` changes
    nothing: af-classic's opposition has no full tie (C2; R9's tie rule is af-2.5.4's).
    """
    a_state = attacker if isinstance(attacker, CheckState) else _classic_state(attacker)
    if defender is None:
        p_success, momentum, *_ = _summary(a_state)
        return ContestOdds(p_success, 0.0, p_success, momentum, 0.0)
    d_state = (
        defender
        if isinstance(defender, CheckState)
        else _classic_state(defender, against_advantage=a_state.advantage)
    )
    return _contest(a_state, d_state)


@lru_cache(maxsize=512)
def _contest(a_state: CheckState, d_state: CheckState) -> ContestOdds:
    p_success, _, _, a_rows, _ = _summary(a_state)
    _, _, highest, _, spent = _summary(d_state)
    # P(the opposition's highest success is at least ``low``), for low = 4, 5, 6.
    cut = {low: math.fsum(q for h, q in highest.items() if h >= low) for low in (4, 5, 6)}
    stopped = 0.0
    momentum = 0.0
    d_momentum = 0.0
    for low, n, mom, reduced, p in a_rows:
        p_cut = cut[low]
        momentum += p * (p_cut * reduced + (1.0 - p_cut) * mom)
        d_momentum += p * spent[low]
        if n == 1:
            stopped += p * p_cut
    return ContestOdds(p_success, stopped, p_success - stopped, momentum, d_momentum)


def clear_cache() -> None:
    """Forget memoised af-classic distributions."""
    _classic_remaining.cache_clear()
    _summary.cache_clear()
    _contest.cache_clear()
