"""The model enforces the limits a file holds (afdesk.encounter.limits): an Op that would
leave a counter, a place or a number beyond one is refused with IllegalOp, naming the
number with its rule, and changes nothing; so whatever the model accepts, save accepts."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afdesk.encounter.combatant import Combatant, Economy, Side, StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.limits import MAX_COUNT, ZONE_RADIUS
from afdesk.encounter.ops.economy import SetEconomy
from afdesk.encounter.ops.meta import AdjustRefereeShifts, SetSettings
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import (
    COUNTERS,
    AddCombatant,
    AddState,
    AdjustCounter,
    EditCombatant,
    SetFacing,
    SetMarkers,
)
from afdesk.encounter.ops.zone import ExtendZone
from afdesk.encounter.state import Settings
from afdesk.storage import encode, meaning, save
from afdesk.storage.codec import decode
from afdesk.storage.samples import build


def _refused(enc, op, *needles: str) -> str:
    before = enc.state()
    with pytest.raises(IllegalOp) as info:
        enc.apply(op)
    assert enc.state() == before  # nothing changed
    text = str(info.value)
    for needle in needles:
        assert needle in text, text
    return text


def test_shifts_beyond_the_counter_limit_are_refused_citing_r10():
    enc = build()
    huang = enc.combatant("huang")
    text = _refused(
        enc,
        AdjustCounter("huang", "shifts", MAX_COUNT),
        "Green-Jade Huang's Shifts (R10) would be",
        f"{huang.shifts + MAX_COUNT}",
        "counters lie between -1,000,000 and 1,000,000",
    )
    assert text.startswith("Green-Jade Huang's Shifts (R10) would be")
    enc.apply(AdjustCounter("huang", "shifts", MAX_COUNT - huang.shifts))  # the limit itself
    assert enc.combatant("huang").shifts == MAX_COUNT


def test_hits_guards_and_snaps_beyond_their_limits_are_refused():
    enc = build()
    _refused(enc, AdjustCounter("chen", "hits", MAX_COUNT + 1), "hits (E17)")
    many = Economy(guards=MAX_COUNT + 1)
    _refused(enc, SetEconomy("chen", many), "guards (E4)", "1000001")
    _refused(enc, SetEconomy("chen", Economy(snaps=10**9)), "snaps (E5)")
    _refused(enc, SetEconomy("chen", Economy(exit_to=((0, 10**4),))), "exit area (E14)")
    _refused(enc, AdjustRefereeShifts(MAX_COUNT), "the referee's Shifts (R10)")
    _refused(enc, SetSettings(Settings(days_since_rest=10**7)), "days since rest (E15)")


def test_states_markers_facing_and_a_new_character_are_held_to_the_limits():
    enc = build()
    _refused(enc, AddState("bao", StateKind.BLEEDING, markers=MAX_COUNT + 1), "markers (E17)")
    enc.apply(AddState("bao", StateKind.BLEEDING, markers=2))
    _refused(enc, SetMarkers("bao", StateKind.BLEEDING, 10**8), "markers (E17)")
    enc.apply(SetFacing("bao", 10.0**7, override=True))  # any angle: kept as one turn
    assert 0 <= enc.combatant("bao").facing < 360
    _refused(enc, SetFacing("bao", float("nan"), override=True), "not a finite number")
    giant = Combatant("giant", "Giant", Side.OPPONENT, grit=10**7, grit_max=10**7)
    _refused(enc, AddCombatant(giant), "Giant's Grit (E15) would be 10000000")
    far = msgspec.structs.replace(enc.combatant("gao"), decoys=((0, 0), (400, 0)))
    _refused(enc, EditCombatant(far), "decoy area (E6)", "is outside the zone")


def test_an_op_holding_a_number_no_file_can_hold_is_refused():
    enc = build()
    _refused(enc, AdjustCounter("huang", "hits", 2**64), "AdjustCounter holds a number", "delta")
    _refused(enc, AdjustCounter("huang", "hits", -(2**70)), "64-bit")
    huang = enc.combatant("huang")
    far = MoveCombatant("huang", (huang.area, (huang.area[0], 2**64)), 0.0)
    _refused(enc, far, "MoveCombatant holds a number", "path[1][1]")


def test_the_zone_grows_up_to_its_radius_and_no_further():
    """E9: a zone grows a tile row at a time; tile 65 east of the origin is refused."""
    enc = build()
    kind = enc.zone.tiles[0].kind
    rows = len({t.row for t in enc.zone.tiles})
    grow = ExtendZone("east", (kind,) * rows)
    while enc.refusal(grow) == "":
        enc.apply(grow)
    assert max(t.col for t in enc.zone.tiles) == ZONE_RADIUS
    text = _refused(enc, grow, "a tile's column (E9) would be 65", "within 64 tiles")
    assert "outside the zone" in text
    decode(encode(enc.state()))  # the grown zone saves and opens again


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["huang", "bandit-1"]),
            st.sampled_from(COUNTERS),
            st.one_of(st.integers(-3, 3), st.integers(-(2**66), 2**66)),
        ),
        max_size=12,
    )
)
def test_what_the_model_accepts_a_file_holds(changes):
    """Whatever counters the GM pushes, an accepted change leaves a state within every
    limit of the file format (so save never has to refuse), a refused one changes
    nothing."""
    enc = build()
    for cid, counter, delta in changes:
        before = enc.state()
        try:
            enc.apply(AdjustCounter(cid, counter, delta))
        except IllegalOp:
            assert enc.state() == before
    state = enc.state()
    data = encode(state)
    meaning.check(state, data, "x.afenc", lambda: msgspec.json.decode(data))


def test_an_accepted_encounter_at_the_limits_saves(tmp_path):
    enc = build()
    enc.apply(AdjustCounter("huang", "hits", MAX_COUNT))
    enc.apply(SetEconomy("huang", Economy(guards=MAX_COUNT, snaps=MAX_COUNT)))
    path = tmp_path / "edge.afenc"
    save(path, enc.state())
    assert decode(path.read_bytes()) == enc.state()
