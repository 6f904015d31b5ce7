"""The check dialog's retries: the Shifts panel retries the dice the spender picks (R10),
and either roller may retry its 6s for Momentum (R3); each button shows the exact odds of
the choice made."""

from __future__ import annotations

import pytest

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.gui.text import pct
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from tests.gui.odds_wait import settled_odds


@pytest.fixture
def dialog(playing_doc, qtbot, request):
    enc = playing_doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    ruleset = getattr(request, "param", None)
    if ruleset:
        enc.apply(SetRuleset(ruleset))
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    return dlg


def losing_fours(dlg):
    """Huang's check shows only 4s; Gao's dodge a 5 and Fails: the 5 stops it (R9)."""
    dice, intf = dlg.flow.attack_pools()
    assert dice >= 2 and intf == 0
    dlg.source = ScriptedSource([4] * dice)
    dlg.dice.roll_check()
    dlg.defense.choose("dodge")
    d_dice, d_intf = dlg.flow.defense_pools(0)
    dlg.source = ScriptedSource([5] + [1] * (d_dice - 1 + d_intf))
    dlg.dice.roll_opposition()
    assert dlg.flow.verdict_now().stopped
    assert dlg.flow.shift_exchange.turn is Role.ATTACKER
    return dice


def test_R10_the_shifts_panel_retries_the_dice_picked_with_their_odds(dialog, qtbot):
    dlg = dialog
    dice = losing_fours(dlg)
    shifts = dlg.shifts
    retry = shifts.button_for("retry")
    assert list(shifts.retry_pick.boxes) == list(range(dice))  # every die, Wins included
    # No Fail: every die below Gao's 5 is chosen at first.
    assert shifts.retry_pick.chosen() == tuple(range(dice))
    shifts.choose_retry(())
    assert not retry.isEnabled() and "Choose the dice" in retry.toolTip()
    assert shifts.all_below.isEnabled() and "5" in shifts.all_below.text()
    shifts.all_below.click()
    assert shifts.retry_pick.chosen() == tuple(range(dice))  # every 4 is below the 5
    shifts.choose_retry((0,))
    settled_odds(qtbot, dlg)
    one = dlg.flow.shift_choices(Role.ATTACKER, retry=(0,))["retry"]
    assert retry.isEnabled() and f"lands {pct(one.p_attack_lands)}" in retry.text()
    shifts.retry_pick.boxes[1].setChecked(True)  # the odds follow the choice
    settled_odds(qtbot, dlg)
    two = dlg.flow.shift_choices(Role.ATTACKER, retry=(0, 1))["retry"]
    assert two.p_attack_lands > one.p_attack_lands
    assert f"lands {pct(two.p_attack_lands)}" in retry.text()
    shifts.retry_pick.boxes[1].setChecked(False)
    dlg.source = ScriptedSource([6])
    retry.click()
    assert dlg.flow.attack.check_faces[0] == 6 and dlg.flow.attack.dice[0].retried_from == 4
    assert dlg.flow.spends[-1].kind == "retry" and dlg.flow.spends[-1].indices == (0,)
    assert not dlg.flow.verdict_now().stopped
    assert 0 not in shifts.retry_pick.boxes  # retried once (R3)


def test_R10_all_fails_is_a_quick_choice(dialog, qtbot):
    dlg = dialog
    dice, _ = dlg.flow.attack_pools()
    dlg.source = ScriptedSource([5, 2] + [1] * (dice - 2))
    dlg.dice.roll_check()
    shifts = dlg.shifts
    fails = tuple(range(1, dice))
    assert shifts.retry_pick.chosen() == fails  # the default, as before
    shifts.choose_retry(())
    shifts.all_fails.click()
    assert shifts.retry_pick.chosen() == fails
    assert not shifts.all_below.isEnabled()  # no defense Result yet
    shifts.choose_retry((0,))  # the 5, a Win
    settled_odds(qtbot, dlg)
    dlg.source = ScriptedSource([4])
    shifts.spend("retry")
    assert dlg.flow.attack.check_faces[0] == 4 and dlg.flow.spends[-1].indices == (0,)


def test_R3_the_sixes_panel_retries_a_6_for_momentum(dialog, qtbot):
    dlg = dialog
    dice, _ = dlg.flow.attack_pools()
    dlg.source = ScriptedSource([6, 6, 5] + [1] * (dice - 1))  # one die: 6 -> 6 -> 5
    sixes = dlg.sixes
    assert not sixes.box.isEnabled()  # nothing rolled
    dlg.dice.roll_check()
    assert not sixes.box.isHidden() and sixes.box.isEnabled()
    before = dlg.flow.verdict_now().attack
    assert (before.result, before.gain, before.momentum) == (6, 2, 0)
    assert list(sixes.pick.boxes) == [0, 1]
    assert not sixes.retry.isEnabled() and "Choose the 6s" in sixes.retry.toolTip()
    sixes.choose((1,))
    settled_odds(qtbot, dlg)
    exact = dlg.flow.six_retry_query(Role.ATTACKER, (1,))()
    assert sixes.retry.isEnabled()
    assert f"lands {pct(exact.p_attack_lands)}" in sixes.retry.text()
    assert f"Momentum {exact.attacker_expected_momentum:.2f}" in sixes.retry.text()
    shifts = dlg.flow.shifts_left(Role.ATTACKER)
    dlg.source = ScriptedSource([5])
    sixes.retry.click()
    after = dlg.flow.verdict_now().attack
    assert (after.result, after.gain, after.momentum) == (6, 1, 1)
    assert len(dlg.flow.attack.dice) == dice + 2  # no new die for the retried 6
    assert dlg.flow.shifts_left(Role.ATTACKER) == shifts and not dlg.flow.spends  # free
    assert list(sixes.pick.boxes) == [0]
    assert dlg.momentum.can_spend()


def test_R3_the_defender_retries_its_own_6s(dialog, qtbot):
    dlg = dialog
    dice, _ = dlg.flow.attack_pools()
    dlg.source = ScriptedSource([5] + [1] * (dice - 1))
    dlg.dice.roll_check()
    dlg.defense.choose("dodge")
    d_dice, d_intf = dlg.flow.defense_pools(0)
    dlg.source = ScriptedSource([6, 4] + [1] * (d_dice - 1 + d_intf))
    dlg.dice.roll_opposition()
    sixes = dlg.sixes
    sixes.choose_roll(Role.DEFENDER)
    assert list(sixes.pick.boxes) == [0]
    sixes.choose((0,))
    settled_odds(qtbot, dlg)
    assert "stopped" in sixes.retry.text()
    dlg.source = ScriptedSource([2])
    sixes.retry_chosen()
    assert dlg.flow.defense_roll.check_faces[0] == 2
    assert dlg.flow.defense_roll.dice[0].retry_reason == "six"
    assert dlg.flow.attack.check_faces[0] == 5  # the attack is untouched


@pytest.mark.parametrize("dialog", ["af-classic"], indirect=True)
def test_R3_no_retry_of_6s_where_the_ruleset_has_none(dialog):
    dlg = dialog
    dice, _ = dlg.flow.attack_pools()
    dlg.source = ScriptedSource([6, 4] + [1] * (dice - 1))
    dlg.dice.roll_check()
    assert dlg.sixes.box.isHidden()


def test_R3_physical_dice_for_the_retried_6s(dialog):
    dlg = dialog
    dice, _ = dlg.flow.attack_pools()
    dlg.source = ScriptedSource([6, 4] + [1] * (dice - 1))
    dlg.dice.roll_check()
    sixes = dlg.sixes
    sixes.choose((0,))
    sixes.faces.type_faces("5 5")  # one 6 chosen, two faces typed
    sixes.retry_chosen()
    assert "Physical dice for the retry of 6s: 2 faces typed" in dlg.reason.text()
    assert dlg.flow.attack.check_faces[0] == 6  # refused: nothing changed
    sixes.faces.type_faces("3")
    sixes.retry_chosen()
    assert dlg.flow.attack.check_faces[0] == 3 and dlg.flow.attack.dice[0].retried_from == 6
    sixes.faces.box.setChecked(False)
