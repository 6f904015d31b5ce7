"""Dispute rules as pure functions (docs/rules.md P4, P6, P7, P8)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.rules import RulesError
from afdesk.rules.dispute import (
    closing_winner,
    joined_from_audience,
    may_convince,
    reckoning_target,
    tension_broken,
    winner,
)


def test_p6_examples_from_rules_md() -> None:
    # P6: "9 present, highest wits 3: T = 5; 4 present, highest wits 3: T = 3."
    assert reckoning_target(9, 3) == 5
    assert reckoning_target(4, 3) == 3


@pytest.mark.parametrize(
    ("present", "wits", "target"),
    [(0, 0, 0), (1, 0, 1), (2, 0, 1), (3, 1, 2), (10, 2, 5), (11, 2, 6), (5, 7, 7), (12, 6, 6)],
)
def test_p6_target_rounds_up_and_wits_wins(present: int, wits: int, target: int) -> None:
    assert reckoning_target(present, wits) == target


@given(st.integers(0, 500), st.integers(0, 50))
def test_p6_target_is_max_of_half_rounded_up_and_wits(present: int, wits: int) -> None:
    assert reckoning_target(present, wits) == max(math.ceil(present / 2), wits)


@pytest.mark.parametrize(("present", "wits"), [(-1, 0), (3, -2), (2.5, 1), (True, 1)])
def test_p6_bad_numbers_are_refused_with_the_rule(present: object, wits: object) -> None:
    with pytest.raises(RulesError, match="P6"):
        reckoning_target(present, wits)  # type: ignore[arg-type]


def test_p6_winner_needs_the_target_and_a_strict_lead() -> None:
    assert winner({"Mill": 5, "Bridge": 3, "Wait": 1}, 5) == "Mill"
    assert winner({"Mill": 6, "Bridge": 2}, 5) == "Mill"
    # at the target but tied with another platform: nobody wins yet
    assert winner({"Mill": 5, "Bridge": 5}, 5) is None
    # the largest but below the target
    assert winner({"Mill": 4, "Bridge": 1}, 5) is None
    # a tie below the top does not matter
    assert winner({"Mill": 6, "Bridge": 2, "Wait": 2}, 5) == "Mill"
    assert winner({}, 0) is None
    # T = 0 (nobody present): a sole platform of 0 "wins" only if it is the only one
    assert winner({"Mill": 0, "Bridge": 0}, 0) is None


def test_p6_winner_refuses_negative_support() -> None:
    with pytest.raises(RulesError, match="support of 'Mill'"):
        winner({"Mill": -1}, 2)


def test_p7_tension_breaks_only_when_it_exceeds_the_threshold() -> None:
    assert not tension_broken(0)
    assert not tension_broken(3)  # equal: still holds
    assert tension_broken(4)
    assert not tension_broken(5, threshold=5)
    assert tension_broken(1, threshold=0)
    with pytest.raises(RulesError, match="P7"):
        tension_broken(1, threshold=-1)


def test_p4a_audience_joins_up_to_the_margin() -> None:
    assert joined_from_audience(2, 12) == 2
    assert joined_from_audience(5, 3) == 3  # never more than are neutral
    assert joined_from_audience(0, 12) == 0  # a failed Convince convinces nobody
    assert joined_from_audience(3, 0) == 0
    with pytest.raises(RulesError, match="P4a"):
        joined_from_audience(-1, 3)


def test_p4b_only_a_personality_without_grit_or_sway_may_be_convinced() -> None:
    assert not may_convince(2, 1)
    assert may_convince(0, 3)
    assert may_convince(4, 0)
    assert may_convince(0, 0)
    with pytest.raises(RulesError, match="P4b"):
        may_convince(-1, 2)


def test_p8_closing_most_support_then_conventional_then_gm() -> None:
    assert closing_winner({"Mill": 4, "Bridge": 3}) == ("Mill", ("Mill",))
    assert closing_winner({"Mill": 4, "Bridge": 4}, "Bridge") == ("Bridge", ("Mill", "Bridge"))
    # the conventional platform is not among the tied: the GM picks
    assert closing_winner({"Mill": 4, "Bridge": 4, "Wait": 1}, "Wait") == (
        None,
        ("Mill", "Bridge"),
    )
    assert closing_winner({"Mill": 2, "Bridge": 2}) == (None, ("Mill", "Bridge"))
