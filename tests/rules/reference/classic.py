"""Reference (earlier code): exact odds of af-classic checks and contests (C1-C3, C5),
with the amended C2/C3 opposition Momentum in the plainest form."""

from __future__ import annotations

import math
from collections import defaultdict
from functools import lru_cache

from afdesk.rules import classic
from tests.rules.reference.core import (
    CheckOdds,
    CheckState,
    ContestOdds,
    PoolSpec,
    PoolState,
    groups,
)


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
    check = groups(state.check)
    intf = groups(state.interference)
    after_low: dict[
        tuple[int, int, int, int], tuple[float, tuple[float, ...], tuple[float, ...]]
    ] = {}
    for cg in check:
        c4, c5 = cg.low
        for ig in intf:
            i4, i5 = ig.low
            a = c4 - i4 if c4 > i4 else 0
            # Interference 5s take the remaining 4s first, then 5s.
            rem4 = a - i5 if a > i5 else 0
            left5 = i5 - a if i5 > a else 0
            rem5 = c5 - left5 if c5 > left5 else 0
            key = (rem4, rem5, id(cg.six), id(ig.six))
            entry = after_low.get(key)
            if entry is None:
                after_low[key] = (cg.p * ig.p, cg.six, ig.six)
            else:
                after_low[key] = (entry[0] + cg.p * ig.p, entry[1], entry[2])
    out: dict[tuple[int, int, int], float] = defaultdict(float)
    for (rem4, rem5, _, _), (mass, six_c, six_i) in after_low.items():
        low = rem4 + rem5
        for i6, q in enumerate(six_i):
            mq = mass * q
            if mq < 1e-30:
                continue
            if i6 <= low:
                k4 = min(i6, rem4)
                r4, r5 = rem4 - k4, rem5 - (i6 - k4)
                for c6, pc in enumerate(six_c):
                    out[(r4, r5, c6)] += mq * pc
            else:
                d = i6 - low
                for c6, pc in enumerate(six_c):
                    out[(0, 0, c6 - d if c6 > d else 0)] += mq * pc
    return dict(out)


def _classic_momentum(counts: tuple[int, int, int], ventures: int) -> int:
    pairs = sum(n // 2 for n in counts)
    singles = sum(n % 2 for n in counts)
    return pairs + min(ventures, singles)


def _remove_lowest(counts: tuple[int, int, int]) -> tuple[int, int, int]:
    r4, r5, r6 = counts
    if r4:
        return (r4 - 1, r5, r6)
    if r5:
        return (r4, r5 - 1, r6)
    return (r4, r5, r6 - 1)


def _spend_able(counts: tuple[int, int, int], low: int) -> tuple[int, int, int]:
    """``counts`` less its lowest success of at least ``low`` (unchanged if none)."""
    out = list(counts)
    for face in range(low, 7):
        if out[face - 4]:
            out[face - 4] -= 1
            break
    return (out[0], out[1], out[2])


def _lowest(counts: tuple[int, int, int]) -> int:
    r4, r5, _ = counts
    return 4 if r4 else 5 if r5 else 6


def _highest(counts: tuple[int, int, int]) -> int:
    _, r5, r6 = counts
    return 6 if r6 else 5 if r5 else 4


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
    rem = _classic_remaining(state)
    p_success = math.fsum(p for c, p in rem.items() if sum(c))
    mom = math.fsum(p * _classic_momentum(c, state.ventures) for c, p in rem.items())
    return CheckOdds(p_success, 0.0, mom)


def classic_contest_odds(
    attacker: PoolSpec | CheckState, defender: PoolSpec | CheckState | None
) -> ContestOdds:
    """Exact odds of an af-classic contest (C2).

    The opposition's highest success cancels the original's lowest success if that is not
    higher; the original then needs a success left. With Advantage on the original, the
    opposition's 6s do not explode (C5): a spec defender is rolled that way against an
    attacker with Advantage, before the attack is rolled and after (``CheckState.advantage``).
    """
    a_state = attacker if isinstance(attacker, CheckState) else _classic_state(attacker)
    a_rem = _classic_remaining(a_state)
    p_success = math.fsum(p for c, p in a_rem.items() if sum(c))
    mom_before = math.fsum(p * _classic_momentum(c, a_state.ventures) for c, p in a_rem.items())
    if defender is None:
        return ContestOdds(p_success, 0.0, p_success, mom_before, 0.0)
    against = a_state.advantage
    d_state = (
        defender
        if isinstance(defender, CheckState)
        else _classic_state(defender, against_advantage=against)
    )
    d_rem = _classic_remaining(d_state)
    highest: dict[int, float] = defaultdict(float)
    for c, p in d_rem.items():
        if sum(c):
            highest[_highest(c)] += p
    # C2, C3 as amended: the opposition spends its lowest success not below the original's
    # lowest, and counts its Momentum on what is left (a plain double loop).
    by_lowest: dict[int, list[float]] = defaultdict(list)
    for ca, pa in a_rem.items():
        if sum(ca):
            by_lowest[_lowest(ca)].append(pa)
    terms = []
    for low, masses in by_lowest.items():
        pa = math.fsum(masses)
        for cd, pd in d_rem.items():
            if sum(cd):
                terms.append(pa * pd * _classic_momentum(_spend_able(cd, low), d_state.ventures))
    d_mom = math.fsum(terms)
    stopped = 0.0
    momentum = 0.0
    for c, p in a_rem.items():
        if not sum(c):
            continue
        low = _lowest(c)
        p_cut = sum(q for h, q in highest.items() if low <= h)
        reduced = _remove_lowest(c)
        momentum += p * (
            p_cut * _classic_momentum(reduced, a_state.ventures)
            + (1.0 - p_cut) * _classic_momentum(c, a_state.ventures)
        )
        if sum(c) == 1:
            stopped += p * p_cut
    return ContestOdds(p_success, stopped, p_success - stopped, momentum, d_mom)


def clear_cache() -> None:
    """Forget memoised af-classic distributions."""
    _classic_remaining.cache_clear()
