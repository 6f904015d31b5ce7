"""Carry-over proposes only what changed during the run (R10: a new session while it ran is
not undone), keeps the notes of lasting states (E17), and is refused for an encounter still
in setup."""

from __future__ import annotations

import pytest

from afdesk.encounter.campaign.build import add_link, running_copy
from afdesk.encounter.campaign.carry import (
    ABSENT,
    carry_over,
    carry_refusal,
    referee_proposal,
)
from afdesk.encounter.campaign.edits import (
    CarryOver,
    FinishRun,
    PutCharacter,
    PutEncounter,
    StartRun,
    StartSession,
)
from afdesk.encounter.campaign.history import CampaignHistory
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.campaign.state import Campaign, Planned
from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.roster import AddState, AdjustCounter, EditCombatant
from afdesk.encounter.state import Phase, TurnState


def _running(shifts: int = 2, referee: int = 2) -> tuple[CampaignHistory, Encounter]:
    """Session 1, Chen has spent a Shift and the referee one: the ford is run."""
    chen = Character(id="chen", name="Chen", role=Role.BAND, shifts=shifts)
    h = CampaignHistory(Campaign(characters=(chen,), referee_shifts=referee))
    h.push(PutEncounter(Planned(id="ford", title="The ford", file="ford.afenc")))
    prepared = Encounter()
    prepared.apply(add_link(prepared, chen))
    run = Encounter.from_state(running_copy(prepared.state(), h.campaign))
    h.push(StartRun("ford", running="ford.run1.afenc", when="t", linked=("chen",)))
    return h, run


def test_a_new_session_while_it_runs_is_not_undone_r10():
    h, run = _running()
    h.push(StartSession())
    assert h.campaign.character("chen").shifts == 3
    assert run.combatant("chen").shifts == 2, "the running copy keeps what it started with"
    planned = h.campaign.encounter("ford")
    assert carry_over(h.campaign, run.roster(), planned) == []
    assert referee_proposal(h.campaign, planned, run.meta.referee_shifts) is None
    # What the old comparison with the roster proposed, and the GM would have ticked:
    wrong = carry_over(h.campaign, run.roster())
    assert [(ln.field, ln.before, ln.after, ln.carry) for ln in wrong] == [("shifts", 3, 2, True)]


def test_what_the_run_spent_comes_off_the_new_sessions_shifts_r10():
    h, run = _running()
    h.push(StartSession())
    run.apply(AdjustCounter("chen", "shifts", -1))
    planned = h.campaign.encounter("ford")
    lines = carry_over(h.campaign, run.roster(), planned)
    assert [(ln.field, ln.before, ln.after) for ln in lines] == [("shifts", 3, 2)]
    assert referee_proposal(h.campaign, planned, 1) == 2, "the referee spent one of 2"
    h.push(
        [
            FinishRun("ford"),
            CarryOver("ford", tuple(lines), referee_proposal(h.campaign, planned, 1)),
        ]
    )
    assert (h.campaign.character("chen").shifts, h.campaign.referee_shifts) == (2, 2)


def test_without_a_new_session_the_run_carries_as_before():
    h, run = _running(shifts=3, referee=3)
    run.apply(AdjustCounter("chen", "shifts", -1))
    run.apply(AdjustCounter("chen", "grit", -2))
    planned = h.campaign.encounter("ford")
    said = [(ln.field, ln.before, ln.after) for ln in carry_over(h.campaign, run.roster(), planned)]
    assert said == [("grit", 3, 1), ("shifts", 3, 2)]
    assert referee_proposal(h.campaign, planned, 3) is None
    assert referee_proposal(h.campaign, planned, 0) == 0


def test_a_lasting_state_comes_back_with_its_note_e17():
    h, run = _running()
    run.apply(AddState("chen", StateKind.WOUNDED, 2, "arrow in the shoulder"))
    planned = h.campaign.encounter("ford")
    lines = carry_over(h.campaign, run.roster(), planned)
    assert [(ln.field, ln.before, ln.after, ln.note) for ln in lines] == [
        ("wounded", ABSENT, 2, "arrow in the shoulder")
    ]
    assert lines[0].words("Chen") == "Chen: becomes wounded (2) - arrow in the shoulder"
    h.push([FinishRun("ford"), CarryOver("ford", tuple(lines))])
    assert h.campaign.character("chen").states == (
        State(StateKind.WOUNDED, markers=2, note="arrow in the shoulder"),
    )
    assert "wounded (2) - arrow in the shoulder" in h.campaign.log[-1].text


def test_a_new_note_on_a_lasting_state_is_a_change_and_an_old_one_stays():
    wounded = State(StateKind.WOUNDED, markers=2, note="arrow in the shoulder")
    chen = Character(id="chen", name="Chen", role=Role.BAND, states=(wounded,))
    h = CampaignHistory(Campaign(characters=(chen,)))
    h.push(PutEncounter(Planned(id="ford", title="The ford", file="ford.afenc")))
    prepared = Encounter()
    prepared.apply(add_link(prepared, chen))
    run = Encounter.from_state(running_copy(prepared.state(), h.campaign))
    assert run.combatant("chen").states == (wounded,), "Run brings the note"
    h.push(StartRun("ford", running="ford.run1.afenc", when="t", linked=("chen",)))
    planned = h.campaign.encounter("ford")
    assert carry_over(h.campaign, run.roster(), planned) == [], "an unchanged note is no line"
    c = run.combatant("chen")
    bandaged = State(StateKind.WOUNDED, markers=2, note="bandaged")
    run.apply(EditCombatant(c.replace(states=(bandaged,))))
    lines = carry_over(h.campaign, run.roster(), planned)
    assert [(ln.field, ln.before, ln.after, ln.note) for ln in lines] == [
        ("wounded", 2, 2, "bandaged")
    ]
    assert lines[0].words("Chen") == "Chen: wounded 2 \u2192 2 - bandaged"


def test_no_carry_over_for_an_encounter_still_in_setup():
    assert "still in setup" in carry_refusal("The ford", TurnState())
    for phase in Phase:
        if phase is not Phase.SETUP:
            assert carry_refusal("The ford", TurnState(phase=phase)) == ""


@pytest.mark.parametrize("field", ["at_run", "referee_at_run"])
def test_startrun_keeps_the_roster_it_ran_from_and_undo_forgets_it(field):
    h, _run = _running()
    e = h.campaign.encounter("ford")
    assert e.at_run == h.campaign.characters and e.referee_at_run == 2
    assert e.at_run[0].shifts == 2
    h.undo()
    assert getattr(h.campaign.encounter("ford"), field) in ((), None)


def test_a_character_added_to_the_running_copy_later_is_compared_with_the_roster():
    """Huang joins the ford after a new session (Add from the roster): his copy started
    with the roster's 3 Shifts, so keeping 3 is no change (R10)."""
    h, run = _running()
    huang = Character(id="huang", name="Huang", role=Role.BAND, shifts=1)
    h.push(PutCharacter(huang))
    h.push(StartSession())
    run.apply(add_link(run, h.campaign.character("huang")))
    planned = h.campaign.encounter("ford")
    assert [c.id for c in planned.at_run] == ["chen"]
    assert carry_over(h.campaign, run.roster(), planned) == []
    run.apply(AdjustCounter("huang", "shifts", -1))
    said = [
        (ln.character, ln.field, ln.before, ln.after)
        for ln in carry_over(h.campaign, run.roster(), planned)
    ]
    assert said == [("huang", "shifts", 3, 2)]
