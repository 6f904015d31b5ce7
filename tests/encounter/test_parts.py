"""The encounter's parts are declared once (afdesk.encounter.parts); every list that names
them follows the declaration or is checked against it here (item 2)."""

from __future__ import annotations

import typing

import msgspec
import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.encounter.parts import COLLECTIONS, PARTS, EventKind, all_parts
from afdesk.encounter.restore import Restore
from afdesk.encounter.snapshot import EncounterState
from afdesk.storage.samples import build


class ResetPart(Op, frozen=True):
    """Test Op: put one part back to its default."""

    part: str
    logged = False

    def execute(self, enc: Encounter) -> None:
        part = next(p for p in all_parts() if p.name == self.part)
        if getattr(enc, self.part) == part.default():
            raise IllegalOp("already at its default")
        enc.set_part(self.part, part.default())


def test_the_file_layout_is_the_declared_parts_and_collections_in_their_order():
    # The order is the file format (saved files compare byte for byte).
    assert EncounterState.__struct_fields__ == (
        "meta",
        "zone",
        "combatants",
        "reflex",
        "turn",
        "mode",
        "settings",
        "chase",
        "fog",
        "dispute",
        "infiltration",
        "art",
        "log",
    )
    assert set(EncounterState.__struct_fields__) == {p.name for p in all_parts()} | set(COLLECTIONS)
    hints = typing.get_type_hints(EncounterState)
    for part in all_parts():
        assert hints[part.name] == part.type, part.name


def test_restore_has_a_field_for_every_part():
    hints = typing.get_type_hints(Restore)
    for part in all_parts():
        assert hints[part.name] == part.type | None, part.name


def test_every_part_has_its_event_and_the_encounter_its_attribute():
    kinds = {p.event for p in PARTS}
    assert kinds | {EventKind.COMBATANT, EventKind.ROSTER, EventKind.LOG} == set(EventKind)
    for part in all_parts()[len(PARTS) :]:  # a mode's part announces itself by its name
        assert part.event == part.name
    hints = typing.get_type_hints(Encounter)
    for part in PARTS:  # a mode's part is read through its folder's accessor (chase_of)
        assert hints[part.name] == part.type, part.name
    assert all_parts()[: len(PARTS)] == PARTS


def test_an_encounter_starts_every_part_at_its_default_and_refuses_unknown_ones():
    enc = Encounter()
    for part in all_parts():
        assert getattr(enc, part.name) == part.default()
    with pytest.raises(TypeError, match="no part mist"):
        Encounter(mist=True)


@pytest.mark.parametrize("name", [p.name for p in PARTS])
def test_a_change_to_any_part_is_announced_undone_and_snapshotted(name):
    enc = build()
    if name == "mode":
        enc = Encounter.from_state(msgspec.structs.replace(enc.state(), mode="chase"))
    if name == "turn":
        enc = Encounter.from_state(
            msgspec.structs.replace(enc.state(), turn=msgspec.structs.replace(enc.turn, round=2))
        )
    if name in ("reflex", "settings"):
        from afdesk.encounter.ops.meta import SetSettings
        from afdesk.encounter.ops.reflex import deal_hands
        from afdesk.encounter.state import Settings

        enc.apply(deal_hands(enc) if name == "reflex" else SetSettings(Settings("green")))
    if name == "fog":
        from afdesk.encounter.ops.fog import SetFog

        enc.apply(SetFog(((0, 0), (1, 0)), True, "two areas"))
    if name == "art":
        from afdesk.encounter.art import TileArt
        from afdesk.encounter.ops.art import SetMapArt
        from tests.pictures import png_bytes

        enc.apply(SetMapArt(put=(TileArt(1, 1, "image/png", 4, 4, png_bytes(4, 4)),)))
    before = enc.state()
    heard = []
    enc.subscribe(heard.extend)
    part = next(p for p in all_parts() if p.name == name)
    inverse = enc.apply(ResetPart(name))
    assert getattr(enc, name) == part.default()
    assert [e.kind for e in heard] == [part.event]
    assert getattr(enc.state(), name) == part.default()
    assert getattr(inverse, name) == getattr(before, name)
    enc.apply(inverse)
    assert enc.state() == before
