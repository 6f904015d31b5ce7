"""The campaign model: roster with stable ids, edits as undoable steps, links and
numbered copies into encounters, the running copy, carry-over (E15, E17) and sessions (R10)."""

from __future__ import annotations

import pytest

from afdesk.encounter.campaign.build import (
    add_copies,
    add_link,
    copy_names,
    running_copy,
)
from afdesk.encounter.campaign.carry import ABSENT, NEVER_CARRIED, CarryLine, carry_over
from afdesk.encounter.campaign.edits import (
    CarryOver,
    FinishRun,
    PutCharacter,
    PutEncounter,
    RemoveCharacter,
    StartRun,
    StartSession,
)
from afdesk.encounter.campaign.history import CampaignHistory
from afdesk.encounter.campaign.merge import merge
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.campaign.state import Campaign, Planned, Play
from afdesk.encounter.combatant import (
    ECONOMY_STATES,
    Economy,
    MomentumMarker,
    Side,
    State,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import Change
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.roster import AddCombatant, AddState, AdjustCounter, EditCombatant

BAND = ("Huang", "Chen", "Mara", "Oskar")


def roster() -> Campaign:
    chars = [Character(id=n.lower(), name=n, role=Role.BAND) for n in BAND]
    chars.append(
        Character(id="captain-ilse", name="Captain Ilse", role=Role.RECURRING, side=Side.DENIZEN)
    )
    chars += [
        Character(id="bandit", name="Bandit", role=Role.TEMPLATE, side=Side.OPPONENT, grit=2),
        Character(
            id="bandit-archer",
            name="Bandit archer",
            role=Role.TEMPLATE,
            side=Side.OPPONENT,
            weapon_range=6,
        ),
        Character(id="river-serpent", name="River serpent", role=Role.TEMPLATE, side=Side.OPPONENT),
    ]
    return Campaign(name="The river", characters=tuple(chars))


def test_roster_parts_by_role():
    camp = roster()
    assert [c.name for c in camp.band] == list(BAND)
    assert [c.name for c in camp.recurring] == ["Captain Ilse"]
    assert [c.name for c in camp.bestiary] == ["Bandit", "Bandit archer", "River serpent"]


def test_edits_are_undoable_steps_and_refusals_change_nothing():
    h = CampaignHistory(Campaign())
    heard = []
    h.subscribe(lambda e: heard.append(e.change))
    h.push(PutCharacter(Character(id="huang", name="Huang", role=Role.BAND)))
    h.push(PutCharacter(Character(id="chen", name="Chen", role=Role.BAND)))
    assert [c.id for c in h.campaign.band] == ["huang", "chen"]
    with pytest.raises(IllegalOp, match="band already has a character called 'huang'"):
        h.push(PutCharacter(Character(id="other", name="huang", role=Role.BAND)))
    with pytest.raises(IllegalOp, match="grit, hits"):
        h.push(PutCharacter(Character(id="x", name="X", role=Role.BAND, hits=-1)))
    assert h.index == 2
    h.undo()
    assert [c.id for c in h.campaign.band] == ["huang"]
    h.redo()
    assert [c.id for c in h.campaign.band] == ["huang", "chen"]
    h.push(RemoveCharacter("huang"))
    assert [c.id for c in h.campaign.band] == ["chen"]
    assert heard == [Change.DO, Change.DO, Change.UNDO, Change.REDO, Change.DO]
    assert h.campaign.log[-1].text == "Huang leaves the roster"


def test_band_and_recurring_join_as_links_templates_as_numbered_copies():
    camp = roster()
    enc = Encounter()
    enc.apply(add_link(enc, camp.character("huang")))
    enc.apply(add_link(enc, camp.character("captain-ilse")))
    with pytest.raises(IllegalOp, match="already in this encounter"):
        add_link(enc, camp.character("huang"))
    twin = enc.combatant("huang").replace(id="huang-again")
    with pytest.raises(IllegalOp, match="already this campaign character"):
        enc.apply(AddCombatant(twin))
    with pytest.raises(IllegalOp, match="add copies"):
        add_link(enc, camp.character("bandit"))
    for op in add_copies(enc, camp.character("bandit"), 4, one_group=True):
        enc.apply(op)
    names = [c.name for c in enc.roster()]
    assert names == ["Huang", "Captain Ilse", "Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]
    assert enc.combatant("huang").link == "huang"
    bandits = [c for c in enc.roster() if c.name.startswith("Bandit")]
    assert {c.link for c in bandits} == {""}, "copies belong to this encounter alone"
    assert {c.grit for c in bandits} == {2}
    assert len({c.group for c in bandits}) == 1, "one reflex group (E2)"
    # More of them later: numbering goes on; as separate groups each acts on its own card.
    more = add_copies(enc, camp.character("bandit"), 2)
    assert [op.combatant.name for op in more] == ["Bandit 5", "Bandit 6"]
    assert len({op.combatant.group for op in more}) == 2


def test_copy_names_count_on_from_the_highest():
    assert copy_names("Bandit", 2, ["Bandit 3", "bandit  7", "Bandit archer 9"]) == [
        "Bandit 8",
        "Bandit 9",
    ]
    with pytest.raises(IllegalOp, match="between 1 and 99"):
        copy_names("Bandit", 0, [])


def _played(camp: Campaign) -> Encounter:
    """A prepared encounter with Huang and Chen, run and fought: Huang loses 2 grit, takes a
    hit, spends a Shift, is exhausted (E15) and ends down, crouched and with a marker."""
    enc = Encounter()
    enc.apply(add_link(enc, camp.character("huang")))
    enc.apply(add_link(enc, camp.character("chen")))
    for op in add_copies(enc, camp.character("bandit"), 2):
        enc.apply(op)
    run = Encounter.from_state(running_copy(enc.state(), camp))
    run.apply(AdjustCounter("huang", "grit", -2))
    run.apply(AdjustCounter("huang", "hits", 1))
    run.apply(AdjustCounter("huang", "shifts", -1))
    run.apply(AddState("huang", StateKind.EXHAUSTED))
    run.apply(AddState("huang", StateKind.WOUNDED, markers=2))
    for kind in (StateKind.DOWN, StateKind.CROUCHED, StateKind.HIDDEN, StateKind.PREPARED):
        run.apply(AddState("huang", kind))
    huang = run.combatant("huang")
    run.apply(
        EditCombatant(
            huang.replace(momentum=(MomentumMarker(2),), economy=Economy(snaps=1, action=True))
        )
    )
    run.apply(AdjustCounter("bandit-1", "grit", -2))
    return run


def test_carry_over_lists_what_lasts_and_never_the_fight():
    camp = roster()
    run = _played(camp)
    lines = carry_over(camp, run.roster())
    said = {(ln.character, ln.field): (ln.before, ln.after, ln.carry) for ln in lines}
    assert said == {
        ("huang", "grit"): (3, 1, True),
        ("huang", "hits"): (0, 1, True),
        ("huang", "shifts"): (3, 2, True),
        ("huang", "exhausted"): (ABSENT, 0, True),
        ("huang", "wounded"): (ABSENT, 2, True),
    }
    kinds = {StateKind.DOWN, StateKind.PREPARED, StateKind.CROUCHED, StateKind.HIDDEN}
    assert kinds | ECONOMY_STATES <= NEVER_CARRIED
    assert lines[0].words("Huang") == "Huang: Grit 3 \u2192 1"


def test_carry_over_is_one_undoable_step_with_the_gms_say():
    camp = roster()
    h = CampaignHistory(camp)
    h.push(PutEncounter(Planned(id="ford", title="The ford", file="ford.afenc")))
    with pytest.raises(IllegalOp, match="has not been run"):
        h.push(CarryOver("ford", ()))
    h.push(StartRun("ford", running="ford.running.afenc", when="2026-11-23T20:00:00"))
    assert h.campaign.last_running == "ford"
    run = _played(h.campaign)
    lines = carry_over(h.campaign, run.roster())
    # The GM keeps Huang's Shift and says no to the wound.
    lines = [
        ln if ln.field != "wounded" else CarryLine(**{**_fields(ln), "carry": False})
        for ln in lines
    ]
    h.push(FinishRun("ford"))
    assert h.campaign.last_running == ""
    h.push(CarryOver("ford", tuple(lines)))
    huang = h.campaign.character("huang")
    assert (huang.grit, huang.hits, huang.shifts) == (1, 1, 2)
    assert [s.kind for s in huang.states] == [StateKind.EXHAUSTED]
    assert h.campaign.encounter("ford").carried
    assert "Carry over from The ford (4 changes)" in h.campaign.log[-1].text
    with pytest.raises(IllegalOp, match="already on the roster"):
        h.push(CarryOver("ford", tuple(lines)))
    h.undo()
    assert h.campaign.character("huang") == camp.character("huang")


def _fields(line: CarryLine) -> dict:
    return {f: getattr(line, f) for f in line.__struct_fields__}


def test_running_copy_brings_the_band_as_the_roster_has_them():
    camp = roster()
    prepared = Encounter()
    prepared.apply(add_link(prepared, camp.character("huang")))
    prepared.apply(AddState("huang", StateKind.HIDDEN))
    tired = camp.character("huang").replace(
        grit=1, hits=2, shifts=1, days_since_rest=3, states=(State(StateKind.EXHAUSTED),)
    )
    camp = camp.replace(
        characters=tuple(tired if c.id == "huang" else c for c in camp.characters),
        referee_shifts=1,
    )
    state = running_copy(prepared.state(), camp)
    huang = state.combatants[0]
    assert (huang.grit, huang.hits, huang.shifts, huang.days_since_rest) == (1, 2, 1, 3)
    assert {s.kind for s in huang.states} == {StateKind.EXHAUSTED, StateKind.HIDDEN}
    assert state.meta.referee_shifts == 1
    assert prepared.combatant("huang").grit == 3, "the prepared encounter is untouched"


def test_persevere_reads_each_characters_days_since_rest():
    from afdesk.encounter import persevere

    camp = roster()
    enc = Encounter()
    enc.apply(add_link(enc, camp.character("huang")))
    enc.apply(add_link(enc, camp.character("chen")))
    enc.apply(EditCombatant(enc.combatant("huang").replace(days_since_rest=4)))
    days = {p.id: p.days for p in persevere.plan(enc)}
    assert days == {"huang": 4, "chen": 0}


def test_new_session_gives_three_shifts_back_r10():
    camp = roster()
    spent = tuple(c.replace(shifts=0) for c in camp.characters)
    h = CampaignHistory(camp.replace(characters=spent, referee_shifts=0))
    h.push(StartSession())
    assert {c.shifts for c in h.campaign.characters if c.role.linked} == {3}
    assert {c.shifts for c in h.campaign.bestiary} == {0}, "templates are not characters"
    assert (h.campaign.session, h.campaign.referee_shifts) == (2, 3)
    assert "Session 2 starts" in h.campaign.log[-1].text
    h.undo()
    assert (h.campaign.session, h.campaign.referee_shifts) == (1, 0)


def test_runs_keep_the_prepared_file_and_refuse_twice():
    h = CampaignHistory(Campaign())
    h.push(PutEncounter(Planned(id="ford", title="The ford", file="ford.afenc")))
    with pytest.raises(IllegalOp, match="never from its prepared file"):
        h.push(StartRun("ford", running="ford.afenc", when=""))
    h.push(StartRun("ford", running="ford.run1.afenc", when="t"))
    with pytest.raises(IllegalOp, match="already running"):
        h.push(StartRun("ford", running="ford.run2.afenc", when="t"))
    e = h.campaign.encounter("ford")
    assert (e.play, e.runs, e.file) == (Play.RUNNING, 1, "ford.afenc")


def test_import_merges_by_name_and_keeps_ids():
    camp = roster()
    bandit = camp.character("bandit").replace(id="whatever", grit=4, grit_max=4)
    new = Character(id="huang", name="Wolf", role=Role.TEMPLATE, side=Side.OPPONENT)
    edits = merge(camp, [bandit, new, bandit])
    assert [e.character.id for e in edits] == ["bandit", "wolf"]
    h = CampaignHistory(camp)
    h.push(edits)
    assert h.campaign.character("bandit").grit == 4
    assert h.campaign.character("wolf").name == "Wolf"
    assert merge(h.campaign, [h.campaign.character("bandit")]) == [], "nothing new"


def test_carry_over_keeps_the_referees_pool_for_the_session_r10():
    h = CampaignHistory(roster())
    h.push(PutEncounter(Planned(id="ford", title="The ford", file="ford.afenc")))
    h.push(StartRun("ford", running="ford.run1.afenc", when="t"))
    h.push([FinishRun("ford"), CarryOver("ford", (), referee_shifts=1)])
    assert h.campaign.referee_shifts == 1
    assert h.campaign.log[-1].text.endswith("(1 change): referee's Shifts 3 \u2192 1")
    h.undo()
    with pytest.raises(IllegalOp, match="cannot be negative"):
        h.push([FinishRun("ford"), CarryOver("ford", (), referee_shifts=-1)])
    assert h.campaign.referee_shifts == 3


def test_a_finished_encounter_runs_again_another_night():
    h = CampaignHistory(Campaign())
    h.push(PutEncounter(Planned(id="ford", title="The ford", file="ford.afenc")))
    h.push(StartRun("ford", running="ford.run1.afenc", when="t1"))
    h.push([FinishRun("ford"), CarryOver("ford", ())])
    h.push(StartRun("ford", running="ford.run2.afenc", when="t2"))
    e = h.campaign.encounter("ford")
    assert (e.play, e.running, e.runs, e.carried, e.last_played) == (
        Play.RUNNING,
        "ford.run2.afenc",
        2,
        False,
        "t2",
    )
    assert e.file == "ford.afenc"
