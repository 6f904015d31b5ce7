"""Exact distribution of an af-2.5.4 check's margin (R13): (success, margin) -> probability.

The contest odds need only (Result, Gain) of a success and whether a failure Fumbles; a
chase (H3) needs the failure margin itself, 1 + the Interference Wins left unspent (R13),
because it is subtracted from the round's speed and lost as grit. Cancellation (R4) only
looks at how many 4s, 5s and 6s each pool shows, so, as in :mod:`afdesk.rules.odds.core`,
each pool is taken as groups of (4s, 5s) with the distribution of their 6s:

- Interference 4s cancel check 4s; left over, they are unspent only if the check then has
  no Wins at all (otherwise each is discarded against a higher check Win).
- Interference 5s cancel the lowest check 4s and 5s; left over, they are unspent only if
  the check has no 6s.
- Interference 6s cancel whatever is lowest; left over, they are unspent.

A pool of fresh exploding dice shows its 6s independently of its 4s and 5s, so most groups
share one 6-distribution and the 6s are combined once per distinct pair.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import lru_cache

from afdesk.rules.errors import RulesError
from afdesk.rules.odds.core import PoolSpec, PoolState, groups

Margins = dict[tuple[bool, int], float]
"""{(success, margin): probability}: the success margin is the Gain, the failure margin
1 + unspent Interference Wins (R13)."""


def check_margins(spec: PoolSpec) -> Margins:
    """The exact (success, margin) distribution of an af-2.5.4 check (R1-R6, R13).

    Takes the check dice and Interference of ``spec``; Ventures count as 2 Interference
    each (R8). Advantage, Disadvantage and retried Fails are not part of a chase check's
    pool and are refused rather than ignored.
    """
    if spec.advantage or spec.disadvantage or spec.retry_fails:
        raise RulesError(
            "margin odds cover plain pools: no Advantage, Disadvantage or retried Fails"
        )
    return dict(_margins(spec.dice, spec.interference + 2 * spec.ventures))


@lru_cache(maxsize=256)
def _margins(dice: int, interference: int) -> tuple[tuple[tuple[bool, int], float], ...]:
    check = groups(PoolState(exploding=dice))
    intf = groups(PoolState(exploding=interference))
    # No check 6s: the outcome depends on the check's 4s and 5s left after the Interference
    # 4s and 5s (n4, n5), the unspent low Interference u, and the Interference 6s.
    no_six: dict[tuple[int, int, int, int], float] = defaultdict(float)
    # Check 6s: only the count of low check Wins left (left over low Interference is spent
    # against the 6s) and both 6-counts matter.
    with_six: dict[tuple[int, int, int], float] = defaultdict(float)
    vectors: dict[int, tuple[float, ...]] = {}
    for ig in intf:
        i4, i5 = ig.low
        vectors[id(ig.six)] = ig.six
        for cg in check:
            c4, c5 = cg.low
            vectors[id(cg.six)] = cg.six
            mass = ig.p * cg.p
            n4 = max(c4 - i4, 0)
            # Leftover 4s are unspent only when the check has no 5s (and no 6s: below).
            u = max(i4 - c4, 0) if c5 == 0 else 0
            if i5 <= n4:
                n4, n5 = n4 - i5, c5
            else:
                n5 = max(c5 - (i5 - n4), 0)
                u += max(i5 - (n4 + c5), 0)
                n4 = 0
            if cg.six[0] > 0:
                no_six[(n4, n5, u, id(ig.six))] += mass * cg.six[0]
            if len(cg.six) > 1:
                with_six[(n4 + n5, id(cg.six), id(ig.six))] += mass
    out: dict[tuple[bool, int], float] = defaultdict(float)
    for (n4, n5, u, ii), mass in no_six.items():
        for i6, q in enumerate(vectors[ii]):
            p = mass * q
            left = n4 + n5 - i6
            if left <= 0:
                out[(False, 1 + u - left)] += p
            else:
                # Interference 6s cancel from the bottom: the 5s left, else the 4s left.
                out[(True, min(n5, left) if n5 else left)] += p
    for (low, ci, ii), mass in with_six.items():
        _add_sixes(out, low, mass, vectors[ci], vectors[ii])
    total = math.fsum(out.values())
    return tuple(sorted((k, p / total) for k, p in out.items() if p > 0.0))


def clear_cache() -> None:
    """Forget memoised margin distributions."""
    _margins.cache_clear()


def _add_sixes(
    out: dict[tuple[bool, int], float],
    low: int,
    mass: float,
    six_c: tuple[float, ...],
    six_i: tuple[float, ...],
) -> None:
    """Add the outcomes of ``c6 >= 1`` check 6s over ``low`` low check Wins against the
    Interference 6s (``six_i``), by slices: Interference 6s up to ``low`` leave every check 6
    (Gain c6); up to ``low + c6 - 1`` they leave ``low + c6 - i6`` sixes; beyond, they are
    unspent (failure margin ``1 + i6 - low - c6``)."""
    n = len(six_i)
    head = [0.0]
    for q in six_i:
        head.append(head[-1] + q)
    succ = [0.0] * (len(six_c) + 1)
    fail = [0.0] * (n + 1)
    for c6 in range(1, len(six_c)):
        pc = mass * six_c[c6]
        if pc < 1e-300:
            continue
        t = low + c6
        succ[c6] += pc * head[min(low + 1, n)]
        seg = six_i[low + 1 : min(t, n)]
        if seg:
            k = len(seg)
            succ[c6 - k : c6] = [
                a + pc * q for a, q in zip(succ[c6 - k : c6], seg[::-1], strict=True)
            ]
        if t < n:
            tail = six_i[t:]
            fail[1 : 1 + len(tail)] = [
                a + pc * q for a, q in zip(fail[1 : 1 + len(tail)], tail, strict=True)
            ]
    for g, p in enumerate(succ):
        if p:
            out[(True, g)] += p
    for m, p in enumerate(fail):
        if p:
            out[(False, m)] += p
