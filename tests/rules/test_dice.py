"""The roll record: every die's history, plain-data round trip, dice sources."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.rules import RulesError, af254
from afdesk.rules.dice import (
    Die,
    Pool,
    RandomSource,
    Roll,
    ScriptedSource,
    audit,
    build_roll,
    from_data,
    to_data,
)


def test_record_keeps_every_die_history():
    roll = af254.roll_check(2, 1, source=ScriptedSource([6, 2, 4, 5]))
    roll = af254.shift_retry(roll, [1], ScriptedSource([1]))
    roll = af254.shift_add(roll, ScriptedSource([4, 4]))
    first, boom, _retried, intf, add1, add2 = roll.dice
    assert first.exploded and boom.from_explosion
    assert boom.retried_from == 2 and boom.retry_reason == "shift" and boom.face == 1
    assert intf.pool is Pool.INTERFERENCE and intf.face == 5
    assert add1.added_by == "shift" and add2.added_by == "shift"
    # The Interference 5 takes the lowest check Win: the added 4 (R4).
    cancelled = [d for d in roll.dice if d.cancelled_by is not None]
    assert len(cancelled) == 1 and cancelled[0].face == 4
    assert roll.dice[cancelled[0].cancelled_by] == intf


def test_round_trip_through_json():
    roll = af254.roll_check(4, 2, ventures=1, advantage=True)
    data = json.loads(json.dumps(to_data(roll)))
    assert from_data(data) == roll


@given(
    st.lists(st.integers(1, 6), max_size=8),
    st.lists(st.integers(1, 6), max_size=4),
)
def test_built_roll_round_trips_and_evaluates_like_faces(check, interference):
    roll = build_roll(check, interference)
    assert from_data(to_data(roll)) == roll
    assert af254.outcome_of(roll) == af254.evaluate(check, interference)


def test_bad_record_is_a_rules_error():
    with pytest.raises(RulesError, match="not a roll record"):
        from_data({"dice": [{"face": "six"}]})


def test_seeded_source_replays_and_audits():
    roll = af254.roll_check(6, 3)
    assert audit(roll)
    replay = af254.roll_check(6, 3, source=RandomSource(roll.seed))
    assert replay == roll
    tampered = Roll(
        dice=(Die(face=(roll.dice[0].face % 6) + 1, draw=roll.dice[0].draw),),
        seed=roll.seed,
    )
    assert not audit(tampered)


def test_shift_continues_the_same_stream():
    roll = af254.roll_check(3)
    more = af254.shift_add(roll)
    assert more.seed == roll.seed and audit(more)


def test_scripted_source_runs_out_clearly():
    with pytest.raises(RulesError, match="ran out"):
        af254.roll_check(3, source=ScriptedSource([1, 2]))


def test_scripted_source_refuses_bad_faces():
    with pytest.raises(RulesError, match="not a d6 face"):
        af254.roll_check(1, source=ScriptedSource([7]))


def test_retry_bad_index():
    roll = af254.roll_check(1, source=ScriptedSource([2]))
    with pytest.raises(RulesError, match="no die number 5"):
        roll.retry([5], "shift", ScriptedSource([1]))
