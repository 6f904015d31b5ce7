"""Issue 12 §4 and §5: the rough edges a GM hit playing a full exchange, each driven
through the window or its dialogs as a GM would."""

from __future__ import annotations

import pytest

from afdesk.encounter.contest import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.dice import ScriptedSource


@pytest.fixture
def duel(playing_doc):
    """Huang's turn, Gao one area north of her."""
    enc = playing_doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    return EncounterDocument(enc, journal_factory=lambda d: None)


@pytest.mark.parametrize("kind", [CheckKind.CHECK, CheckKind.HUSTLE, CheckKind.HIDE])
def test_pass_without_an_opponent_ends_the_shifts(duel, qtbot, kind):
    """R10: with no opposition there is no other side to answer; the attacker's pass ends
    the Shifts (it printed "there is no character with id ''")."""
    dlg = ContestDialog(duel, "huang", kind)
    qtbot.addWidget(dlg)
    refusals: list[str] = []
    dlg.shifts.refused.connect(refusals.append)
    dlg.source = ScriptedSource([5, 4, 1, 1, 1, 1])
    dlg.dice.roll_check()
    assert dlg.flow.rolled, dlg.reason.text()
    assert dlg.shifts.box.isEnabled()
    dlg.shifts.pass_button.click()
    assert refusals == []
    assert dlg.flow.shift_exchange.done
    assert "satisfied" in dlg.shifts.turn.text() and not dlg.shifts.box.isEnabled()
