"""number_scan.numbers_fit answers as the walk does (limits.has_bad_number over each
value's builtins) for every value JSON can hold: whole numbers of any size, finite floats,
texts full of digits and exponents, nested in lists, dicts and records."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afdesk.encounter.limits import MAX_MAGNITUDE, has_bad_number
from afdesk.encounter.number_scan import numbers_fit
from afdesk.encounter.ops.roster import AdjustCounter, SetFacing

EDGES = [
    MAX_MAGNITUDE,
    MAX_MAGNITUDE + 1,
    -MAX_MAGNITUDE,
    -MAX_MAGNITUDE - 1,
    10**18,
    10**19,
    2**64,
    -(2**70),
    float(2**63),
    9.223372036854775e18,  # the float just below 2**63
    -1e19,
    1e18,
    1e300,
    1e-300,
    123456.5,
]


def walked(values) -> bool:
    return not any(has_bad_number(msgspec.to_builtins(v)) for v in values)


@pytest.mark.parametrize("number", EDGES)
def test_each_edge_number_is_found_or_passed_as_the_walk_does(number):
    for values in ([number], [{"a": [1, number]}], ["x", [[number]]]):
        assert numbers_fit(values) == walked(values)


def test_records_and_ops_are_read_as_their_json():
    assert numbers_fit([AdjustCounter("huang", "grit", 3), SetFacing("gao", 90.0)])
    assert not numbers_fit([AdjustCounter("huang", "grit", 2**63)])
    assert not numbers_fit([SetFacing("gao", 1e19)])


def test_digits_and_exponents_in_texts_are_not_numbers():
    texts = ["9" * 40, "e1234 0e00", "1e19", "id-12345678901234567890123"]
    assert numbers_fit(texts) and walked(texts)


_leaf = (
    st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(EDGES)
    | st.text(alphabet="0123456789e.-+ ab", max_size=30)
    | st.booleans()
    | st.none()
)
_values = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(_values, max_size=5))
def test_the_scan_answers_as_the_walk(values):
    assert numbers_fit(values) == walked(values)


def test_a_float_exponent_is_read_whole():
    """``1e180`` is not ``1e18`` (found by the property test above, once)."""
    assert not numbers_fit([1e180])
    assert not numbers_fit([{"x": -2.5e100}])
    assert numbers_fit([1e18, -9.2e18, 1e-180])
