"""The check dialog's panels under each ruleset: what they show comes from the ruleset's
capabilities and the flow, never from its name."""

from __future__ import annotations

import pytest

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.roster import AdjustCounter, PlaceCombatant
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.dice import ScriptedSource
from tests.gui.odds_wait import settled_odds


def _duel(playing_doc, ruleset: str | None = None) -> EncounterDocument:
    enc = playing_doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    if ruleset:
        enc.apply(SetRuleset(ruleset))
    return EncounterDocument(enc, journal_factory=lambda d: None)


@pytest.fixture
def dialog(playing_doc, qtbot, request):
    doc = _duel(playing_doc, getattr(request, "param", None))
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    return dlg


@pytest.mark.parametrize("dialog", ["af-classic"], indirect=True)
def test_classic_spends_will(dialog, qtbot):
    dlg = dialog
    assert not dlg.options.ventures.isHidden() and dlg.options.ventures.maximum() == 3  # C3
    dlg.defense.choose("dodge")
    dlg.source = ScriptedSource([5, 4, 2])
    dlg.dice.roll_check()
    assert dlg.shifts.box.isEnabled()
    will = dlg.shifts.button_for("will")
    settled_odds(qtbot, dlg)
    assert will.text().startswith("&Will: +2 dice") and "lands" in will.text()
    assert dlg.shifts.buttons[1].isHidden()  # no retry in af-classic
    assert "0 Will left" in dlg.shifts.turn.text()  # Huang has no Will (C4)
    assert not will.isEnabled() and "No Will left for the attacker" in will.toolTip()
    dlg.doc.push(AdjustCounter("huang", "will", 1))
    dlg.shifts.refresh()
    assert will.isEnabled() and "1 Will left" in dlg.shifts.turn.text()
    dlg.source = ScriptedSource([6, 1, 3])
    dlg.shifts.spend("will")
    assert dlg.flow.spends[-1].kind == "will" and dlg.flow.attack.check_faces[-3:] == (6, 1, 3)


@pytest.mark.parametrize("dialog", ["d20-degrees"], indirect=True)
def test_d20_shows_keywords_and_no_pools(dialog):
    dlg = dialog
    assert set(dlg.options.keyword_boxes) == {
        "risk",
        "assurance",
        "ease",
        "difficulty",
        "determination",
    }
    assert dlg.options.ventures.isHidden() and dlg.options.advantage.isHidden()
    assert dlg.options.pool_text().startswith("d20 + ")
    assert "TN and F are its defense" in dlg.defense.note() and not dlg.defense.options()
    dlg.options.keyword_boxes["ease"].setChecked(True)
    assert dlg.flow.keywords == ("ease",)
    dlg.source = ScriptedSource([10])
    dlg.dice.roll_check()
    assert not dlg.dice.roll_defense.isEnabled() and not dlg.shifts.box.isEnabled()
    assert "Roll first" in dlg.momentum.summary() and not dlg.momentum.can_spend()


def test_af254_offers_add_and_retry_with_their_odds(dialog, qtbot):
    dlg = dialog
    assert not dlg.options.keyword_boxes
    dlg.source = ScriptedSource([5, 1, 2])
    dlg.dice.roll_check()
    add, retry = dlg.shifts.button_for("add"), dlg.shifts.button_for("retry")
    settled_odds(qtbot, dialog)
    assert "lands" in add.text() and "lands" in retry.text()
    assert add.isEnabled() and retry.isEnabled()
    assert dlg.shifts.retry_pick.chosen() == (1, 2)  # all Fails chosen by default (R10)
    dlg.source = ScriptedSource([1, 1])
    dlg.shifts.spend("retry")
    assert dlg.flow.spends[-1].indices == (1, 2)
    # The 5 may still be retried (R10: any dice not yet retried), once chosen.
    assert list(dlg.shifts.retry_pick.boxes) == [0] and not dlg.shifts.retry_pick.chosen()
    assert not dlg.shifts.button_for("retry").isEnabled()
    assert "Choose the dice to retry" in dlg.shifts.button_for("retry").toolTip()
    dlg.shifts.pass_turn()
    assert "defender" in dlg.shifts.turn.text() and "referee's pool" in dlg.shifts.turn.text()


def test_a_refused_choice_shows_the_models_reason(dialog):
    dlg = dialog
    dlg.modifiers.add_gm("Nothing", 0)
    assert "changes nothing" in dlg.reason.text()
    dlg.source = ScriptedSource([1, 1, 1])
    dlg.dice.roll_check()
    dlg.dice.roll_opposition()
    assert dlg.reason.text() == "Choose a defense first."
