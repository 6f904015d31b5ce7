"""Brute-force oracles for the odds: enumerate every die's faces, evaluate each combination.

Independent of afdesk.rules.odds: it shares only ``evaluate``. An exploding die is
enumerated as up to ``depth`` sixes and then a last face 1-5; the runs cut off at ``depth``
carry (1/6)^(depth+1) of mass per die, which bounds the error (``bound``).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

SIXTH = Fraction(1, 6)


def exploding(depth: int):
    """(faces, probability) of one exploding die, runs of up to ``depth`` sixes."""
    return [
        ((6,) * k + (last,), SIXTH ** (k + 1)) for k in range(depth + 1) for last in range(1, 6)
    ]


def exploding_advantage(depth: int):
    """Interference die with Advantage: each 6 of the run is retried to a frozen face."""
    out = []
    for k in range(depth + 1):
        for last in range(1, 6):
            for retried in itertools.product(range(1, 7), repeat=k):
                out.append(((*retried, last), SIXTH ** (k + 1) * SIXTH**k))
    return out


def exploding_disadvantage(depth: int):
    """Interference die with Disadvantage: a last face 1-3 is retried to a frozen face."""
    out = []
    for k in range(depth + 1):
        run = (6,) * k
        for last in range(1, 6):
            p = SIXTH ** (k + 1)
            if last <= 3:
                out += [((*run, f), p * SIXTH) for f in range(1, 7)]
            else:
                out.append(((*run, last), p))
    return out


def plain():
    return [((f,), SIXTH) for f in range(1, 7)]


def enumerate_pool(check_dice, intf_dice, evaluate, ventures=0):
    """{outcome: probability} where the outcome is an Outcome from ``evaluate``."""
    out = defaultdict(Fraction)
    for combo in itertools.product(*check_dice, *intf_dice):
        n = len(check_dice)
        check = sum((faces for faces, _ in combo[:n]), ())
        intf = sum((faces for faces, _ in combo[n:]), ())
        p = Fraction(1)
        for _, q in combo:
            p *= q
        out[evaluate(check, intf, ventures)] += p
    return out


def bound(dice: int, depth: int) -> float:
    return float(dice * SIXTH ** (depth + 1))
