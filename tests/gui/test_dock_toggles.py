"""The Character dock's Defend, Screen and Hesitate toggles: switched off they take the
action back whole (TakeBack, E6/E7), so a double click never leaves an impossible turn."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.economy import SetEconomy
from tests.gui.conftest import character_panel


@pytest.fixture
def panel(playing_doc, qtbot):
    p = character_panel(playing_doc, qtbot)
    playing_doc.select(playing_doc.encounter.actor)
    return p


def test_double_clicking_defend_gives_back_the_whole_turn(panel):
    doc = panel.ctx.doc
    who = doc.encounter.actor
    before = doc.encounter.combatants[who]
    panel.defend.click()
    c = doc.encounter.combatants[who]
    assert c.has(StateKind.DEFENDING) and c.economy.guards == before.economy.guards + 1
    assert panel.defend.isChecked()
    panel.defend.click()  # the second click of a double click
    after = doc.encounter.combatants[who]
    assert not after.has(StateKind.DEFENDING)
    assert after.economy.action and after.economy.guards == before.economy.guards
    assert not panel.defend.isChecked()
    assert "takes back the Defend" in doc.encounter.log[-1].text
    doc.undo()  # the take-back is one undo step: the Defend is back
    assert doc.encounter.combatants[who].has(StateKind.DEFENDING)


def test_defend_off_after_the_guard_is_used_is_refused_beside_the_toggle(panel):
    doc = panel.ctx.doc
    who = doc.encounter.actor
    panel.defend.click()
    e = doc.encounter.combatants[who].economy
    doc.push(SetEconomy(who, msgspec.structs.replace(e, guards=0)))
    before = doc.encounter.state()
    panel.defend.click()
    assert doc.encounter.state() == before
    assert panel.defend.isChecked()  # the refused click does not leave it flipped
    assert "(E4, E6)" in panel.refusal.text()


def test_screen_toggled_twice_on_own_turn_gives_the_action_back(panel):
    doc = panel.ctx.doc
    who = doc.encounter.actor
    panel.screen_toggle.click()
    assert not doc.encounter.combatants[who].economy.action
    panel.screen_toggle.click()
    c = doc.encounter.combatants[who]
    assert c.economy.action and not c.has(StateKind.SCREENING)
