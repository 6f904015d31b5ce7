"""Dispute rules (docs/rules.md P1-P9): the reckoning target, the winner, tension, Convince.

Pure functions of numbers, no Qt and no encounter: the dispute's model
(:mod:`afdesk.encounter.dispute`) and its Ops call them, and so can acceptance tests.

>>> reckoning_target(9, 3), reckoning_target(4, 3)
(5, 3)
>>> winner({"Mill": 5, "Bridge": 3}, 5), winner({"Mill": 5, "Bridge": 5}, 5)
('Mill', None)
>>> tension_broken(3), tension_broken(4)
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping

from afdesk.rules.errors import RulesError

TENSION_THRESHOLD = 3
"""The tension a dispute bears before it breaks (P7, wiki)."""


def _count(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{what} must be a whole number, not {value!r}")
    if value < 0:
        raise RulesError(f"{what} cannot be negative ({value})")
    return value


def reckoning_target(present: int, highest_wits: int) -> int:
    """The reckoning target ``T = max(ceil(N / 2), W)`` (P6): ``present`` counts every
    individual present (all platforms, the audience, each member of a group), and
    ``highest_wits`` is the highest wits among them (0 when nobody is present).

    Raises :class:`RulesError` for a negative or non-whole count or wits.
    """
    n = _count(present, "the number present (P6)")
    w = _count(highest_wits, "the highest wits (P6)")
    return max(-(-n // 2), w)


def winner(support: Mapping[str, int], target: int) -> str | None:
    """The platform that wins at the reckoning (P6): its support is at least ``target`` and
    larger than every other platform's. None when no platform does (a tie at the top, or
    nobody at the target)."""
    _count(target, "the reckoning target (P6)")
    for name, n in support.items():
        _count(n, f"the support of {name!r} (P6)")
    if not support:
        return None
    best = max(support.values())
    leaders = [name for name, n in support.items() if n == best]
    if len(leaders) != 1 or best < target:
        return None
    return leaders[0]


def tension_broken(tension: int, threshold: int = TENSION_THRESHOLD) -> bool:
    """Whether the dispute breaks (P7): tension *exceeds* the threshold (3 by default), so a
    tension equal to the threshold still holds."""
    _count(threshold, "the tension threshold (P7)")
    if isinstance(tension, bool) or not isinstance(tension, int):
        raise RulesError(f"tension must be a whole number, not {tension!r}")
    return tension > threshold


def joined_from_audience(margin: int, neutral: int) -> int:
    """How many of the neutral audience join the platform of a successful Convince against
    the audience (P4a): up to the success margin (R13), never more than are neutral. A
    failed check (margin 0) convinces nobody."""
    m = _count(margin, "the success margin (P4a, R13)")
    n = _count(neutral, "the neutral audience (P4a)")
    return min(m, n)


def may_convince(grit: int, sway: int) -> bool:
    """Whether a personality on another side may be the target of a Convince (P4b): only
    when its grit is 0 or its sway is 0 (seed 003, "no sway or grit")."""
    _count(grit, "grit (P4b)")
    _count(sway, "sway (P4b)")
    return grit == 0 or sway == 0


def closing_winner(
    support: Mapping[str, int], conventional: str | None = None
) -> tuple[str | None, tuple[str, ...]]:
    """Who wins when the GM closes the dispute at an exchange end (P8): the platform with
    the most support; on a tie the conventional one if it is among the tied, else nobody
    yet (the GM picks among the tied, returned second)."""
    for name, n in support.items():
        _count(n, f"the support of {name!r} (P8)")
    if not support:
        return None, ()
    best = max(support.values())
    tied = tuple(name for name, n in support.items() if n == best)
    if len(tied) == 1:
        return tied[0], tied
    if conventional is not None and conventional in tied:
        return conventional, tied
    return None, tied
