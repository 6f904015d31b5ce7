"""A new mode is its folder plus one registration (E16): a mode registered from a test
(tests/toy_mode.py: a part, an Op, its bounds) plays, saves, loads, undoes and journals
its Op, and the files of the installed modes stay exactly as they were."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.parts import PARTS, all_parts
from afdesk.encounter.registry import decode_hook, op_union, registered_ops
from afdesk.encounter.restore import Restore, restore_type
from afdesk.encounter.snapshot import EncounterState, layout
from afdesk.encounter.state import Mode
from afdesk.storage import LoadError, load, save
from afdesk.storage.samples import build
from afdesk.storage.schema import schema_text
from tests.toy_mode import Cheer, Cheers, cheers_of, installed_toy

INSTALLED = ["battle", "chase", "dispute", "infiltration"]


@pytest.fixture
def toy():
    with installed_toy() as mode:
        yield mode


def test_the_new_mode_is_a_mode_with_a_part_in_files_and_inverses(toy):
    assert toy is Mode.TOY and Mode("toy") is toy and [m.value for m in Mode] == [*INSTALLED, "toy"]
    assert isinstance(toy, Mode) and toy.label == "Toy"
    assert layout().__struct_fields__[-2:] == ("toy", "log")  # after every other part
    assert restore_type().__struct_fields__[-3:] == ("toy", "log_length", "log_entries")
    assert all_parts()[-1].name == "toy"


def test_an_encounter_in_the_new_mode_saves_loads_and_undoes_its_op(toy, tmp_path):
    enc = build()
    history = History(enc)
    history.push(ChangeMode(toy, override=True), "Toy")
    history.push(Cheer("Huang"), "Cheer")
    assert enc.mode is toy and cheers_of(enc) == Cheers(1)
    path = tmp_path / "toy.afenc"
    save(path, enc.state())
    data = path.read_bytes()
    assert b'"mode":"toy"' in data and b'"toy":{"count":1}' in data

    loaded = load(path).state
    assert loaded == enc.state()
    again = Encounter.from_state(loaded)
    assert again.mode is toy and cheers_of(again) == Cheers(1)
    assert isinstance(again.log[-1].op, Cheer) and again.log[-1].text == "Huang cheers"
    replay = History(again)
    replay.push(Cheer(), "Cheer")
    assert cheers_of(again) == Cheers(2)
    replay.undo()
    assert cheers_of(again) == Cheers(1)

    history.undo()  # the Cheer
    assert cheers_of(enc) == Cheers(0) and enc.mode is toy
    history.undo()  # the change of mode
    assert str(enc.mode) == "battle"
    history.redo()
    assert enc.mode is toy


def test_the_new_modes_inverse_goes_through_a_journal_line(toy):
    enc = build()
    enc.apply(ChangeMode(toy, override=True))
    inverse = enc.apply(Cheer())
    assert inverse.toy == Cheers(0)  # type: ignore[attr-defined]
    line = msgspec.json.encode(inverse)
    assert b'"toy":{}' in line and b'"op":"Restore"' in line
    back = msgspec.json.decode(line, type=op_union(), dec_hook=decode_hook)
    assert back == inverse
    enc.apply(back)
    assert cheers_of(enc) == Cheers(0)


def test_the_new_modes_ops_are_refused_elsewhere_and_its_numbers_bounded(toy):
    enc = build()
    from afdesk.encounter.errors import IllegalOp

    with pytest.raises(IllegalOp, match="only a toy encounter cheers"):
        enc.apply(Cheer())
    enc.apply(ChangeMode(toy, override=True))
    from afdesk.encounter import limits

    found = limits.problem(Cheers(limits.MAX_COUNT + 1), "toy")
    assert found is not None and found.refusal("the toy's").startswith("the toy's cheers would be")


def test_without_the_new_mode_its_files_are_refused_naming_it(tmp_path):
    with installed_toy() as toy:
        enc = build()
        enc.apply(ChangeMode(toy, override=True))
        path = tmp_path / "toy.afenc"
        save(path, enc.state())
    with pytest.raises(LoadError, match='mode: "toy" is not one of the allowed values: '):
        load(path)
    assert [m.value for m in Mode] == INSTALLED


def test_registering_and_taking_away_a_mode_leaves_the_installed_format_as_it_was(tmp_path):
    before = (schema_text(), EncounterState.__struct_fields__, Restore.__struct_fields__)
    ops = registered_ops()
    with installed_toy():
        assert layout() is not EncounterState and restore_type() is not Restore
        assert '"toy"' not in schema_text()
    assert layout() is EncounterState and restore_type() is Restore
    assert registered_ops() == ops and all_parts()[: len(PARTS)] == PARTS
    assert (schema_text(), EncounterState.__struct_fields__, Restore.__struct_fields__) == before
    state = build().state()
    assert type(state) is EncounterState
    path = tmp_path / "ford.afenc"
    save(path, state)
    assert load(path).state == state
