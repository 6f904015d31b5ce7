"""The limits check remembers, by identity, the records and tuples it found within every
limit (afdesk.encounter.limits): a change costs what it changed, not the size of what it
touched. The memory must never change an answer: these tests hold it to a fresh walk
(``plain_problem``) wherever a memory keyed on the wrong thing (a character's id, a
field's name, an address that was reused, an equal value) would answer wrongly."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from afdesk.encounter import limits
from afdesk.encounter.combatant import (
    Combatant,
    Economy,
    Facet,
    MomentumMarker,
    Side,
    Speeds,
    State,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.limits import MAX_COUNT
from afdesk.encounter.ops.roster import (
    AddMomentum,
    AddState,
    AdjustCounter,
    SetFacing,
    SetMarkers,
)
from afdesk.storage.samples import build


def _marked(n: int, dice: int = 2) -> Combatant:
    markers = tuple(MomentumMarker(dice, "test") for _ in range(n))
    return Combatant("m", "Marked", Side.BAND, momentum=markers)


def test_an_address_reused_by_a_new_record_is_not_taken_for_the_old_one():
    """Keyed on ``id()`` alone, a freed clean tuple's address given to a new tuple of
    markers beyond R12's counter limit would pass unseen: the memory keeps what it
    remembers alive, so an address is never reused while remembered."""
    for _ in range(200):
        clean = _marked(3)
        assert limits.problem(clean) is None
        del clean
        bad = _marked(3, dice=MAX_COUNT + 1)
        found = limits.problem(bad)
        assert found is not None and found == limits.plain_problem(bad)
        assert found.words == "Momentum marker (R12)"


def test_an_equal_looking_change_to_a_remembered_character_is_still_refused():
    """R12, E17: the same character (same id, same fields touched) changed again: a memory
    keyed on the character or on a field's name would accept the bad change."""
    enc = build()
    for _ in range(40):
        enc.apply(AddMomentum("bao", 2, "test"))
    enc.apply(AddState("bao", StateKind.BLEEDING, markers=2))
    for angle in (10.0, 20.0, 30.0):
        enc.apply(SetFacing("bao", angle, override=True))
    fresh = build()
    for _ in range(40):
        fresh.apply(AddMomentum("bao", 2, "test"))
    fresh.apply(AddState("bao", StateKind.BLEEDING, markers=2))
    fresh.apply(SetFacing("bao", 30.0, override=True))
    for op in (
        SetMarkers("bao", StateKind.BLEEDING, 10**8),
        AdjustCounter("bao", "hits", MAX_COUNT + 5),
        AdjustCounter("bao", "shifts", -(10**9)),
    ):
        before = enc.state()
        why = enc.refusal(op)
        assert why and why == fresh.refusal(op)
        try:
            enc.apply(op)
        except IllegalOp as exc:
            assert str(exc) == why
        assert enc.state() == before


def test_a_tiny_memory_gives_the_same_answers(monkeypatch):
    """Past CLEAN_MAX the memory starts again: answers stay those of a fresh walk."""
    monkeypatch.setattr(limits, "CLEAN_MAX", 3)
    c = _marked(5)
    for i in range(30):
        c = c.replace(
            facing=float(i),
            hits=MAX_COUNT + 1 if i % 7 == 6 else i,
            momentum=(*c.momentum, MomentumMarker(2)),
        )
        assert limits.problem(c) == limits.plain_problem(c)


def test_a_change_to_a_character_with_840_markers_looks_at_no_marker(monkeypatch):
    """The per-Op cost follows what changed: turning a character that holds 840 Momentum
    markers (R12) walks as many records as turning one that holds none."""
    visits = [0]
    walk = limits._visit

    def counting(value, place):
        visits[0] += 1
        walk(value, place)

    monkeypatch.setattr(limits, "_visit", counting)
    counted = []
    for n in (0, 840):
        enc = build()
        held = tuple(MomentumMarker(2 if i % 3 else -2, "bench") for i in range(n))
        enc.combatants["bao"] = enc.combatant("bao").replace(momentum=held)  # a file's
        visits[0] = 0
        enc.apply(SetFacing("bao", 5.0, override=True))  # the first look: everything
        first = visits[0]
        visits[0] = 0
        enc.apply(SetFacing("bao", 15.0, override=True))
        counted.append((first, visits[0]))
    assert counted[1][0] > 840  # the markers were looked at once, when first met
    assert counted[0][1] == counted[1][1] > 0


_COUNTERS = ("reach", "grit", "grit_max", "hits", "shifts", "will", "weapon_range")
_numbers = st.one_of(st.integers(-3, 5), st.integers(-(2**40), 2**40))
_change = st.one_of(
    st.tuples(st.just("counter"), st.sampled_from(_COUNTERS), _numbers),
    st.tuples(st.just("marker"), st.just(""), _numbers),
    st.tuples(st.just("drop_marker"), st.just(""), st.integers(0, 50)),
    st.tuples(st.just("state"), st.sampled_from(["markers", "until"]), _numbers),
    st.tuples(st.just("facet"), st.sampled_from(["fight", "move"]), _numbers),
    st.tuples(st.just("speed"), st.sampled_from(["run", "fly"]), _numbers),
    st.tuples(st.just("economy"), st.sampled_from(["guards", "movement"]), _numbers),
    st.tuples(st.just("area"), st.just(""), _numbers),
    st.tuples(st.just("facing"), st.just(""), st.floats(allow_nan=True)),
)


def _changed(c: Combatant, change: tuple[str, str, float]) -> Combatant:
    """``c`` with one change made as Ops make them (unchanged parts shared)."""
    kind, name, value = change
    if kind == "counter":
        return c.replace(**{name: value})
    if kind == "marker":
        return c.replace(momentum=(*c.momentum, MomentumMarker(int(value))))
    if kind == "drop_marker":
        i = int(value)
        return c.replace(momentum=c.momentum[:i] + c.momentum[i + 1 :])
    if kind == "state":
        state = msgspec.structs.replace(State(StateKind.BLEEDING), **{name: value})
        return c.replace(states=(*c.states[-2:], state))
    if kind == "facet":
        return c.replace(facets=(*c.facets[1:], Facet(name, int(value))))
    if kind == "speed":
        return c.replace(speeds=msgspec.structs.replace(c.speeds, **{name: value}))
    if kind == "economy":
        return c.replace(economy=msgspec.structs.replace(c.economy, **{name: value}))
    if kind == "area":
        return c.replace(area=(int(value), 0), decoys=((0, int(value)),))
    return c.replace(facing=value)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 60),
    st.lists(_change, max_size=25),
)
def test_the_remembering_check_agrees_with_a_fresh_walk(markers, changes):
    """Over random characters and changes (within limits or far beyond), each checked as
    the model checks a touched character: the same problem (place, words, value, rule),
    so the same refusal, as a walk that remembers nothing."""
    c = Combatant(
        "r",
        "Random",
        Side.OPPONENT,
        momentum=tuple(MomentumMarker(2) for _ in range(markers)),
        speeds=Speeds(),
        economy=Economy(),
    )
    for change in changes:
        c = _changed(c, change)
        found = limits.problem(c, "combatants[0]")
        assert found == limits.plain_problem(c, "combatants[0]")
        plain = limits.plain_problem(c)
        assert limits.change_refusal([c], []) == (plain.refusal("Random's") if plain else "")


_leaves = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
)
_documents = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.text(max_size=2), inner, max_size=4),
    ),
    max_leaves=30,
)


def _first_bad_by_walk(doc):
    """The plain full check: every leaf with its place, the first bad number."""
    for where, item in limits.walk(doc, "part"):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            continue
        if not -limits.MAX_MAGNITUDE <= item <= limits.MAX_MAGNITUDE:  # NaN included
            return where
    return None


@settings(max_examples=300, deadline=None)
@given(_documents)
def test_the_fast_number_check_finds_what_the_walk_finds(doc):
    """An encounter's parts are checked number by number (finite, 64-bit): the quick
    look that skips building places finds a bad number exactly when the walk does, and
    the problem then names the same place."""
    where = _first_bad_by_walk(doc)
    assert limits.has_bad_number(doc) == (where is not None)
    found = limits.number_problem(doc, "part")
    assert (found.place if found else None) == where


def test_an_undo_puts_back_the_very_records_it_took_and_a_foreign_restore_is_converted():
    """The model knows its own inverses again by identity: undoing a change puts back the
    records it replaced (so the limits check remembers them), while a Restore it did not
    make (equal in value, its side a plain string as a widget gives it) is converted and
    checked like any Op (R10: a number beyond its limit is refused)."""
    from afdesk.encounter.restore import Restore
    from afdesk.encounter.snapshot import Slot

    enc = build()
    bao = enc.combatant("bao")
    inverse = enc.apply(SetFacing("bao", 45.0, override=True))
    enc.apply(inverse)
    assert enc.combatant("bao") is bao
    enc.apply(SetFacing("bao", 45.0, override=True))
    plain = msgspec.structs.replace(bao, side=bao.side.value)  # not the model's own
    enc.apply(Restore(combatants=(Slot("bao", plain),)))
    assert enc.combatant("bao") == bao and enc.combatant("bao").side is bao.side
    far = Restore(combatants=(Slot("bao", bao.replace(shifts=MAX_COUNT + 1)),))
    assert "Shifts (R10)" in enc.refusal(far)
    huge = Restore(combatants=(Slot("bao", bao.replace(harm_call=2**70)),))
    assert "Restore holds a number no file can hold" in enc.refusal(huge)


def test_a_mode_part_beyond_64_bits_is_refused_with_its_number():
    """R10: a chase total beyond 64 bits (an Op adding to one near the bound) is refused
    with its place and the number it would be (it said "would be 0")."""
    from afdesk.encounter.chase.state import chase_of
    from afdesk.storage.samples import build_chase

    chase = chase_of(build_chase())
    bad = chase.replace(msgspec.structs.replace(chase.participant("mei"), total=2**64))
    why = limits.change_refusal([], [("chase", bad)])
    assert why.startswith("the encounter's chase.participants[1].total would be 1844674407")
