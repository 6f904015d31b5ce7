"""Exact odds of af-2.5.4 checks, contests and cooperation (R1-R11).

With ``b`` low Wins left after the Interference 4s and 5s, Interference 6s ``i6 <= b``
leave every check 6 standing (Gain = c6, W = b - i6) and ``i6 > b`` leave
``c6 - (i6 - b)`` sixes and nothing else, so each pair of 6-count distributions is
combined once per ``b``.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from functools import lru_cache
from typing import NamedTuple

import msgspec

from afdesk.rules import af254
from afdesk.rules.dice import Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.odds.core import (
    CheckOdds,
    CheckState,
    ContestOdds,
    PoolSpec,
    PoolState,
    RetryMix,
    _Group,
    groups,
    mixed_groups,
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
    check = groups(state.check)
    return _outcome(check, _interference(state.interference, check), state.ventures)


def _interference(state: PoolState, check: tuple[_Group, ...]) -> tuple[_Group, ...]:
    """The Interference groups, 4s and 5s counted up to one more than the check can have
    low Wins: beyond that every count cancels the same and leaves some unspent (R4).
    This keeps the Advantage pools, with their long tails of retried Wins, small."""
    return groups(state, 1 + max((c4 + c5 for (c4, c5), _, _ in check), default=0))


def _outcome(check: tuple[_Group, ...], intf: tuple[_Group, ...], v: int) -> Distribution:
    """What a check pool comes to against an Interference pool, both as groups (R4-R7)."""
    # Masses by (key, 6-distribution indices); the sums below are linear in those
    # distributions, so each key later gets one mass-weighted vector.
    vectors: list[tuple[float, ...]] = []
    index: dict[int, int] = {}

    def vid(vec: tuple[float, ...]) -> int:
        i = index.get(id(vec))
        if i is None:
            i = index[id(vec)] = len(vectors)
            vectors.append(vec)
        return i

    check_rows = []
    for cg in check:
        p_no_six = cg.six[0]
        p_six = 1.0 - p_no_six if len(cg.six) > 1 else 0.0
        check_rows.append((*cg.low, cg.p * p_six, cg.p * p_no_six, vid(cg.six)))
    # The check's low Wins after the Interference 4s depend on the count of 4s only: ``s``
    # low Wins are left, and ``e`` Interference 4s (unspent if the check has no 5s).
    after_4s: dict[int, tuple[list[tuple[int, int, float]], list[tuple[tuple[int, ...], float]]]]
    after_4s = {}
    six_mass: dict[tuple[int, ...], float] = defaultdict(float)
    low_mass: dict[tuple[int, ...], float] = defaultdict(float)
    for ig in intf:
        i4, i5 = ig.low
        rows = after_4s.get(i4)
        if rows is None:
            six_rows: dict[tuple[int, int], float] = defaultdict(float)
            low_rows: dict[tuple[int, ...], float] = defaultdict(float)
            for c4, c5, m6, m0, ci in check_rows:
                a, e = (c4 - i4, 0) if c4 > i4 else (0, i4 - c4)
                if m6:
                    six_rows[(a + c5, ci)] += m6
                if m0:
                    low_rows[(a + c5, 5, c5, 0) if c5 else (a, 4, c4, e)] += m0
            rows = after_4s[i4] = (
                [(s6, ci, m) for (s6, ci), m in six_rows.items()],
                list(low_rows.items()),
            )
        ii = vid(ig.six)
        ip = ig.p
        for s6, ci, m in rows[0]:
            six_mass[(s6 - i5 if s6 > i5 else 0, ci, ii)] += m * ip
        for (s0, face, count, e), m in rows[1]:
            if s0 > i5:
                low_mass[(s0 - i5, face, count, 0, ii)] += m * ip
            else:
                low_mass[(0, 0, 0, e + i5 - s0 > 0, ii)] += m * ip
    low_branch = _heads(low_mass, vectors)
    scores: dict[tuple[int, int], float] = defaultdict(float)
    p_fumble = 0.0
    momentum = 0.0
    # Check 6s present: the Result is 6 (the six branch).
    sixes, mom6, fumble6 = _six_branch(six_mass, vectors, v)
    for g, x in enumerate(sixes):
        if x:
            scores[(6, g)] += x
    momentum += mom6
    p_fumble += fumble6
    # No check 6s: only the Interference's first b + 1 six-counts matter, and its mass.
    for (b, face, count, unspent), (six_i, mass) in low_branch.items():
        if b == 0:
            p_fumble += mass if unspent else mass - six_i[0]
            continue
        for i6 in range(min(b - 1, len(six_i) - 1) + 1):
            q = six_i[i6]
            r = b - i6
            g = min(count, r)
            scores[(face, g)] += q
            momentum += q * ((r - g + v) // 2)
        # More than b Interference 6s: the check runs out with some unspent (R6).
        p_fumble += mass - math.fsum(six_i)
    p_success = math.fsum(scores.values())
    return Distribution(min(p_success, 1.0), p_fumble, momentum, dict(scores))


def _six_branch(
    six_mass: dict[tuple[int, ...], float], vectors: list[tuple[float, ...]], v: int
) -> tuple[list[float], float, float]:
    """The six branch ({(b, check vector, Interference vector): mass}, the check showing
    at least one 6): (P(Result 6 and Gain g) by g, its expected Momentum, its Fumbles).

    With ``b`` low Wins left, Interference 6s ``i6 <= b`` leave every check 6 standing
    (Gain = c6, W = b - i6); ``i6 = b + d > b`` leave ``c6 - d`` sixes (W = 0) or, with
    ``c6 <= d``, a Fumble. Every term is bilinear in the two 6-distributions; only the
    correlation ``sum_d P(i6 = b + d) P(c6 = g + d)`` costs a product of their lengths, so
    it is summed once per distinct check distribution (the Interference's shifted by
    ``b`` and added up first) or once per (b, Interference distribution) pair (the check's
    added up first), whichever makes fewer."""
    cond: dict[int, list[float]] = {}
    for _, ci, _ in six_mass:
        if ci not in cond:
            own = vectors[ci]
            norm = 1.0 - own[0]
            cond[ci] = [0.0, *(x / norm for x in own[1:])]
    pairs = {(b, ii) for b, _, ii in six_mass}
    if len(cond) <= len(pairs):
        return _six_by_check(six_mass, vectors, cond, v)
    return _six_by_pair(six_mass, vectors, cond, v)


def _low_sixes(six_i: tuple[float, ...], b: int, v: int) -> tuple[float, float]:
    """(P(i6 <= b), E[Momentum (b - i6 + v) // 2 over those]) (R7)."""
    p_low = mom = 0.0
    for i6 in range(min(b, len(six_i) - 1) + 1):
        q = six_i[i6]
        p_low += q
        mom += q * ((b - i6 + v) // 2)
    return p_low, mom


CUT = 1e-22
"""Mass below which a product term of the six branch is dropped: each correlation stops
where the mass of the rest of a 6-distribution, times its weight, is below it (at most
about 1e5 such terms per outcome: below 1e-16 in all)."""


def _stop(rising: list[float], weight: float) -> int:
    """The first index whose tail mass times ``weight`` is below :data:`CUT`, given the
    tail masses negated (``rising``, nondecreasing); the length if there is none."""
    return min(bisect.bisect_right(rising, -CUT / weight), len(rising) - 1)


def _six_by_check(
    six_mass: dict[tuple[int, ...], float],
    vectors: list[tuple[float, ...]],
    cond: dict[int, list[float]],
    v: int,
) -> tuple[list[float], float, float]:
    """:func:`_six_branch`, one correlation per check distribution."""
    low: dict[tuple[int, int], tuple[float, float]] = {}
    stands: dict[int, float] = defaultdict(float)  # P(i6 <= b) mass, per check vector
    over: dict[int, list[float]] = {}  # over[ci][d - 1]: mass of i6 = b + d
    rising_i: dict[int, list[float]] = {}
    momentum = 0.0
    for (b, ci, ii), m in six_mass.items():
        six_i = vectors[ii]
        lo = low.get((b, ii))
        if lo is None:
            lo = low[(b, ii)] = _low_sixes(six_i, b, v)
        stands[ci] += m * lo[0]
        momentum += m * lo[1]
        rising = rising_i.get(ii)
        if rising is None:
            rising = rising_i[ii] = [-x for x in suffix(six_i)]
        n = _stop(rising, m) - b - 1
        if n <= 0:
            continue
        acc = over.get(ci)
        head = six_i[b + 1 : b + 1 + n]
        if acc is None:
            over[ci] = [m * x for x in head]
            continue
        if len(acc) < n:
            acc.extend([0.0] * (n - len(acc)))
        acc[:n] = [y + m * x for y, x in zip(acc[:n], head, strict=True)]
    sixes: list[float] = []
    p_fumble = 0.0
    half_v = v // 2
    for ci, six_c in cond.items():
        n_c = len(six_c)
        if len(sixes) < n_c:
            sixes.extend([0.0] * (n_c - len(sixes)))
        s = stands.get(ci, 0.0)
        if s:
            sixes[1:n_c] = [y + c * s for y, c in zip(sixes[1:n_c], six_c[1:], strict=True)]
        tail_c = suffix(six_c)
        rising = [-x for x in tail_c]
        for d, q in enumerate(over.get(ci, ()), 1):
            if q < 1e-30:
                continue
            end = _stop(rising, q) - d
            if end > 1:
                shifted = six_c[1 + d : end + d]
                sixes[1:end] = [y + q * c for y, c in zip(sixes[1:end], shifted, strict=True)]
                if half_v:
                    momentum += q * tail_c[d + 1] * half_v
            # 1 <= c6 < d: the check runs out with Interference 6s unspent (R6).
            p_fumble += q * (1.0 - (tail_c[d] if d <= n_c else 0.0))
    return sixes, momentum, p_fumble


def _six_by_pair(
    six_mass: dict[tuple[int, ...], float],
    vectors: list[tuple[float, ...]],
    cond: dict[int, list[float]],
    v: int,
) -> tuple[list[float], float, float]:
    """:func:`_six_branch`, one correlation per (b, Interference distribution) pair."""
    by_intf: dict[tuple[int, int], list[float]] = {}
    for (b, ci, ii), m in six_mass.items():
        vec = cond[ci]
        acc = by_intf.get((b, ii))
        if acc is None:
            by_intf[(b, ii)] = [m * x for x in vec]
            continue
        if len(acc) < len(vec):
            acc.extend([0.0] * (len(vec) - len(acc)))
        n = len(vec)
        acc[:n] = [y + m * x for y, x in zip(acc[:n], vec, strict=True)]
    sixes: list[float] = []
    momentum = p_fumble = 0.0
    half_v = v // 2
    for (b, ii), six_c in by_intf.items():
        six_i = vectors[ii]
        total_c = math.fsum(six_c)
        tail_c = suffix(six_c)
        n_c = len(six_c)
        if len(sixes) < n_c:
            sixes.extend([0.0] * (n_c - len(sixes)))
        p_low, mom = _low_sixes(six_i, b, v)
        if p_low:
            sixes[1:n_c] = [y + c * p_low for y, c in zip(sixes[1:n_c], six_c[1:], strict=True)]
        momentum += mom * total_c
        for d in range(1, len(six_i) - b):
            q = six_i[b + d]
            if q * total_c < 1e-30:
                continue
            end = n_c - d
            if end > 1:
                shifted = six_c[1 + d :]
                sixes[1:end] = [y + q * c for y, c in zip(sixes[1:end], shifted, strict=True)]
                if half_v:
                    momentum += q * tail_c[d + 1] * half_v
            # 1 <= c6 < d: the check runs out with Interference 6s unspent (R6).
            p_fumble += q * (total_c - (tail_c[d] if d <= n_c else 0.0))
    return sixes, momentum, p_fumble


def _heads(
    masses: dict[tuple[int, ...], float], vectors: list[tuple[float, ...]]
) -> dict[tuple[int, ...], tuple[list[float], float]]:
    """Turn {(b, *key, vector id): mass} into {(b, *key): (sum of mass * vector[: b + 1],
    sum of mass * the vector's total)}: the low branch needs no more of a 6-distribution."""
    totals: dict[int, float] = {}
    out: dict[tuple[int, ...], tuple[list[float], float]] = {}
    for (*parts, vid), m in masses.items():
        vec = vectors[vid]
        total = totals.get(vid)
        if total is None:
            total = totals[vid] = math.fsum(vec)
        key = tuple(parts)
        head = vec[: key[0] + 1]
        entry = out.get(key)
        if entry is None:
            out[key] = ([m * x for x in head], m * total)
            continue
        acc, mass = entry
        if len(acc) < len(head):
            acc.extend([0.0] * (len(head) - len(acc)))
        n = len(head)
        acc[:n] = [y + m * x for y, x in zip(acc[:n], head, strict=True)]
        out[key] = (acc, mass + m * total)
    return out


# ------------------------------------------------------------------------------- cooperation


class Cooperation(msgspec.Struct, frozen=True):
    """Cooperating characters (R11): the leader's pool and the helpers' pools as rolled.

    Give each helper its Interference already including the 1 per other cooperator
    (:func:`afdesk.rules.af254.helper_interference`). The leader may retry Fails up to the
    helpers' total Gain; a failed helper gives the leader 1 Interference, a Fumbling one 2.
    """

    leader: PoolSpec
    helpers: tuple[PoolSpec, ...]


@lru_cache(maxsize=256)
def _cooperation(coop: Cooperation) -> Distribution:
    """R11 as a mixture: the helpers decide the leader's extra Interference and how many
    Fails it may retry; the outcome is linear in the leader's pool, so for each extra
    Interference the leader's pool is mixed over its retries and evaluated once."""
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
    by_extra: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    leader = coop.leader
    for (extra, retries), p in combos.items():
        if p >= 1e-30:
            by_extra[extra][leader.retry_fails + retries] += p
    # The outcome is linear in the Interference pool: the extra Interference counts that
    # leave the leader the same retries share one check pool, their Interference pools
    # mixed by weight, and are evaluated once.
    by_mix: dict[RetryMix, list[tuple[int, float]]] = defaultdict(list)
    for extra, mix in sorted(by_extra.items()):
        weight = math.fsum(mix.values())
        # Retrying more Fails than the pool has dice is retrying them all.
        capped: dict[int, float] = defaultdict(float)
        for r, p in mix.items():
            capped[min(r, leader.dice)] += p / weight
        by_mix[tuple(sorted(capped.items()))].append((extra, weight))
    scores: dict[tuple[int, int], float] = defaultdict(float)
    p_fumble = momentum = 0.0
    for retry_mix, parts in by_mix.items():
        weight = math.fsum(w for _, w in parts)
        state = _af254_state(leader, parts[0][0])
        if len(retry_mix) == 1:
            check = groups(state.check._replace(retry_fails=retry_mix[0][0]))
        else:
            check = mixed_groups(state.check._replace(retry_fails=0), retry_mix)
        intf = _mixed(
            [
                (_interference(_af254_state(leader, extra).interference, check), w / weight)
                for extra, w in parts
            ]
        )
        dist = _outcome(check, intf, state.ventures)
        for key, q in dist.scores.items():
            scores[key] += weight * q
        p_fumble += weight * dist.p_fumble
        momentum += weight * dist.expected_momentum
    return Distribution(min(1.0, math.fsum(scores.values())), p_fumble, momentum, dict(scores))


def _mixed(parts: list[tuple[tuple[_Group, ...], float]]) -> tuple[_Group, ...]:
    """The mixture of several pools' groups, each pool with its weight.

    Groups with the same 4s and 5s merge, their 6-distributions mixed, when that makes at
    most twice as many distinct distributions as the pools have (Disadvantage's, nearly one
    per group already): half the groups for about as many distributions. Else the pools'
    distributions are kept as they are (shared objects: the six
    branch sums over as few distinct ones as it can) and only groups with the same
    distribution merge."""
    if len(parts) == 1:
        return parts[0][0]
    lows = {g.low for pool, _ in parts for g in pool}
    if len(lows) > 2 * len({id(g.six) for pool, _ in parts for g in pool}):
        kept: dict[tuple[tuple[int, int], int], _Group] = {}
        for pool, weight in parts:
            for g in pool:
                key = (g.low, id(g.six))
                had = kept.get(key)
                p = g.p * weight
                kept[key] = g._replace(p=p) if had is None else had._replace(p=had.p + p)
        return tuple(kept.values())
    mixed: dict[tuple[int, int], list[float]] = {}
    mass: dict[tuple[int, int], float] = defaultdict(float)
    for pool, weight in parts:
        for g in pool:
            m = g.p * weight
            mass[g.low] += m
            acc = mixed.get(g.low)
            if acc is None:
                mixed[g.low] = [m * x for x in g.six]
                continue
            if len(acc) < len(g.six):
                acc.extend([0.0] * (len(g.six) - len(acc)))
            n = len(g.six)
            acc[:n] = [y + m * x for y, x in zip(acc[:n], g.six, strict=True)]
    return tuple(
        _Group(low, mass[low], tuple(x / mass[low] for x in vec))
        for low, vec in mixed.items()
        if mass[low] > 0
    )


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
    defender: dict[tuple[int, int], float],
    attacker: dict[tuple[int, int], float],
    *,
    ties: bool = False,
) -> float:
    """P(defender's score beats attacker's) over independent (Result, Gain) scores (R9).

    ``ties``: a full tie (equal Result and equal Gain) goes to the defender too (R9: in an
    encounter where its reflex card is the higher, E2); else the original stands."""
    by_result: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for (r, g), p in defender.items():
        by_result[r].append((g, p))
    higher: dict[int, float] = {}
    gains: dict[int, tuple[list[int], list[float]]] = {}
    for r in (4, 5, 6):
        higher[r] = sum(p for (rr, _), p in defender.items() if rr > r)
        items = sorted(by_result.get(r, ()))
        gains[r] = ([g for g, _ in items], suffix([p for _, p in items]))
    find = bisect.bisect_left if ties else bisect.bisect_right
    total = 0.0
    for (r, g), p in attacker.items():
        keys, tail = gains[r]
        # The first defender Gain above g (at least g when it wins ties).
        total += p * (higher[r] + tail[find(keys, g)])
    return total


def contest_odds(
    attacker: PoolSpec | CheckState | Cooperation,
    defender: PoolSpec | CheckState | Cooperation | None,
    *,
    defense_wins_ties: bool = False,
) -> ContestOdds:
    """Exact odds of an af-2.5.4 contest: the attack succeeds, is stopped, lands (R9).

    ``defense_wins_ties``: a full tie (equal Result and Gain) stops the attack, as in an
    encounter where the defender holds the higher reflex card this round (R9, E2); by
    default the original stands."""
    a = distribution(attacker)
    if defender is None:
        return ContestOdds(a.p_success, 0.0, a.p_success, a.expected_momentum, 0.0)
    d = distribution(defender)
    stopped = p_beats(d.scores, a.scores, ties=defense_wins_ties)
    lands = max(0.0, a.p_success - stopped)
    return ContestOdds(
        a.p_success, stopped, lands, a.expected_momentum, a.p_success * d.expected_momentum
    )


def clear_cache() -> None:
    """Forget memoised af-2.5.4 distributions."""
    _distribution.cache_clear()
    _cooperation.cache_clear()
