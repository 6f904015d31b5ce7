"""Stage properties (H4): the ten, their counts and their effects on a turn."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.rules import RulesError
from afdesk.rules.pursuit.stages import (
    StageProperty as S,
)
from afdesk.rules.pursuit.stages import (
    check_penalty,
    facets,
    properties,
    property_count,
    speed_kind,
    stage_effects,
)


def test_h4_the_ten_properties():
    assert [p.label for p in S] == [
        "Attacking", "Chasm", "Dangerous", "Difficult", "Flaming",
        "Fluid", "Obscured", "Occupied", "Steep", "Treacherous",
    ]  # fmt: skip
    assert all(p.effect for p in S)
    assert properties(["Steep", "chasm", "steep"]) == (S.CHASM, S.STEEP)
    with pytest.raises(RulesError, match="no stage property 'lava'"):
        properties(["lava"])


def test_h3_the_pole_picks_its_margin_at_least_one():
    assert [property_count(m) for m in (0, 1, 2, 4)] == [1, 1, 2, 4]


def test_h2_h4_penalties_speeds_and_facets():
    assert check_penalty((), bad=False) == 0
    assert check_penalty((), bad=True) == 2  # the bad colour: -2 (R1, H2)
    assert check_penalty((S.DIFFICULT,), bad=True) == 4
    assert speed_kind((S.STEEP,), "run") == "climb"
    assert speed_kind((S.FLUID,), "run") == "swim"
    assert speed_kind((S.CHASM,), "run") == "run"
    assert facets((S.OBSCURED,), "agility") == ("agility", "sneak")
    assert facets((), "machinery") == ("machinery",)


def fx(stage, **kw):
    base = {"bad": False, "success": True, "margin": 1, "interference": False}
    base |= {"teetering": False, "total": 5}
    base.update(kw)
    return stage_effects(stage, **base)


def test_h4_simple_stage_does_nothing_more():
    assert fx((), success=False, margin=3, bad=True) == fx((S.DIFFICULT, S.OBSCURED))


def test_h4_failure_margin_effects():
    e = fx((S.DANGEROUS, S.FLAMING, S.TREACHEROUS), success=False, margin=2)
    assert (e.hits, e.burn, e.total_delta) == (2, 2, -2)
    assert fx((S.DANGEROUS,), success=True, margin=2).hits == 0  # a success margin: none


def test_h4_steep_subtracts_and_falls():
    e = fx((S.STEEP,), success=False, margin=3, total=7)
    assert (e.total_delta, e.fall) == (-3, 3)
    assert fx((S.STEEP,), success=False, margin=9, total=2).total_delta == -2  # not below 0


def test_h4_chasm_teeters_then_falls_the_total():
    assert fx((S.CHASM,), bad=True).teeter
    assert fx((S.CHASM,), interference=True, success=False).teeter
    assert not fx((S.CHASM,)).teeter
    second = fx((S.CHASM,), bad=True, teetering=True, total=6)
    assert second.fall == 6


def test_h4_bad_colour_hazards():
    e = fx((S.ATTACKING, S.FLUID, S.OCCUPIED), bad=True)
    assert e.hazard_attack and e.drown and e.extra_pursuer
    e = fx((S.ATTACKING, S.FLUID, S.OCCUPIED), interference=True, success=False)
    assert e.hazard_attack and not e.drown and not e.extra_pursuer  # only Attacking on it


@given(
    st.lists(st.sampled_from(list(S)), unique=True),
    st.booleans(),
    st.booleans(),
    st.integers(1, 6),
    st.booleans(),
    st.booleans(),
    st.integers(0, 20),
)
def test_h4_properties(stage, bad, success, margin, interference, teetering, total):
    e = stage_effects(
        stage, bad=bad, success=success, margin=margin, interference=interference,
        teetering=teetering, total=total,
    )  # fmt: skip
    assert -total <= e.total_delta <= 0
    assert e.hits >= 0 and e.burn >= 0 and e.fall >= 0
    if success:
        assert e.total_delta == 0 and e.hits == 0 and e.burn == 0
    if not stage:
        assert e == stage_effects(
            (), bad=False, success=True, margin=1, interference=False, teetering=False, total=0
        )
