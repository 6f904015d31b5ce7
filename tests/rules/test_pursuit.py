"""Chase rules (docs/rules.md H1-H3): colour, turn, pole, exchange end."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.rules import RulesError
from afdesk.rules.pursuit import PursuitTurn, colour, pole, resolve_exchange_end, turn

# ---------------------------------------------------------------------------- H1 colour


@pytest.mark.parametrize(
    ("face", "expected"),
    [(1, "green"), (2, "green"), (3, "green"), (4, "blue"), (5, "blue"), (6, "red")],
)
def test_h1_pursuit_die_colours(face, expected):
    assert colour(face) == expected


@pytest.mark.parametrize("face", [0, 7, -1, True, 2.0, "3"])
def test_h1_bad_faces_are_refused(face):
    with pytest.raises(RulesError):
        colour(face)


# ---------------------------------------------------------------------------- H2/H3 turn


def test_h3_the_issue_log_line_huang_green_success():
    # "Huang: green, Lightness 3 successes, +4 (speed 2 + margin 2)"
    assert turn(2, ["green"], True, 2) == PursuitTurn(2, 4, 0, 0, False, 4)


def test_h3_the_four_cases_blue_bad():
    # good colour (green), success: speed S, gains S + m
    assert turn(5, ["green"], True, 2) == PursuitTurn(5, 7, 0, 0, False, 7)
    # good colour, failure: speed S, gains S // 2, grit m (Chase page: "add only half")
    assert turn(5, ["green"], False, 2) == PursuitTurn(5, 2, 2, 0, False, 2)
    # bad colour (blue), success: speed S // 2, gains S // 2 + m
    assert turn(5, ["blue"], True, 2) == PursuitTurn(2, 4, 0, 0, False, 4)
    # bad colour, failure: speed S // 2 - m; gains it if positive; grit m
    assert turn(5, ["blue"], False, 1) == PursuitTurn(1, 1, 1, 0, False, 1)
    assert turn(5, ["blue"], False, 2) == PursuitTurn(0, 0, 2, 0, True, 0)
    assert turn(5, ["blue"], False, 4) == PursuitTurn(-2, 0, 4, 0, True, 0)


def test_h2_green_as_the_bad_colour_swaps_the_cases():
    assert turn(5, ["blue"], True, 2, bad="green") == PursuitTurn(5, 7, 0, 0, False, 7)
    assert turn(5, ["green"], True, 2, bad="green") == PursuitTurn(2, 4, 0, 0, False, 4)
    assert turn(4, ["green"], False, 3, bad="green") == PursuitTurn(-1, 0, 3, 0, True, 0)


def test_h1_reds_are_special_actions_and_the_last_die_moves():
    t = turn(4, ["red", "red", "blue"], True, 1)
    assert t == PursuitTurn(2, 3, 0, 2, False, 3)
    assert t.special_actions == 2


@pytest.mark.parametrize(
    "colours",
    [[], ["red"], ["green", "blue"], ["blue", "red"], ["purple"], "green", ["red", "green", "red"]],
)
def test_h1_a_run_is_reds_then_one_green_or_blue(colours):
    with pytest.raises(RulesError):
        turn(4, colours, True, 1)


@pytest.mark.parametrize(
    ("args", "kw"),
    [
        ((-1, ["green"], True, 1), {}),
        ((2, ["green"], True, -1), {}),
        ((2, ["green"], 1, 1), {}),
        ((2.5, ["green"], True, 1), {}),
        ((2, ["green"], True, 1), {"bad": "red"}),
    ],
)
def test_turn_refuses_bad_input(args, kw):
    with pytest.raises(RulesError):
        turn(*args, **kw)


def test_h3_speed_zero_is_out_even_on_a_good_success():
    t = turn(0, ["green"], True, 2)
    assert t.out and t.speed == 0 and t.added == 2


speeds = st.integers(0, 12)
margins = st.integers(0, 8)
runs = st.tuples(st.integers(0, 4), st.sampled_from(["green", "blue"])).map(
    lambda r: ["red"] * r[0] + [r[1]]
)


@given(speeds, runs, st.booleans(), margins, st.sampled_from(["green", "blue"]))
def test_h3_properties(speed, colours, success, margin, bad):
    t = turn(speed, colours, success, margin, bad=bad)
    assert t.special_actions == len(colours) - 1
    assert t.out == (t.speed <= 0)
    assert t.score == t.added >= 0
    assert t.grit_lost == (0 if success else margin)
    if colours[-1] != bad:  # the good colour: the full speed
        assert t.speed == speed
    else:
        assert t.speed <= speed // 2
    if success:
        assert t.added == t.speed + margin
    # never more than speed + margin; a success never gains less than a failure would
    assert t.added <= speed + margin
    assert t.added >= turn(speed, colours, False, margin, bad=bad).added


@given(speeds, margins, st.booleans())
def test_h3_the_bad_colour_never_beats_the_good_one(speed, margin, success):
    good = turn(speed, ["green"], success, margin)
    worse = turn(speed, ["blue"], success, margin)
    assert worse.added <= good.added and worse.speed <= good.speed


# ---------------------------------------------------------------------------- H3 pole


def test_h3_pole_is_the_highest_score():
    assert pole({"huang": 9, "chen": 4, "thug": 7}, ["chen", "thug", "huang"]) == "huang"


def test_h3_pole_ties_go_to_the_higher_reflex_card():
    assert pole({"a": 5, "b": 5, "c": 2}, ["b", "c", "a"]) == "b"
    assert pole({"a": 5, "b": 5}, ["a", "b"]) == "a"


def test_h3_pole_refuses_an_empty_round_and_an_unbreakable_tie():
    with pytest.raises(RulesError):
        pole({}, [])
    with pytest.raises(RulesError):
        pole({"a": 3, "b": 3}, [])
    assert pole({"a": 3, "b": 3}, ["b"]) == "b"  # the one with a card wins the tie


@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 6), min_size=1), st.randoms())
def test_h3_pole_brute_force(scores, rnd):
    reflex = list(scores)
    rnd.shuffle(reflex)
    best = max(scores.values())
    expected = next(p for p in reflex if scores[p] == best)
    assert pole(scores, reflex) == expected


# ---------------------------------------------------------------------------- H3 exchange end


def test_h3_exchange_end_walk():
    totals = {"huang": 12, "chen": 9, "thug": 5, "boss": 3}
    reflex = ["thug", "huang", "chen", "boss"]
    got = resolve_exchange_end(totals, reflex, {"huang": "thug", "chen": None, "boss": None})
    assert got == {
        "huang": "captor",
        "thug": "captured by huang",
        "chen": "escaped",
        "boss": "escaped",
    }


def test_h3_a_captured_participant_makes_no_choice():
    got = resolve_exchange_end(
        {"a": 9, "b": 5, "c": 1}, ["a", "b", "c"], {"a": "b", "b": "c", "c": None}
    )
    assert got == {"a": "captor", "b": "captured by a", "c": "escaped"}


def test_h3_knocked_out_participants_are_out_and_can_be_captured():
    got = resolve_exchange_end({"a": 9, "b": 5, "c": 1}, ["a", "b", "c"], {"a": "c"})
    assert got == {"a": "captor", "b": "out", "c": "captured by a"}


def test_h3_reflex_breaks_equal_totals_but_an_equal_total_cannot_be_captured():
    with pytest.raises(RulesError, match="lower total"):
        resolve_exchange_end({"a": 5, "b": 5}, ["a", "b"], {"a": "b", "b": None})
    # b walks first (higher card) and escapes; a may not capture it (gone and not lower)
    with pytest.raises(RulesError):
        resolve_exchange_end({"a": 5, "b": 5}, ["b", "a"], {"a": "b", "b": None})


@pytest.mark.parametrize(
    "choices",
    [
        {"a": "a", "b": None, "c": None},  # itself
        {"a": "x", "b": None, "c": None},  # nobody
        {"a": None, "b": "a", "c": None},  # a higher total
        {"a": "c", "b": "c", "c": None},  # already captured
        {"a": None, "b": None, "c": None, "x": None},  # a choice without a total
    ],
)
def test_h3_illegal_choices_raise(choices):
    with pytest.raises(RulesError):
        resolve_exchange_end({"a": 9, "b": 5, "c": 1}, ["a", "b", "c"], choices)


def _walk(totals, reflex, choices):
    """A reference walk written from H3's words; None when a choice breaks the rule."""
    out = {}
    for p in sorted(totals, key=lambda p: (-totals[p], reflex.index(p))):
        if p in out:
            continue
        if p not in choices:
            out[p] = "out"
        elif choices[p] is None:
            out[p] = "escaped"
        elif (t := choices[p]) in totals and totals[t] < totals[p] and t not in out:
            out[p], out[t] = "captor", f"captured by {p}"
        else:
            return None
    return out


@given(
    st.dictionaries(st.sampled_from("abcde"), st.integers(0, 5), min_size=1, max_size=5),
    st.data(),
)
def test_h3_exchange_end_brute_force(totals, data):
    reflex = data.draw(st.permutations(list(totals)))
    names = list(totals)
    choices = {}
    for p in names:
        if data.draw(st.booleans()):  # still in the chase
            choices[p] = data.draw(st.sampled_from([None, *names]))
    expected = _walk(totals, list(reflex), choices)
    if expected is None:
        with pytest.raises(RulesError):
            resolve_exchange_end(totals, reflex, choices)
    else:
        got = resolve_exchange_end(totals, reflex, choices)
        assert got == expected
        assert set(got) == set(totals)
        for p, r in got.items():
            if r.startswith("captured by "):
                captor = r.removeprefix("captured by ")
                assert got[captor] == "captor" and totals[captor] > totals[p]
