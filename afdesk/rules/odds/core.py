"""The shared core of the exact odds of the two dice-pool rulesets (no Monte Carlo).

How it works. Interference removes check Wins from the bottom (R4), so what a check comes
to depends only on how many 4s, 5s and 6s each pool shows. A die that explodes shows a run
of K sixes (K is geometric, P(K = k) = (1/6)^k * 5/6) and then one last face uniform on 1-5,
so a pool of n fresh dice shows a multinomial number of 4s and 5s (the last faces) and,
independently, a negative-binomial number of 6s. :func:`groups` gives a pool as its 4s and
5s, enumerated exactly, each with the distribution of its 6s; the ruleset modules
(``af254``, ``classic``) turn two such pools into outcomes. The only approximation is that
the negative-binomial tails are cut where their mass is below 1e-19 per pool (and af254's
six branch drops terms below 1e-22); the error of any probability is below 1e-15.

Every figure is a float. ``PoolSpec`` describes a pool before rolling; ``PoolState`` a pool
during a roll (known faces plus dice still to roll: a Shift's added dice or retries), so the
contest dialog can show the odds of each Shift choice.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

import msgspec

from afdesk.rules.dice import Roll, validate_count, validate_faces
from afdesk.rules.errors import RulesError

TAIL = 1e-19
"""Mass below which a tail of 6-counts is dropped (per distribution)."""

# Distribution of one die's last face as (fail, 4, 5, 6) probabilities.
_EXPLODING_LAST = (3 / 5, 1 / 5, 1 / 5, 0.0)
_PLAIN = (1 / 2, 1 / 6, 1 / 6, 1 / 6)
# Disadvantage retries each Fail of the Interference: 1-3 (3/5) becomes a fresh frozen face.
_DISADVANTAGE_LAST = (3 / 10, 3 / 10, 3 / 10, 1 / 10)


# --------------------------------------------------------------------------- specifications


class PoolSpec(msgspec.Struct, frozen=True):
    """A check before rolling (af-2.5.4 by default).

    ``dice`` check dice, ``interference`` Interference dice (penalties), ``ventures``
    Ventures (R8: +2 Interference each; af-classic C3: +1 each), ``advantage`` and
    ``disadvantage`` (R4, C5), ``retry_fails`` Fails the roller will retry (a Distinction).
    Each ruleset's odds check its own Venture limit (R8, C3), not the spec.
    """

    dice: int
    interference: int = 0
    ventures: int = 0
    advantage: bool = False
    disadvantage: bool = False
    retry_fails: int = 0

    def __post_init__(self) -> None:
        validate_count(self.dice, "dice")
        validate_count(self.interference, "interference")
        validate_count(self.ventures, "ventures")
        validate_count(self.retry_fails, "retry_fails")
        for name in ("advantage", "disadvantage"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false")


class PoolState(NamedTuple):
    """One pool part-way through a roll: known Wins plus dice still to roll.

    ``fixed`` counts known 4s, 5s and 6s; ``fails`` known Fails (they matter only for
    ``retry_fails``); ``exploding`` fresh dice that explode; ``plain`` fresh dice that do not
    (a Shift's added dice, retried dice).
    """

    fixed: tuple[int, int, int] = (0, 0, 0)
    fails: int = 0
    exploding: int = 0
    plain: int = 0
    retry_fails: int = 0
    explode: bool = True
    """Whether the fresh ``exploding`` dice explode (af-classic C5 turns this off)."""
    retry: str | None = None
    """'advantage' retries the fresh dice's 6s, 'disadvantage' their Fails (R4)."""


class CheckState(NamedTuple):
    """A whole check part-way through: its pool, its Interference and its Ventures."""

    check: PoolState
    interference: PoolState
    ventures: int = 0
    advantage: bool = False
    """The check was rolled with Advantage (and no Disadvantage): af-classic's opposition
    rolls against it without exploding its 6s (C5)."""

    @classmethod
    def from_roll(cls, roll: Roll) -> CheckState:
        """Every face known: the state right after ``roll`` (before any Shift)."""
        return cls(
            _known(roll.check_faces),
            _known(roll.interference_faces),
            roll.ventures,
            roll.advantage and not roll.disadvantage,
        )

    def with_added_dice(self, count: int = 2, *, explode: bool = False) -> CheckState:
        """After a Shift that adds ``count`` dice (they do not explode, R10), or, with
        ``explode``, af-classic's Will (C4: 2 dice rolled like the check's, exploding)."""
        c = self.check
        if explode:
            if c.exploding and not c.explode:
                raise RulesError("exploding dice cannot join fresh dice that do not explode")
            return self._replace(check=c._replace(exploding=c.exploding + count, explode=True))
        return self._replace(check=c._replace(plain=c.plain + count))

    def with_retried(self, faces: Iterable[int]) -> CheckState:
        """After retrying check dice showing ``faces`` (each re-rolled once, frozen, R3)."""
        c = self.check
        f4, f5, f6 = c.fixed
        fails = c.fails
        n = 0
        for face in validate_faces(tuple(faces), "retried faces"):
            n += 1
            if face <= 3:
                fails -= 1
            elif face == 4:
                f4 -= 1
            elif face == 5:
                f5 -= 1
            else:
                f6 -= 1
        if min(f4, f5, f6, fails) < 0:
            raise RulesError("the retried faces are not all in the pool")
        check = c._replace(fixed=(f4, f5, f6), fails=fails, plain=c.plain + n)
        return self._replace(check=check)


def _known(faces: Sequence[int]) -> PoolState:
    return PoolState(
        fixed=(faces.count(4), faces.count(5), faces.count(6)),
        fails=sum(1 for f in faces if f <= 3),
    )


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
    if len(a) < len(b):
        a, b = b, a
    out = [0.0] * (len(a) + len(b) - 1)
    n = len(a)
    for j, y in enumerate(b):
        if y:
            out[j : j + n] = [o + x * y for o, x in zip(out[j : j + n], a, strict=True)]
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
def _advantage_table(n: int) -> tuple[tuple[int, int, tuple[float, ...]], ...]:
    """Advantage: the Wins that the retried 6s of ``n`` exploding dice's runs show, as
    ``(4s, 5s, distribution of 6s)`` rows.

    The runs hold S sixes (negative binomial, 1/6); each is retried to a uniform face, a Win
    with probability 1/2. Thinning a negative binomial keeps it one: the Wins among them are
    negative binomial with 1/11 (generating function ((10/11) / (1 - z/11))^n), spread
    uniformly over 4, 5 and 6. Tails below 1e-21 are dropped (together below 1e-18).
    """
    # P(k Wins) * k! / 3^k, then each split (x4, x5, x6) weighs 1 / (x4! x5! x6!).
    weights = []
    p = (10 / 11) ** n
    k = 0
    scale = 1.0
    while True:
        weights.append(p * scale)
        p *= (k + n) / (k + 1) / 11
        k += 1
        scale *= k / 3
        if p < 1e-21 and (k + n) / (k + 1) / 11 < 0.5:
            break
    inv = [1 / math.factorial(i) for i in range(len(weights))]
    rows = []
    for x4 in range(len(weights)):
        for x5 in range(len(weights) - x4):
            vec = [
                weights[x4 + x5 + x6] * inv[x4] * inv[x5] * inv[x6]
                for x6 in range(len(weights) - x4 - x5)
            ]
            while vec and vec[-1] < 1e-21:
                vec.pop()
            if vec:
                rows.append((x4, x5, tuple(vec)))
    return tuple(rows)


def _capped_table(table: _Table, cap: int) -> _Table:
    """``table`` with its 4s and 5s counted up to ``cap`` (rows beyond it merged)."""
    merged: dict[tuple[int, int], list[float]] = {}
    for a4, a5, vec in table:
        key = (min(a4, cap), min(a5, cap))
        acc = merged.get(key)
        if acc is None:
            merged[key] = list(vec)
            continue
        if len(acc) < len(vec):
            acc.extend([0.0] * (len(vec) - len(acc)))
        acc[: len(vec)] = [x + q for x, q in zip(acc[: len(vec)], vec, strict=False)]
    return tuple((a4, a5, tuple(vec)) for (a4, a5), vec in merged.items())


RetryMix = tuple[tuple[int, float], ...]
"""How many Fails the roller may retry, as a distribution: ((count, probability), ...)."""

_Table = tuple[tuple[int, int, tuple[float, ...]], ...]


def _pool_dist(
    state: PoolState, track: bool, cap: int | None = None
) -> tuple[dict[tuple[int, int, int, int], float], int, _Table]:
    """The pool before any Fail retries: {(4s, 5s, 6s, Fails): p} (Fails counted only when
    ``track``), the length of its exploding chain, and the Advantage table of its retried
    6s (empty without Advantage)."""
    f4, f5, f6 = state.fixed
    dist: dict[tuple[int, int, int, int], float] = {(f4, f5, f6, state.fails if track else 0): 1}
    chain = 0
    table: _Table = ()
    if state.exploding:
        if not state.explode:
            dist = _add_faces(dist, _PLAIN, state.exploding, track)
        elif state.retry == "advantage":
            dist = _add_faces(dist, _EXPLODING_LAST, state.exploding, track)
            table = _advantage_table(state.exploding)
            if cap is not None:
                table = _capped_table(table, cap)
        elif state.retry == "disadvantage":
            dist = _add_faces(dist, _DISADVANTAGE_LAST, state.exploding, track)
            chain = state.exploding
        else:
            dist = _add_faces(dist, _EXPLODING_LAST, state.exploding, track)
            chain = state.exploding
    dist = _add_faces(dist, _PLAIN, state.plain, track)
    return dist, chain, table


@lru_cache(maxsize=64)
def _plain_rows(k: int) -> _Table:
    """``k`` plain dice (no explosion: a Shift's added dice, retried dice, R3, R10) as
    (4s, 5s, distribution of 6s) rows: multinomial, each face 1/6 and a Fail 1/2."""
    inv = [1 / math.factorial(i) for i in range(k + 1)]
    sixth = [6.0**-i for i in range(k + 1)]
    half = [0.5**i for i in range(k + 1)]
    whole = math.factorial(k)
    rows = []
    for y4 in range(k + 1):
        for y5 in range(k + 1 - y4):
            base = whole * inv[y4] * inv[y5]
            rest = k - y4 - y5
            vec = tuple(
                base * inv[y6] * inv[rest - y6] * sixth[y4 + y5 + y6] * half[rest - y6]
                for y6 in range(rest + 1)
            )
            rows.append((y4, y5, vec))
    return tuple(rows)


def _retried(
    dist: dict[tuple[int, int, int, int], float], mix: RetryMix, top: int
) -> dict[tuple[int, int], list[float]]:
    """Retry min(Fails, R) Fails to plain frozen faces, R drawn from ``mix`` (R3, R11):
    {(4s, 5s): unnormalised 6-counts}, 4s and 5s counted up to ``top``. The retried dice
    depend only on the count of Fails, so their faces are mixed once per count."""
    by_fails: dict[int, dict[tuple[int, int, int], float]] = defaultdict(lambda: defaultdict(float))
    for (x4, x5, x6, xf), p in dist.items():
        by_fails[xf][(x4, x5, x6)] += p
    by_low: dict[tuple[int, int], list[float]] = {}
    for xf, part in by_fails.items():
        by_k: dict[int, float] = defaultdict(float)
        for r, q in mix:
            by_k[min(xf, r)] += q
        retried: dict[tuple[int, int], list[float]] = {}
        for k, pk in by_k.items():
            for y4, y5, vec in _plain_rows(k):
                acc = retried.get((y4, y5))
                if acc is None:
                    retried[(y4, y5)] = [pk * q for q in vec]
                    continue
                if len(acc) < len(vec):
                    acc.extend([0.0] * (len(vec) - len(acc)))
                n = len(vec)
                acc[:n] = [a + pk * q for a, q in zip(acc[:n], vec, strict=True)]
        for (x4, x5, x6), p in part.items():
            for (y4, y5), row in retried.items():
                key = (min(x4 + y4, top), min(x5 + y5, top))
                acc = by_low.get(key)
                end = x6 + len(row)
                if acc is None:
                    by_low[key] = [0.0] * x6 + [p * q for q in row]
                    continue
                if len(acc) < end:
                    acc.extend([0.0] * (end - len(acc)))
                acc[x6:end] = [a + p * q for a, q in zip(acc[x6:end], row, strict=True)]
    return by_low


@lru_cache(maxsize=64)
def _advantage_groups(n: int, top: int) -> tuple[_Group, ...]:
    """The groups of ``n`` fresh Interference dice with Advantage (R4), 4s and 5s counted
    up to ``top``.

    Every low Win, retried or a last face, is a 4 or a 5 with even odds, independently of
    the rest; so given the count L of low Wins the 4s are binomial (L, 1/2) and the 6s do
    not depend on how L splits. The pool is therefore the joint distribution of (L, 6s):
    the retried Wins W are negative binomial (n, 1/11) (see :func:`_advantage_table`), each
    low with odds 2/3; the last faces add binomial (n, 2/5) low Wins. Groups below ``top``
    share one 6-distribution per L; the groups counted at ``top`` mix theirs. Tails below
    1e-21 are dropped (together below 1e-18).
    """
    pw = []  # P(W = w)
    p = (10 / 11) ** n
    k = 0
    while True:
        pw.append(p)
        p *= (k + n) / (k + 1) / 11
        k += 1
        if p < 1e-21 and (k + n) / (k + 1) / 11 < 0.5:
            break
    wmax = len(pw) - 1
    last = [math.comb(n, j) * 0.4**j * 0.6 ** (n - j) for j in range(n + 1)]
    # joint[L][k]: P(L low Wins and k 6s).
    joint = [[0.0] * (wmax + 1) for _ in range(wmax + n + 1)]
    for j in range(wmax + 1):
        # j retried low Wins and k retried 6s: P(W = j + k) C(j + k, j) (2/3)^j (1/3)^k.
        c = (2 / 3) ** j
        row = []
        for k6 in range(wmax + 1 - j):
            row.append(pw[j + k6] * math.comb(j + k6, j) * c)
            c /= 3
        m = len(row)
        for extra, q in enumerate(last):
            acc = joint[j + extra]
            acc[:m] = [a + q * r for a, r in zip(acc[:m], row, strict=True)]
    out = []
    merged: dict[tuple[int, int], list[float]] = {}
    for low, row in enumerate(joint):
        while row and row[-1] < 1e-21:
            row.pop()
        total = math.fsum(row)
        if total <= 0:
            continue
        vec: tuple[float, ...] | None = None
        half = 0.5**low
        for i4 in range(low + 1):
            i5 = low - i4
            w = math.comb(low, i4) * half
            if i4 < top and i5 < top:
                if vec is None:
                    vec = _shared(tuple(x / total for x in row))
                out.append(_Group((i4, i5), total * w, vec))
                continue
            key = (min(i4, top), min(i5, top))
            into = merged.get(key)
            if into is None:
                merged[key] = [w * x for x in row]
                continue
            if len(into) < len(row):
                into.extend([0.0] * (len(row) - len(into)))
            n_row = len(row)
            into[:n_row] = [a + w * x for a, x in zip(into[:n_row], row, strict=True)]
    for key, mix in merged.items():
        total = math.fsum(mix)
        if total > 0:
            out.append(_Group(key, total, _shared(tuple(x / total for x in mix))))
    return tuple(out)


@lru_cache(maxsize=64)
def _disadvantage_six(n: int, m: int) -> tuple[float, ...]:
    """The 6s of ``n`` exploding Disadvantage dice given that ``m`` of their last faces are
    not a 4 or a 5: each of those is a 6 with odds 1/4 (R4: a Fail retried once, frozen),
    so binomial (m, 1/4), plus the negative-binomial 6s of the ``n`` runs."""
    last = tuple(math.comb(m, k) * 0.25**k * 0.75 ** (m - k) for k in range(m + 1))
    return _shared(_convolve(last, _sixes(n)))


@lru_cache(maxsize=64)
def _disadvantage_groups(n: int, top: int) -> tuple[_Group, ...]:
    """The groups of ``n`` fresh Interference dice with Disadvantage (R4), 4s and 5s counted
    up to ``top``.

    A last face (its Fail retried once) is a 4, a 5 or neither with odds 3/10, 3/10 and 4/10
    (multinomial); the 6s depend only on how many are neither (:func:`_disadvantage_six`),
    so groups with as many 4s and 5s in all share one 6-distribution object, and the outcome
    sums over as few distinct distributions as it can. Groups counted at ``top`` mix theirs.
    """
    out = []
    merged: dict[tuple[int, int], list[float]] = {}
    for i4 in range(n + 1):
        for i5 in range(n + 1 - i4):
            m = n - i4 - i5
            w = (
                math.factorial(n)
                / (math.factorial(i4) * math.factorial(i5) * math.factorial(m))
                * 0.3 ** (i4 + i5)
                * 0.4**m
            )
            vec = _disadvantage_six(n, m)
            if i4 < top and i5 < top:
                out.append(_Group((i4, i5), w, vec))
                continue
            key = (min(i4, top), min(i5, top))
            into = merged.get(key)
            if into is None:
                merged[key] = [w * x for x in vec]
                continue
            if len(into) < len(vec):
                into.extend([0.0] * (len(vec) - len(into)))
            into[: len(vec)] = [a + w * x for a, x in zip(into, vec, strict=False)]
    for key, mix in merged.items():
        total = math.fsum(mix)
        out.append(_Group(key, total, _shared(tuple(x / total for x in mix))))
    return tuple(out)


def _groups(state: PoolState, mix: RetryMix, cap: int | None) -> tuple[_Group, ...]:
    track = any(r for r, _ in mix)
    top = 1 << 30 if cap is None else cap
    if (
        state.retry == "advantage"
        and state.explode
        and state.exploding
        and not (state.plain or track or any(state.fixed))
    ):
        return _advantage_groups(state.exploding, top)
    if (
        state.retry == "disadvantage"
        and state.explode
        and state.exploding
        and not (state.plain or track or any(state.fixed))
    ):
        return _disadvantage_groups(state.exploding, top)
    dist, chain, table = _pool_dist(state, track, cap)
    if track:
        return _normalised(_retried(dist, mix, top), chain)
    by_low: dict[tuple[int, int], list[float]] = {}
    rows = table or ((0, 0, (1.0,)),)
    for (x4, x5, x6, _), p in dist.items():
        for a4, a5, vec in rows:
            key = (min(x4 + a4, top), min(x5 + a5, top))
            acc = by_low.get(key)
            end = x6 + len(vec)
            if acc is None:
                by_low[key] = [0.0] * x6 + [p * q for q in vec]
                continue
            if len(acc) < end:
                acc.extend([0.0] * (end - len(acc)))
            acc[x6:end] = [x + p * q for x, q in zip(acc[x6:end], vec, strict=True)]
    return _normalised(by_low, chain)


def _normalised(by_low: dict[tuple[int, int], list[float]], chain: int) -> tuple[_Group, ...]:
    """Groups from {(4s, 5s): unnormalised 6-counts}, the 6s of a ``chain`` of exploding
    dice added."""
    chain_pmf = _sixes(chain)
    out = []
    for low, sixes in by_low.items():
        total = math.fsum(sixes)
        if total <= 0:
            continue
        while sixes[-1] == 0.0:
            sixes = sixes[:-1]
        vec = tuple(x / total for x in sixes)
        out.append(_Group(low, total, _shared(_convolve(vec, chain_pmf))))
    return tuple(out)


class _Group(NamedTuple):
    low: tuple[int, int]
    p: float
    six: tuple[float, ...]


@lru_cache(maxsize=512)
def groups(state: PoolState, cap: int | None = None) -> tuple[_Group, ...]:
    """The pool as ((4s, 5s), probability, distribution of its 6s given those) groups.

    ``cap``: count 4s and 5s only up to it (more are merged into it)."""
    return _groups(state, ((state.retry_fails, 1.0),), cap)


@lru_cache(maxsize=256)
def mixed_groups(state: PoolState, mix: RetryMix) -> tuple[_Group, ...]:
    """:func:`groups` of ``state`` when the roller retries a random number of Fails, drawn
    from ``mix`` instead of ``state.retry_fails`` (the leader of a cooperation, R11)."""
    return _groups(state, mix, None)


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


class CheckOdds(NamedTuple):
    """Odds of one check: success, Fumble, expected Momentum (R5-R7)."""

    p_success: float
    p_fumble: float
    expected_momentum: float


class ContestOdds(NamedTuple):
    """Odds of a contested check (R9).

    ``p_stopped``: the attack succeeds and the defense stops it; ``p_attack_lands``: it
    succeeds and is not stopped. Expected Momentum counts both sides (both keep theirs); the
    defender rolls only against a successful attack.
    """

    p_attacker_succeeds: float
    p_stopped: float
    p_attack_lands: float
    attacker_expected_momentum: float = 0.0
    defender_expected_momentum: float = 0.0


def clear_cache() -> None:
    """Forget the memoised pool distributions."""
    _sixes.cache_clear()
    _advantage_table.cache_clear()
    _advantage_groups.cache_clear()
    _disadvantage_six.cache_clear()
    _disadvantage_groups.cache_clear()
    _plain_rows.cache_clear()
    groups.cache_clear()
    mixed_groups.cache_clear()
    _SHARED.clear()
