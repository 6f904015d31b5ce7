"""A file's turn index must point into its turn order (afdesk.storage.meaning, the limits
of afdesk.encounter.limits): -1 (nobody's turn, E3) up to the last place. One past the
end is the off-by-one a loader is most likely to let through, so it is tried exactly at
the boundary, with a non-empty turn order, and refused with its place."""

from __future__ import annotations

import json

import pytest

from afdesk.storage import LoadError, decode, encode
from afdesk.storage.check import check_files
from afdesk.storage.samples import build

SAMPLE = json.loads(encode(build().state()))


def _with_turn(order_size: int, index: int) -> bytes:
    doc = json.loads(json.dumps(SAMPLE))
    ids = [c["id"] for c in doc["combatants"]][:order_size]
    assert len(ids) == order_size, "the sample has too few characters for this turn order"
    doc["turn"]["order"] = ids
    doc["turn"]["index"] = index
    return json.dumps(doc).encode()


@pytest.mark.parametrize("size", [1, 3, 8])
def test_every_place_of_the_turn_order_and_nobody_load(size):
    for index in (-1, 0, size - 1):
        state = decode(_with_turn(size, index), source="fight.afenc")
        assert state.turn.index == index and len(state.turn.order) == size


@pytest.mark.parametrize("size", [1, 3, 8])
def test_a_turn_index_one_past_the_turn_order_is_refused_with_its_place(size):
    with pytest.raises(LoadError) as info:
        decode(_with_turn(size, size), source="fight.afenc")
    assert info.value.detail == (
        f"turn.index: {size} points at no place in the turn order "
        f"(it holds {size}; -1 is nobody's turn)"
    )
    assert str(info.value).startswith("fight.afenc: turn.index: ")


def test_a_turn_index_below_nobody_is_refused_with_its_place():
    with pytest.raises(LoadError) as info:
        decode(_with_turn(3, -2), source="fight.afenc")
    assert info.value.detail.startswith("turn.index: -2 points at no place in the turn order")


def test_afdesk_check_refuses_the_file_and_names_the_place(tmp_path, capsys):
    path = tmp_path / "past.afenc"
    path.write_bytes(_with_turn(3, 3))
    assert check_files([str(path)]) == 2
    assert f"{path}: turn.index: 3 points at no place in the turn order" in capsys.readouterr().out
