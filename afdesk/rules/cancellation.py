"""Interference cancellation (R4, C1), shared by af-2.5.4 and af-classic."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Cancellation(NamedTuple):
    """What Interference did to a check.

    Indices refer to the sequences given to :func:`cancel`.
    """

    remaining: tuple[int, ...]
    """Check Wins left, as indices, lowest face first."""
    pairs: tuple[tuple[int, int], ...]
    """``(check index, interference index)`` discarded together."""
    spent: tuple[int, ...]
    """Interference Wins discarded alone (every check Win was higher)."""
    unspent: tuple[int, ...]
    """Interference Wins left when the check ran out of Wins (R6)."""


def cancel(check: Sequence[int], interference: Sequence[int]) -> Cancellation:
    """Cancel check Wins with Interference Wins (R4).

    Taking the Interference Wins from lowest to highest: if the lowest remaining check Win
    is <= that die, both are discarded; otherwise only the Interference die is. Stop when
    Interference is used up or the check has no Wins.
    """
    wins = sorted((i for i, f in enumerate(check) if f >= 4), key=lambda i: (check[i], i))
    intf = sorted(
        (i for i, f in enumerate(interference) if f >= 4), key=lambda i: (interference[i], i)
    )
    pairs: list[tuple[int, int]] = []
    spent: list[int] = []
    low = 0
    for n, j in enumerate(intf):
        if low >= len(wins):
            return Cancellation(tuple(wins[low:]), tuple(pairs), tuple(spent), tuple(intf[n:]))
        if check[wins[low]] <= interference[j]:
            pairs.append((wins[low], j))
            low += 1
        else:
            spent.append(j)
    return Cancellation(tuple(wins[low:]), tuple(pairs), tuple(spent), ())
