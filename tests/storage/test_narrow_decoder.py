"""A file is read by a decoder that knows only the Ops its log holds (msgspec then reads
the layout of those few Op classes, not of every registered one: the start opens the
sample so), and what it reads is exactly what the decoder of every Op reads; a file the
narrow decoder cannot take is read, and its problem said, by the full one."""

from __future__ import annotations

import pytest

from afdesk.encounter.ops.meta import Rename, SetNotes
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.ops.zone import SetEdgeRule
from afdesk.paths import sample_encounter
from afdesk.storage import LoadError, codec


@pytest.fixture
def fresh(monkeypatch):
    """No decoder built yet, as at the start."""
    monkeypatch.setattr(codec, "_fast", None)
    monkeypatch.setattr(codec, "_narrow", {})


def test_the_sample_is_read_knowing_only_the_ops_of_its_log(fresh):
    data = sample_encounter().read_bytes()
    state = codec.decode(data)
    assert codec._fast is None  # the decoder of every Op was not needed
    assert [set(ops) for ops, _layout in codec._narrow] == [
        {AddCombatant, Rename, SetEdgeRule, SetNotes}
    ]
    _layout, full = codec._fast_decoder()
    assert state == codec._real(full.decode(data))  # exactly what the full one reads
    assert codec.encode(state) == data


def test_the_same_ops_share_one_decoder(fresh):
    data = sample_encounter().read_bytes()
    codec.decode(data)
    codec.decode(data.replace(b"Ambush at the river ford", b"Another ford"))
    assert len(codec._narrow) == 1


def test_a_file_with_an_op_nobody_registered_is_refused_as_before(fresh):
    data = sample_encounter().read_bytes().replace(b'"op":"Rename"', b'"op":"Renamed"', 1)
    with pytest.raises(LoadError) as err:
        codec.decode(data, source="ford.afenc")
    assert codec._narrow == {}
    assert "ford.afenc" in str(err.value) and "Renamed" in str(err.value)


def test_a_bad_field_inside_an_op_is_said_as_the_full_decoder_says_it(fresh, monkeypatch):
    data = sample_encounter().read_bytes()
    at = data.rindex(b'"facing":20.0')  # in the log: Silent Lan joins the encounter
    data = data[:at] + b'"facing":"north"' + data[at + len(b'"facing":20.0') :]
    with pytest.raises(LoadError) as narrow_first:
        codec.decode(data, source="ford.afenc")
    assert codec._narrow  # the narrow decoder was tried first
    monkeypatch.setattr(codec, "_decoder_for", lambda _data: None)
    with pytest.raises(LoadError) as full_only:
        codec.decode(data, source="ford.afenc")
    assert str(narrow_first.value) == str(full_only.value)
    assert "log[" in str(full_only.value)
