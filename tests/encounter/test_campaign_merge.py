"""Importing a bestiary asks about same-name entries: update, skip or keep both, per entry
(the merge is pure; the dialog is tests/gui/test_campaign_import.py)."""

from __future__ import annotations

import pytest

from afdesk.encounter.campaign.history import CampaignHistory
from afdesk.encounter.campaign.merge import Choice, conflicts, merge
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.combatant import Side
from afdesk.encounter.errors import IllegalOp


def _beast(cid: str, name: str, grit: int, **kw) -> Character:
    return Character(
        id=cid, name=name, role=Role.TEMPLATE, side=Side.OPPONENT, grit=grit, grit_max=9, **kw
    )


LOCAL = Campaign(
    name="The Jade Road",
    characters=(
        Character(id="mei", name="Mei", role=Role.BAND),
        _beast("bandit", "Bandit", 9),
        _beast("wolf", "Wolf", 2),
    ),
)
FILE = [_beast("b1", "bandit", 7), _beast("w1", "Wolf", 2), _beast("tiger", "Tiger", 5)]


def test_conflicts_list_each_same_name_entry_with_what_differs():
    found = conflicts(LOCAL, FILE)
    assert [c.name for c in found] == ["Bandit"], "the Wolf is the same: no conflict"
    (bandit,) = found
    assert bandit.local.grit == 9 and bandit.incoming.grit == 7
    assert bandit.differences == (
        "name: Bandit here, bandit in the file",
        "grit: 9 here, 7 in the file",
    )


def test_a_conflict_without_a_choice_is_refused_and_nothing_is_made():
    with pytest.raises(IllegalOp, match="Bandit: choose to update, skip or keep both"):
        merge(LOCAL, FILE, {})


@pytest.mark.parametrize(
    ("choice", "bandits"),
    [
        (Choice.UPDATE, [("bandit", "bandit", 7)]),
        (Choice.SKIP, [("bandit", "Bandit", 9)]),
        (Choice.KEEP_BOTH, [("bandit", "Bandit", 9), ("b1", "bandit 2", 7)]),
    ],
)
def test_each_choice_is_one_undoable_step(choice, bandits):
    h = CampaignHistory(LOCAL)
    edits = merge(LOCAL, FILE, {"Bandit": choice})
    h.push(edits, "Import bestiary.afchars")
    got = [(c.id, c.name, c.grit) for c in h.campaign.bestiary if "bandit" in c.name.lower()]
    assert got == bandits
    assert h.campaign.find("tiger") is not None, "a new entry joins whatever the choices"
    assert [c.name for c in h.campaign.bestiary].count("Wolf") == 1
    h.undo()
    assert h.campaign == LOCAL, "one step: undo gives the roster back as it was"


def test_keep_both_finds_a_free_name_and_id():
    camp = LOCAL.replace(characters=(*LOCAL.characters, _beast("bandit-2", "Bandit 2", 3)))
    (edit,) = merge(camp, [_beast("bandit", "Bandit", 4)], {"Bandit": Choice.KEEP_BOTH})
    assert (edit.character.id, edit.character.name) == ("bandit-3", "Bandit 3")


def test_without_choices_a_script_import_updates_as_before():
    (edit, tiger) = [e for e in merge(LOCAL, FILE) if e.character.name != "Wolf"]
    assert (edit.character.id, edit.character.grit) == ("bandit", 7)
    assert tiger.character.id == "tiger"
