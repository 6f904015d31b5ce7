"""The loader holds records carried inside the log's Ops (a character in AddCombatant or
EditCombatant, an economy in SetEconomy, a deck in DealHands, a Restore's characters and
zone) to the same limits as the roster's, the limits the published schema states for
those types wherever they appear."""

from __future__ import annotations

import json

import msgspec
import pytest

from afdesk.encounter.combatant import Economy
from afdesk.encounter.limits import BOUNDS
from afdesk.encounter.ops.economy import SetEconomy
from afdesk.encounter.ops.reflex import DealHands
from afdesk.encounter.reflex import Card, Suit
from afdesk.encounter.restore import Restore
from afdesk.encounter.snapshot import LogEntry, Slot
from afdesk.paths import resource_dir
from afdesk.storage import LoadError, decode, encode
from afdesk.storage.migrations import CURRENT_VERSION
from afdesk.storage.samples import build
from afdesk.storage.schema import bound_nodes

STATE = build().state()


def _with_log(*ops) -> dict:
    entries = tuple(LogEntry(op, "a change") for op in ops)
    state = msgspec.structs.replace(STATE, log=STATE.log + entries)
    return json.loads(encode(state))


def _problem(doc: dict) -> str:
    with pytest.raises(LoadError) as info:
        decode(json.dumps(doc).encode(), source="fight.afenc")
    return info.value.detail


def test_a_character_added_in_the_log_is_held_to_the_roster_limits():
    doc = json.loads(encode(STATE))
    first = next(i for i, e in enumerate(doc["log"]) if e["op"]["op"] == "AddCombatant")
    doc["log"][first]["op"]["combatant"]["grit"] = 10**7
    assert _problem(doc) == (
        f"log[{first}].op.combatant.grit: count 10000000 is out of range: counters lie "
        "between -1,000,000 and 1,000,000"
    )
    doc = json.loads(encode(STATE))
    doc["log"][first]["op"]["combatant"]["area"] = [0, 10**400]
    assert _problem(doc).startswith(
        f"log[{first}].op.combatant.area[1]: area 1000000000000000... is outside the zone"
    )
    doc = json.loads(encode(STATE))
    doc["log"][first]["op"]["combatant"]["facets"] = [["fight", 2], ["move", 10**9]]
    assert _problem(doc).startswith(f"log[{first}].op.combatant.facets[1][1]: count 1000000000")


def test_an_economy_a_deck_and_a_restore_in_the_log_are_held_to_their_limits():
    at = len(STATE.log)
    doc = _with_log(SetEconomy("huang", Economy(guards=2)))
    doc["log"][at]["op"]["economy"]["guards"] = 5_000_000
    assert _problem(doc).startswith(f"log[{at}].op.economy.guards: count 5000000 is out of range")

    doc = _with_log(DealHands(deck=(Card(14, Suit.SPADES), Card(2, Suit.CLUBS)), hands=()))
    doc["log"][at]["op"]["deck"][1][0] = 15
    assert _problem(doc) == (
        f"log[{at}].op.deck[1][0]: rank 15 is out of range: card ranks run from 2 to 14 (the Ace)"
    )

    huang = STATE.combatants[0]
    restore = Restore(combatants=(Slot(huang.id, huang),), zone=STATE.zone)
    doc = _with_log(restore)
    doc["log"][at]["op"]["combatants"][0][1]["hits"] = -(10**8)
    assert _problem(doc).startswith(f"log[{at}].op.combatants[0][1].hits: count -100000000")
    doc = _with_log(restore)
    doc["log"][at]["op"]["zone"]["tiles"][0]["col"] = 99
    assert _problem(doc).startswith(
        f"log[{at}].op.zone.tiles[0].col: column 99 is outside the zone: tiles must lie "
        "within 64 tiles of the origin"
    )
    doc = _with_log(restore)
    doc["log"][at]["op"]["zone"]["tiles"][1]["segments"][0]["areas"] = []
    assert "covers no area" in _problem(doc)


def test_a_logged_op_within_the_limits_loads():
    at = len(STATE.log)
    doc = _with_log(SetEconomy("huang", Economy(guards=1_000_000)))
    assert decode(json.dumps(doc).encode()).log[at].op.economy.guards == 1_000_000


def test_every_type_the_schema_bounds_is_checked_wherever_it_appears():
    """The schema states the limits on the record types (``$defs``), which every Op that
    carries one shares; the loader checks the same table (BOUNDS) by type, so each bounded
    type of the schema is one the loader checks, and the reverse."""
    published = json.loads(
        (resource_dir() / "schema" / f"afdesk-encounter.v{CURRENT_VERSION}.schema.json").read_text(
            "utf-8"
        )
    )
    defs = published["$defs"]
    bounded_in_schema = set()

    def find(node, where):
        if isinstance(node, dict):
            if "minimum" in node and where:
                bounded_in_schema.add(where)
            for value in node.values():
                find(value, where)
        elif isinstance(node, list):
            for value in node:
                find(value, where)

    for name, node in defs.items():
        find(node, name)
    assert bounded_in_schema == {cls.__name__ for cls in BOUNDS}
    for cls, bounds in BOUNDS.items():
        for bound in bounds:
            assert bound_nodes(defs, cls, bound), (cls, bound)
    users = {
        name
        for name, node in defs.items()
        if '"$ref": "#/$defs/Combatant"' in json.dumps(node) and name != "EncounterState"
    }
    assert {"AddCombatant", "EditCombatant", "Slot"} <= users
