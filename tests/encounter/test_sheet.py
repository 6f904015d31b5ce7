"""One character sheet for the encounter and the campaign: declared once (Sheet), held by the
roster's Character and by the encounter's Combatant, and every conversion between them goes
through it (attacks E6, E12; lasting states and their notes E17; Shifts R10)."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.campaign.build import add_copies, add_link, refreshed, running_copy
from afdesk.encounter.campaign.roster import Character, Role, check_character
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.combatant import (
    SHEET_FIELDS,
    Combatant,
    D20Profile,
    Facet,
    Sheet,
    Side,
    Speeds,
    State,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.roster import AddState
from afdesk.encounter.weapons import Attack

WEAPONS = (
    Attack("sword", 2),
    Attack("staff", 1, reach=2),
    Attack("knives", 1),
    Attack("crossbow", 3, reach=0, range=8),
)


def _full_sheet() -> Sheet:
    """A sheet whose every field differs from its default."""
    return Sheet(
        name="Chen",
        side=Side.FOLLOWER,
        facets=(Facet("fight", 4), Facet("sneak", 3)),
        speeds=Speeds(run=3, climb=2, jump=2, swim=0, fly=1),
        reach=2,
        weapon_range=8,
        grit=2,
        grit_max=5,
        hits=1,
        shifts=1,
        will=2,
        d20=D20Profile(quick=2, strong=1, training=3),
        states=(State(StateKind.WOUNDED, markers=2, note="arrow in the shoulder"),),
        notes="carries the map",
        attacks=WEAPONS,
    )


def test_the_sheet_is_declared_once_and_the_combatant_holds_every_field_alike():
    """Combatant keeps its file fields; each sheet field is one of them, with the same type
    and default (name and side aside: a combatant must say them)."""
    combatant = {f.name: f for f in msgspec.structs.fields(Combatant)}
    roster = {f.name: f for f in msgspec.structs.fields(Character)}
    for f in msgspec.structs.fields(Sheet):
        assert f.name in combatant, f"Combatant lacks the sheet field {f.name}"
        assert combatant[f.name].type == f.type, f.name
        if f.name not in ("name", "side"):
            assert combatant[f.name].default == f.default, f.name
        assert roster[f.name] == f, "the roster entry is a Sheet: the very same field"
    assert issubclass(Character, Sheet)
    assert Sheet.__struct_fields__ == SHEET_FIELDS
    assert {"attacks", "states", "notes", "will", "d20"} <= set(SHEET_FIELDS)
    every = {f.name: f for f in msgspec.structs.fields(Sheet)}
    changed = {f for f in SHEET_FIELDS if getattr(_full_sheet(), f) == every[f].default}
    assert changed == set(), "the test sheet exercises every field"


def test_a_sheet_goes_through_the_encounter_and_back_unchanged():
    sheet = _full_sheet()
    c = Combatant("chen", "x", Side.BAND, area=(1, 2), group="g").with_sheet(sheet)
    assert c.sheet() == sheet
    assert (c.area, c.group, c.id) == ((1, 2), "g", "chen"), "what only a fight has stays"
    entry = Character(id="chen", name="?", role=Role.BAND).with_sheet(sheet)
    assert entry.sheet() == sheet
    assert (entry.id, entry.role) == ("chen", Role.BAND)


def test_weapons_on_the_roster_come_into_every_encounter():
    """Prepare and Run bring the roster's attacks: nothing is re-typed (E6, E12)."""
    chen = Character(id="chen", name="?", role=Role.BAND).with_sheet(_full_sheet())
    bandit = Character(
        id="bandit", name="Bandit", role=Role.TEMPLATE, side=Side.OPPONENT, attacks=WEAPONS[:1]
    )
    camp = Campaign(characters=(chen, bandit))
    enc = Encounter()
    enc.apply(add_link(enc, chen))
    for op in add_copies(enc, bandit, 2):
        enc.apply(op)
    linked = enc.combatant("chen")
    assert linked.sheet() == chen.sheet()
    assert (linked.link, linked.days_since_rest) == ("chen", chen.days_since_rest)
    copies = [c for c in enc.roster() if c.name.startswith("Bandit")]
    assert [c.attacks for c in copies] == [WEAPONS[:1], WEAPONS[:1]]
    assert all(c.states == () and c.link == "" for c in copies)
    # The roster gains a weapon after Prepare: Run brings it.
    better = chen.replace(attacks=(*WEAPONS, Attack("sling", 1, range=5)))
    state = running_copy(enc.state(), camp.replace(characters=(better, bandit)))
    ran = next(c for c in state.combatants if c.id == "chen")
    assert ran.attacks == better.attacks
    assert ran.states[0].note == "arrow in the shoulder"


def test_run_keeps_the_prepared_attacks_when_the_roster_has_none():
    """A campaign from before the one sheet held no attacks: the weapons typed into the
    prepared encounter stay (same meaning as before)."""
    old = Character(id="huang", name="Huang", role=Role.BAND)
    c = old.combatant("huang").replace(attacks=WEAPONS, notes="typed in the encounter")
    assert refreshed(c, old).attacks == WEAPONS
    assert refreshed(c, old).notes == "typed in the encounter"


def test_a_character_met_in_an_encounter_joins_the_roster_with_its_sheet():
    enc = Encounter()
    enc.apply(
        add_link(enc, Character(id="mara", name="?", role=Role.BAND).with_sheet(_full_sheet()))
    )
    enc.apply(AddState(enc.roster()[0].id, StateKind.HIDDEN))
    c = enc.roster()[0]
    entry = Character.from_combatant(c, "mara-2", Role.RECURRING)
    assert entry.sheet() == msgspec.structs.replace(c.sheet(), states=())
    assert entry.attacks == WEAPONS and entry.states == ()


def test_a_bad_attack_on_the_roster_is_refused_with_its_name():
    c = Character(id="x", name="Oskar", role=Role.BAND, attacks=(Attack("axe", -1),))
    with pytest.raises(IllegalOp, match="Oskar: axe: damage cannot be negative"):
        check_character(c)
