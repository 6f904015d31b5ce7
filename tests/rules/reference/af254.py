"""Reference (earlier code): exact odds of af-2.5.4 checks, contests and cooperation (R1-R11).

With ``b`` low Wins left after the Interference 4s and 5s, Interference 6s ``i6 <= b``
leave every check 6 standing (Gain = c6, W = b - i6) and ``i6 > b`` leave
``c6 - (i6 - b)`` sixes and nothing else, so each pair of 6-count distributions is
combined once per ``b``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from functools import lru_cache
from typing import NamedTuple

import msgspec

from afdesk.rules import af254
from afdesk.rules.dice import Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.odds.af254 import Cooperation
from tests.rules.reference.core import (
    CheckOdds,
    CheckState,
    ContestOdds,
    PoolSpec,
    PoolState,
    groups,
    suffix,
)


def _af254_state(spec: PoolSpec, extra_interference: int = 0) -> CheckState:
    """The fresh-roll state of an af-2.5.4 check (R1, R2, R4, R8).

    ``extra_interference`` comes from failed helpers (R11). Disadvantage with no
    Interference at all adds 2 Interference dice instead of its retry.
    """
    af254.check_venture_allowed(spec.interference, spec.ventures)
    total = spec.interference + extra_interference + 2 * spec.ventures
    adv = spec.advantage and not spec.disadvantage
    dis = spec.disadvantage and not spec.advantage
    added = dis and total == 0
    retry = "advantage" if adv else "disadvantage" if dis and not added else None
    return CheckState(
        check=PoolState(exploding=spec.dice, retry_fails=spec.retry_fails),
        interference=PoolState(exploding=2 if added else total, retry=retry),
        ventures=spec.ventures,
    )


# ----------------------------------------------------------------------- af-2.5.4 outcomes


class Distribution(NamedTuple):
    """What one check comes to, as probabilities.

    ``scores`` maps (Result, Gain) of a success to its probability.
    """

    p_success: float
    p_fumble: float
    expected_momentum: float
    scores: dict[tuple[int, int], float]

    def p_gain_above(self, n: int) -> float:
        """P(success with a Gain above ``n``): the success margin exceeds ``n`` (R13)."""
        return sum(p for (_, g), p in self.scores.items() if g > n)


@lru_cache(maxsize=1024)
def _distribution(state: CheckState) -> Distribution:
    v = state.ventures
    check = groups(state.check)
    intf = groups(state.interference)
    # Masses by (key, interference 6-distribution); the sums below are linear in that
    # distribution, so each key later gets one mass-weighted vector.
    six_mass: dict[tuple[int, ...], float] = defaultdict(float)
    low_mass: dict[tuple[int, ...], float] = defaultdict(float)
    vectors: dict[int, tuple[float, ...]] = {}
    for ig in intf:
        vectors[id(ig.six)] = ig.six
    for cg in check:
        c4, c5 = cg.low
        p_no_six = cg.six[0]
        p_six = 1.0 - p_no_six if len(cg.six) > 1 else 0.0
        vectors[id(cg.six)] = cg.six
        top: tuple[int, int]
        if c5:
            top = (5, c5)
        elif c4:
            top = (4, c4)
        else:
            top = (0, 0)
        for ig in intf:
            i4, i5 = ig.low
            m = cg.p * ig.p
            a = c4 - i4 if c4 > i4 else 0
            b = a + c5 - i5 if a + c5 > i5 else 0
            if p_six > 0:
                six_mass[(b, id(cg.six), id(ig.six))] += m * p_six
            if p_no_six > 0:
                if b == 0:
                    if c4 + c5 == 0:
                        ul = i4 + i5
                    elif c5 == 0:
                        ul = i4 - c4 + i5 if i4 >= c4 else i5 - a
                    else:
                        ul = i5 - a - c5
                    key: tuple[int, ...] = (0, 0, 0, ul > 0, id(ig.six))
                else:
                    key = (b, *top, False, id(ig.six))
                low_mass[key] += m * p_no_six
    six_branch = _weighted(six_mass, vectors)
    low_branch = _weighted(low_mass, vectors)
    scores: dict[tuple[int, int], float] = defaultdict(float)
    p_fumble = 0.0
    momentum = 0.0
    # Check 6s present: the Result is 6. ``six_i`` is mass-weighted, ``six_c`` conditional
    # on at least one 6.
    for (b, c_id), six_i in six_branch.items():
        six_c = vectors[c_id]
        norm = 1.0 - six_c[0]
        # i6 <= b: every check 6 stands, W = b - i6.
        p_low_i = 0.0
        mom = 0.0
        for i6 in range(min(b, len(six_i) - 1) + 1):
            q = six_i[i6]
            p_low_i += q
            mom += q * ((b - i6 + v) // 2)
        if p_low_i:
            for g in range(1, len(six_c)):
                scores[(6, g)] += six_c[g] / norm * p_low_i
        momentum += mom
        # i6 = b + d > b: c6 - d sixes are left (W = 0).
        tail_c = suffix(six_c)
        for d in range(1, len(six_i) - b):
            q = six_i[b + d] / norm
            if q < 1e-30:
                continue
            for g in range(1, len(six_c) - d):
                scores[(6, g)] += q * six_c[g + d]
            momentum += q * (tail_c[d + 1] if d + 1 < len(tail_c) else 0.0) * (v // 2)
            # 1 <= c6 < d: the check runs out with Interference 6s unspent.
            p_fumble += q * (norm - (tail_c[d] if d < len(tail_c) else 0.0))
    # No check 6s.
    for (b, face, count, unspent), six_i in low_branch.items():
        mass = math.fsum(six_i)
        if b == 0:
            p_fumble += mass if unspent else mass - six_i[0]
            continue
        for i6 in range(min(b - 1, len(six_i) - 1) + 1):
            q = six_i[i6]
            r = b - i6
            g = min(count, r)
            scores[(face, g)] += q
            momentum += q * ((r - g + v) // 2)
        p_fumble += math.fsum(six_i[b + 1 :])
    p_success = math.fsum(scores.values())
    return Distribution(min(p_success, 1.0), p_fumble, momentum, dict(scores))


def _weighted(
    masses: dict[tuple[int, ...], float], vectors: dict[int, tuple[float, ...]]
) -> dict[tuple[int, ...], list[float]]:
    """Turn {(*key, vector id): mass} into {key: sum of mass * vector}."""
    out: dict[tuple[int, ...], list[float]] = {}
    for (*parts, vid), m in masses.items():
        vec = vectors[vid]
        key = tuple(parts)
        acc = out.get(key)
        if acc is None:
            out[key] = [m * x for x in vec]
            continue
        if len(acc) < len(vec):
            acc.extend([0.0] * (len(vec) - len(acc)))
        for i, x in enumerate(vec):
            acc[i] += m * x
    return out


# ------------------------------------------------------------------------------- cooperation


@lru_cache(maxsize=256)
def _cooperation(coop: Cooperation) -> Distribution:
    # Distribution over (extra Interference, Fail retries) from the helpers.
    combos: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for helper in coop.helpers:
        dist = _distribution(_af254_state(helper))
        own: dict[tuple[int, int], float] = defaultdict(float)
        for (_, g), p in dist.scores.items():
            own[(0, g)] += p
        own[(2, 0)] += dist.p_fumble
        own[(1, 0)] += max(0.0, 1.0 - dist.p_success - dist.p_fumble)
        nxt: dict[tuple[int, int], float] = defaultdict(float)
        for (e1, r1), p1 in combos.items():
            for (e2, r2), p2 in own.items():
                nxt[(e1 + e2, r1 + r2)] += p1 * p2
        combos = nxt
    scores: dict[tuple[int, int], float] = defaultdict(float)
    p_fumble = momentum = 0.0
    leader = coop.leader
    for (extra, retries), p in combos.items():
        if p < 1e-30:
            continue
        spec = msgspec.structs.replace(leader, retry_fails=leader.retry_fails + retries)
        state = _af254_state(spec, extra)
        dist = _distribution(state)
        for key, q in dist.scores.items():
            scores[key] += p * q
        p_fumble += p * dist.p_fumble
        momentum += p * dist.expected_momentum
    return Distribution(min(1.0, math.fsum(scores.values())), p_fumble, momentum, dict(scores))


def distribution(pool: PoolSpec | CheckState | Cooperation | Roll) -> Distribution:
    """The af-2.5.4 outcome distribution of a check, a check part-way through, a
    cooperation, or a roll as it lies (read as its :class:`CheckState`)."""
    if isinstance(pool, PoolSpec):
        return _distribution(_af254_state(pool))
    if isinstance(pool, CheckState):
        return _distribution(pool)
    if isinstance(pool, Cooperation):
        return _cooperation(pool)
    if isinstance(pool, Roll):
        return _distribution(CheckState.from_roll(pool))
    raise RulesError(f"expected a PoolSpec, a CheckState, a Cooperation or a Roll, got {pool!r}")


def check_odds(spec: PoolSpec | CheckState | Cooperation) -> CheckOdds:
    """Exact odds of one af-2.5.4 check."""
    d = distribution(spec)
    return CheckOdds(d.p_success, d.p_fumble, d.expected_momentum)


def p_beats(
    defender: dict[tuple[int, int], float], attacker: dict[tuple[int, int], float]
) -> float:
    """P(defender's score beats attacker's) over independent (Result, Gain) scores (R9)."""
    by_result: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for (r, g), p in defender.items():
        by_result[r].append((g, p))
    higher: dict[int, float] = {}
    gains: dict[int, tuple[list[tuple[int, float]], list[float]]] = {}
    for r in (4, 5, 6):
        higher[r] = sum(p for (rr, _), p in defender.items() if rr > r)
        items = sorted(by_result.get(r, ()))
        gains[r] = (items, suffix([p for _, p in items]))
    total = 0.0
    for (r, g), p in attacker.items():
        items, tail = gains[r]
        # First defender gain strictly above g.
        lo, hi = 0, len(items)
        while lo < hi:
            mid = (lo + hi) // 2
            if items[mid][0] <= g:
                lo = mid + 1
            else:
                hi = mid
        total += p * (higher[r] + tail[lo])
    return total


def contest_odds(
    attacker: PoolSpec | CheckState | Cooperation,
    defender: PoolSpec | CheckState | Cooperation | None,
    *,
    defense_wins_ties: bool = False,
) -> ContestOdds:
    """Exact odds of an af-2.5.4 contest: the attack succeeds, is stopped, lands (R9).

    ``defense_wins_ties`` (R9 as amended): a full tie stops the attack; the reference adds
    the tied mass by a plain double loop over both score tables."""
    a = distribution(attacker)
    if defender is None:
        return ContestOdds(a.p_success, 0.0, a.p_success, a.expected_momentum, 0.0)
    d = distribution(defender)
    stopped = p_beats(d.scores, a.scores)
    if defense_wins_ties:
        for (ra, ga), pa in a.scores.items():
            for (rd, gd), pd in d.scores.items():
                if (ra, ga) == (rd, gd):
                    stopped += pa * pd
    lands = max(0.0, a.p_success - stopped)
    return ContestOdds(
        a.p_success, stopped, lands, a.expected_momentum, a.p_success * d.expected_momentum
    )


def clear_cache() -> None:
    """Forget memoised af-2.5.4 distributions."""
    _distribution.cache_clear()
    _cooperation.cache_clear()
