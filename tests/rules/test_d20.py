"""d20-degrees (seed 004): every die face at several TN and F settings, keywords (D1-D5)."""

from __future__ import annotations

import pytest

from afdesk.rules import RulesError, d20
from afdesk.rules.d20 import Degree
from afdesk.rules.dice import ScriptedSource

D, F, P, S, T = Degree


def band(total: int, tn: int, f: int) -> Degree:
    """An independent statement of the D2 table."""
    fn = tn + f
    if total >= fn + 10:
        return T
    if total >= fn:
        return S
    if total >= tn:
        return P
    if total >= tn - 10:
        return F
    return D


@pytest.mark.parametrize("tn", [5, 12, 15, 25])
@pytest.mark.parametrize("f", [0, 3, 8])
@pytest.mark.parametrize("bonus", [-5, 0, 4, 12])
def test_every_face(tn, f, bonus):
    order = [D, F, P, S, T] if f else [D, F, S, T]
    for die in range(1, 21):
        expected = band(die + bonus, tn, f)
        if die == 1:
            expected = order[max(order.index(expected) - 1, 0)]
        if die == 20:
            expected = order[min(order.index(expected) + 1, len(order) - 1)]
        assert d20.degree(die, bonus, tn, f) is expected, (die, bonus, tn, f)


def test_band_edges():
    """TN 15, F 5: FN 20. <5 Disaster, <15 Failure, <20 Pass, <30 Success, else Triumph."""
    assert [d20.degree(10, b, 15, 5) for b in (-6, -5, 4, 5, 9, 10, 19, 20)] == [
        D,
        F,
        F,
        P,
        P,
        S,
        S,
        T,
    ]


def test_no_pass_without_fortification():
    """D2: with F = 0 there is no Pass band; a natural 1 from Success falls to Failure."""
    assert d20.degree(10, 5, 15, 0) is S
    assert d20.degree(1, 15, 15, 0) is F
    assert d20.degree(20, -6, 15, 0) is S  # a Failure steps up past the missing Pass


def test_natural_one_and_twenty_clamp():
    assert d20.degree(1, -30, 15, 5) is D
    assert d20.degree(20, 40, 15, 5) is T
    assert d20.degree(20, -40, 15, 5) is F
    assert d20.degree(1, 40, 15, 5) is S


@pytest.mark.parametrize(
    ("die", "bonus", "keywords", "expected"),
    [
        (8, 0, ("risk",), D),  # a Failure becomes a Disaster
        (2, 0, ("assurance",), F),  # a Disaster becomes a Failure
        (10, 15, ("ease",), T),  # a Success becomes a Triumph
        (10, 30, ("difficulty",), S),  # a Triumph becomes a Success
        (10, 6, ("determination",), F),  # a Pass on a die of 10 or less: Failure
        (11, 5, ("determination",), S),  # a Pass on 11+: Success
        (8, 0, ("risk", "assurance"), F),  # Risk and Assurance cancel
        (2, 0, ("risk", "assurance"), D),
        (10, 15, ("ease", "difficulty"), S),  # Ease and Difficulty cancel
        (10, 30, ("Ease", "DIFFICULTY"), T),
        (1, 30, ("ease",), T),  # Triumph, a natural 1 makes it Success, Ease Triumph
        (1, 15, ("ease",), F),  # a Pass that the natural 1 makes a Failure
        (20, -6, ("risk",), P),  # the natural 20 lifts the Failure to a Pass first
    ],
)
def test_keywords(die, bonus, keywords, expected):
    """TN 15, F 5 throughout."""
    assert d20.degree(die, bonus, 15, 5, keywords=keywords) is expected


def test_riders():
    """D5 with the D4 exceptions."""
    assert d20.riders(S) == (True, False)
    assert d20.riders(T) == (True, False)
    assert d20.riders(P) == (False, False)
    assert d20.riders(F) == (False, True)
    assert d20.riders(D) == (False, True)
    assert d20.riders(F, keywords=("assurance",)) == (False, False)
    assert d20.riders(S, keywords=("difficulty",)) == (False, False)
    assert d20.riders(T, keywords=("difficulty",)) == (True, False)


def test_calculations():
    """D1."""
    assert d20.target_number(3, 2, 1) == 16
    assert d20.fortification_of(4, 1) == 5
    assert d20.fortified_number(16, 5) == 21
    assert d20.effect(5, 1) == 3


def test_rolled_check():
    check = d20.roll_d20(5, 15, 3, keywords=("ease",), source=ScriptedSource([14]))
    assert (check.total == 19 and check.degree is S) or check.degree is T
    assert check.degree is T  # 19 >= FN 18: Success, Ease makes it a Triumph
    assert "Triumph" in check.describe()


@pytest.mark.parametrize(
    "call",
    [
        lambda: d20.degree(0, 0, 10, 0),
        lambda: d20.degree(21, 0, 10, 0),
        lambda: d20.degree(10, 0, 10, 0, keywords=("luck",)),
        lambda: d20.degree(10, 0, 10, -1),
        lambda: d20.degree(10, "3", 10, 0),
        lambda: d20.roll_d20(0, 10, 0, keywords=("nope",)),
    ],
)
def test_bad_input(call):
    with pytest.raises(RulesError):
        call()
