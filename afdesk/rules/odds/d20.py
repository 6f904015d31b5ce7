"""Exact odds of a d20-degrees check (D2-D4): twenty faces, counted."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from afdesk.rules import d20


def degree_odds(
    bonus: int, tn: int, fortification: int, *, keywords: Iterable[str] = ()
) -> dict[d20.Degree, Fraction]:
    """The exact probability of each degree of ``d20 + bonus`` (D2-D4)."""
    keywords = tuple(keywords) if not isinstance(keywords, str) else (keywords,)
    out = dict.fromkeys(d20.Degree, Fraction(0))
    for die in range(1, 21):
        out[d20.degree(die, bonus, tn, fortification, keywords=keywords)] += Fraction(1, 20)
    return out
