"""Exact odds for checks and contests (no Monte Carlo).

How it works. Interference removes check Wins from the bottom (R4), so what a check comes
to depends only on how many 4s, 5s and 6s each pool shows. A die that explodes shows a run
of K sixes (K is geometric, P(K = k) = (1/6)^k * 5/6) and then one last face uniform on 1-5,
so a pool of n fresh dice shows a multinomial number of 4s and 5s (the last faces) and,
independently, a negative-binomial number of 6s. The 4s and 5s are enumerated exactly; the 6s
are summed in closed-form order: with ``b`` low Wins left after the Interference 4s and 5s,

* Interference 6s ``i6 <= b`` leave every check 6 standing (Gain = c6, W = b - i6),
* ``i6 > b`` leave ``c6 - (i6 - b)`` sixes, and nothing else,

so each pair of 6-count distributions is combined once per ``b``. The only approximation is
that the negative-binomial tails are cut where their mass is below 1e-19 per pool; the
truncation error of any probability is therefore below 1e-15.

Every figure is a float. ``PoolSpec`` describes a pool before rolling; ``PoolState`` a pool
during a roll (known faces plus dice still to roll: a Shift's added dice or retries), so the
contest dialog can show the odds of each Shift choice.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import msgspec

from afdesk.rules import af254, classic, d20
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
        af254.check_venture_allowed(self.interference, self.ventures)


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

    @classmethod
    def from_roll(cls, roll: Roll) -> CheckState:
        """Every face known: the state right after ``roll`` (before any Shift)."""
        return cls(_known(roll.check_faces), _known(roll.interference_faces), roll.ventures)

    def with_added_dice(self, count: int = 2) -> CheckState:
        """After a Shift that adds ``count`` dice (they do not explode, R10)."""
        c = self.check
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


def _af254_state(spec: PoolSpec, extra_interference: int = 0) -> CheckState:
    """The fresh-roll state of an af-2.5.4 check (R1, R2, R4, R8).

    ``extra_interference`` comes from failed helpers (R11). Disadvantage with no
    Interference at all adds 2 Interference dice instead of its retry.
    """
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


def _classic_state(spec: PoolSpec, *, against_advantage: bool = False) -> CheckState:
    classic.check_ventures(spec.ventures)
    adv = spec.advantage and not spec.disadvantage
    dis = spec.disadvantage and not spec.advantage
    return CheckState(
        check=PoolState(exploding=spec.dice, explode=not dis and not against_advantage),
        interference=PoolState(exploding=spec.interference + spec.ventures, explode=not adv),
        ventures=spec.ventures,
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


def _retried_sixes(dist, n: int):
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
def _groups(state: PoolState) -> tuple[_Group, ...]:
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
    check = _groups(state.check)
    intf = _groups(state.interference)
    # Masses by (key, interference 6-distribution); the sums below are linear in that
    # distribution, so each key later gets one mass-weighted vector.
    six_mass: dict[tuple, float] = defaultdict(float)
    low_mass: dict[tuple, float] = defaultdict(float)
    vectors: dict[int, tuple[float, ...]] = {}
    for ig in intf:
        vectors[id(ig.six)] = ig.six
    for cg in check:
        c4, c5 = cg.low
        p_no_six = cg.six[0]
        p_six = 1.0 - p_no_six if len(cg.six) > 1 else 0.0
        vectors[id(cg.six)] = cg.six
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
                    key = (0, 0, 0, ul > 0, id(ig.six))
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
        tail_c = _suffix(six_c)
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
    masses: dict[tuple, float], vectors: dict[int, tuple[float, ...]]
) -> dict[tuple, list[float]]:
    """Turn {(*key, vector id): mass} into {key: sum of mass * vector}."""
    out: dict[tuple, list[float]] = {}
    for (*key, vid), m in masses.items():
        vec = vectors[vid]
        key = tuple(key)
        acc = out.get(key)
        if acc is None:
            out[key] = [m * x for x in vec]
            continue
        if len(acc) < len(vec):
            acc.extend([0.0] * (len(vec) - len(acc)))
        for i, x in enumerate(vec):
            acc[i] += m * x
    return out


def _suffix(vec: Sequence[float]) -> list[float]:
    """suffix[k] = sum(vec[k:])."""
    out = [0.0] * (len(vec) + 1)
    acc = 0.0
    for k in range(len(vec) - 1, -1, -1):
        acc += vec[k]
        out[k] = acc
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


def distribution(pool: PoolSpec | CheckState | Cooperation) -> Distribution:
    """The af-2.5.4 outcome distribution of a check, a check part-way through, or a
    cooperation."""
    if isinstance(pool, PoolSpec):
        return _distribution(_af254_state(pool))
    if isinstance(pool, CheckState):
        return _distribution(pool)
    if isinstance(pool, Cooperation):
        return _cooperation(pool)
    if isinstance(pool, Roll):
        return _distribution(CheckState.from_roll(pool))
    raise RulesError(f"expected a PoolSpec, a CheckState or a Cooperation, got {pool!r}")


# ----------------------------------------------------------------------------- public odds


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


def check_odds(spec: PoolSpec | CheckState | Cooperation) -> CheckOdds:
    """Exact odds of one af-2.5.4 check."""
    d = distribution(spec)
    return CheckOdds(d.p_success, d.p_fumble, d.expected_momentum)


def p_beats(defender: dict[tuple[int, int], float], attacker: dict[tuple[int, int], float]):
    """P(defender's score beats attacker's) over independent (Result, Gain) scores (R9)."""
    by_result: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for (r, g), p in defender.items():
        by_result[r].append((g, p))
    higher = {}
    gains = {}
    for r in (4, 5, 6):
        higher[r] = sum(p for (rr, _), p in defender.items() if rr > r)
        items = sorted(by_result.get(r, ()))
        suffix = _suffix([p for _, p in items])
        gains[r] = (items, suffix)
    total = 0.0
    for (r, g), p in attacker.items():
        items, suffix = gains[r]
        # First defender gain strictly above g.
        lo, hi = 0, len(items)
        while lo < hi:
            mid = (lo + hi) // 2
            if items[mid][0] <= g:
                lo = mid + 1
            else:
                hi = mid
        total += p * (higher[r] + suffix[lo])
    return total


def contest_odds(
    attacker: PoolSpec | CheckState | Cooperation,
    defender: PoolSpec | CheckState | Cooperation | None,
) -> ContestOdds:
    """Exact odds of an af-2.5.4 contest: the attack succeeds, is stopped, lands (R9)."""
    a = distribution(attacker)
    if defender is None:
        return ContestOdds(a.p_success, 0.0, a.p_success, a.expected_momentum, 0.0)
    d = distribution(defender)
    stopped = p_beats(d.scores, a.scores)
    lands = max(0.0, a.p_success - stopped)
    return ContestOdds(
        a.p_success, stopped, lands, a.expected_momentum, a.p_success * d.expected_momentum
    )


def clear_cache() -> None:
    """Forget memoised distributions (benchmarks measure cold computations)."""
    _sixes.cache_clear()
    _advantage_faces.cache_clear()
    _groups.cache_clear()
    _distribution.cache_clear()
    _cooperation.cache_clear()
    _classic_remaining.cache_clear()
    _SHARED.clear()


# ------------------------------------------------------------------------------ af-classic


@lru_cache(maxsize=512)
def _classic_remaining(state: CheckState) -> dict[tuple[int, int, int], float]:
    """Distribution of the successes left after Interference (C1): (4s, 5s, 6s) -> p.

    Failures with unspent Interference are folded into (0, 0, 0); fumbles are not a
    classic notion.
    """
    check = _groups(state.check)
    intf = _groups(state.interference)
    after_low: dict[tuple, list] = {}
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
                after_low[key] = [cg.p * ig.p, cg.six, ig.six]
            else:
                entry[0] += cg.p * ig.p
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


def classic_contest_odds(attacker: PoolSpec, defender: PoolSpec | None) -> ContestOdds:
    """Exact odds of an af-classic contest (C2).

    The opposition's highest success cancels the original's lowest success if that is not
    higher; the original then needs a success left. With Advantage on the original, the
    opposition's 6s do not explode (C5).
    """
    a_state = attacker if isinstance(attacker, CheckState) else _classic_state(attacker)
    a_rem = _classic_remaining(a_state)
    p_success = math.fsum(p for c, p in a_rem.items() if sum(c))
    mom_before = math.fsum(p * _classic_momentum(c, a_state.ventures) for c, p in a_rem.items())
    if defender is None:
        return ContestOdds(p_success, 0.0, p_success, mom_before, 0.0)
    against = isinstance(attacker, PoolSpec) and attacker.advantage and not attacker.disadvantage
    d_state = (
        defender
        if isinstance(defender, CheckState)
        else _classic_state(defender, against_advantage=against)
    )
    d_rem = _classic_remaining(d_state)
    highest: dict[int, float] = defaultdict(float)
    d_mom = 0.0
    for c, p in d_rem.items():
        if sum(c):
            highest[_highest(c)] += p
            d_mom += p * _classic_momentum(c, d_state.ventures)
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
    return ContestOdds(p_success, stopped, p_success - stopped, momentum, p_success * d_mom)


# ------------------------------------------------------------------------------ d20-degrees


def degree_odds(
    bonus: int, tn: int, fortification: int, *, keywords: Iterable[str] = ()
) -> dict[d20.Degree, Fraction]:
    """The exact probability of each degree of ``d20 + bonus`` (D2-D4)."""
    keywords = tuple(keywords) if not isinstance(keywords, str) else (keywords,)
    out = dict.fromkeys(d20.Degree, Fraction(0))
    for die in range(1, 21):
        out[d20.degree(die, bonus, tn, fortification, keywords=keywords)] += Fraction(1, 20)
    return out


__all__ = [
    "CheckOdds",
    "CheckState",
    "ContestOdds",
    "Cooperation",
    "Distribution",
    "PoolSpec",
    "PoolState",
    "check_odds",
    "classic_check_odds",
    "classic_contest_odds",
    "clear_cache",
    "contest_odds",
    "degree_odds",
    "distribution",
]
