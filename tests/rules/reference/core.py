"""The odds core as it was before the fast paths: the slow exact reference that the
fast paths are tested against (tests/rules/test_odds_fast.py). Do not optimise."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from afdesk.rules.odds.core import (  # noqa: F401  (re-exported for the reference modules)
    CheckOdds,
    CheckState,
    ContestOdds,
    PoolSpec,
    PoolState,
)

TAIL = 1e-19

_EXPLODING_LAST = (3 / 5, 1 / 5, 1 / 5, 0.0)
_PLAIN = (1 / 2, 1 / 6, 1 / 6, 1 / 6)
_DISADVANTAGE_LAST = (3 / 10, 3 / 10, 3 / 10, 1 / 10)


# --------------------------------------------------------------------- count distributions


@lru_cache(maxsize=256)
def _sixes(n: int) -> tuple[float, ...]:
    """P(K = k) for the total 6s of ``n`` exploding dice: negative binomial, tail cut."""
    if n == 0:
        return (1.0,)
    p = (5 / 6) ** n
    out = [p]
    k = 0
    while True:
        p *= (k + n) / (k + 1) / 6
        k += 1
        ratio = (k + n) / (k + 1) / 6
        if p < TAIL and ratio < 0.5:
            break
        out.append(p)
    return tuple(out)


def _convolve(a: Sequence[float], b: Sequence[float]) -> tuple[float, ...]:
    if len(a) == 1 and a[0] == 1.0:
        return tuple(b)
    if len(b) == 1 and b[0] == 1.0:
        return tuple(a)
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return tuple(out)


def _add_faces(
    dist: dict[tuple[int, int, int, int], float],
    face_probs: tuple[float, float, float, float],
    count: int,
    track_fails: bool,
) -> dict[tuple[int, int, int, int], float]:
    """Add ``count`` independent dice with (fail, 4, 5, 6) probabilities to ``dist``."""
    pf, p4, p5, p6 = face_probs
    for _ in range(count):
        nxt: dict[tuple[int, int, int, int], float] = defaultdict(float)
        for (x4, x5, x6, xf), p in dist.items():
            if pf:
                nxt[(x4, x5, x6, xf + 1 if track_fails else 0)] += p * pf
            if p4:
                nxt[(x4 + 1, x5, x6, xf)] += p * p4
            if p5:
                nxt[(x4, x5 + 1, x6, xf)] += p * p5
            if p6:
                nxt[(x4, x5, x6 + 1, xf)] += p * p6
        dist = nxt
    return dist


@lru_cache(maxsize=64)
def _advantage_faces(n: int) -> tuple[tuple[tuple[int, int, int, int], float], ...]:
    """Advantage: the faces that the retried 6s of ``n`` exploding dice's runs show.

    The runs hold S sixes (negative binomial, 1/6); each is retried to a uniform face, a Win
    with probability 1/2. Thinning a negative binomial keeps it one: the Wins among them are
    negative binomial with 1/11 (generating function ((10/11) / (1 - z/11))^n), spread
    uniformly over 4, 5 and 6. Terms below 1e-24 are dropped.
    """
    out = []
    p = (10 / 11) ** n
    k = 0
    while True:
        for x4 in range(k + 1):
            for x5 in range(k + 1 - x4):
                x6 = k - x4 - x5
                w = p * math.comb(k, x4) * math.comb(k - x4, x5) / 3**k
                if w >= 1e-24:
                    out.append(((x4, x5, x6, 0), w))
        p *= (k + n) / (k + 1) / 11
        k += 1
        if p < 1e-22 and (k + n) / (k + 1) / 11 < 0.5:
            return tuple(out)


def _retried_sixes(
    dist: dict[tuple[int, int, int, int], float], n: int
) -> dict[tuple[int, int, int, int], float]:
    """Add the retried 6s of ``n`` dice (Advantage) to ``dist``."""
    out: dict[tuple[int, int, int, int], float] = defaultdict(float)
    faces = _advantage_faces(n)
    for (x4, x5, x6, xf), p in dist.items():
        for (a4, a5, a6, _), q in faces:
            out[(x4 + a4, x5 + a5, x6 + a6, xf)] += p * q
    return out


class _Group(NamedTuple):
    low: tuple[int, int]
    p: float
    six: tuple[float, ...]


@lru_cache(maxsize=512)
def groups(state: PoolState) -> tuple[_Group, ...]:
    """The pool as ((4s, 5s), probability, distribution of its 6s given those) groups."""
    f4, f5, f6 = state.fixed
    track = state.retry_fails > 0
    dist: dict[tuple[int, int, int, int], float] = {(f4, f5, f6, state.fails if track else 0): 1}
    chain = 0
    if state.exploding:
        if not state.explode:
            dist = _add_faces(dist, _PLAIN, state.exploding, track)
        elif state.retry == "advantage":
            dist = _add_faces(dist, _EXPLODING_LAST, state.exploding, track)
            dist = _retried_sixes(dist, state.exploding)
        elif state.retry == "disadvantage":
            dist = _add_faces(dist, _DISADVANTAGE_LAST, state.exploding, track)
            chain = state.exploding
        else:
            dist = _add_faces(dist, _EXPLODING_LAST, state.exploding, track)
            chain = state.exploding
    dist = _add_faces(dist, _PLAIN, state.plain, track)
    if state.retry_fails:
        retried: dict[tuple[int, int, int, int], float] = defaultdict(float)
        for (x4, x5, x6, xf), p in dist.items():
            k = min(xf, state.retry_fails)
            for key, q in _add_faces({(x4, x5, x6, xf - k): p}, _PLAIN, k, True).items():
                retried[key] += q
        dist = retried
    by_low: dict[tuple[int, int], dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for (x4, x5, x6, _), p in dist.items():
        by_low[(x4, x5)][x6] += p
    chain_pmf = _sixes(chain)
    groups = []
    for low, sixes in by_low.items():
        total = sum(sixes.values())
        if total <= 0:
            continue
        vec = [0.0] * (max(sixes) + 1)
        for k, p in sixes.items():
            vec[k] = p / total
        groups.append(_Group(low, total, _shared(_convolve(tuple(vec), chain_pmf))))
    return tuple(groups)


_SHARED: dict[tuple[float, ...], tuple[float, ...]] = {}


def _shared(vec: tuple[float, ...]) -> tuple[float, ...]:
    """One object per distinct distribution, so groups can be keyed by identity."""
    return _SHARED.setdefault(vec, vec) if len(_SHARED) < 4096 else vec


def suffix(vec: Sequence[float]) -> list[float]:
    """suffix[k] = sum(vec[k:])."""
    out = [0.0] * (len(vec) + 1)
    acc = 0.0
    for k in range(len(vec) - 1, -1, -1):
        acc += vec[k]
        out[k] = acc
    return out


def clear_cache() -> None:
    """Forget the memoised pool distributions."""
    _sixes.cache_clear()
    _advantage_faces.cache_clear()
    groups.cache_clear()
    _SHARED.clear()
