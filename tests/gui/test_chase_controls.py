"""The chase board's controls: head starts, ways and speeds, knock-outs, stages
(picked, prepared, drawn), vehicles and crew, countdowns, special actions and what they
start, the chase check rolled under the encounter's ruleset with Shifts both ways (or typed),
all through the board, by mouse and by keyboard, each an Op that undoes."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt

from afdesk.encounter.chase.ops import RollPursuit, SetStage
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.state import Mode, Phase
from afdesk.gui.chase.check_dialog import ChaseCheckDialog
from afdesk.gui.main_window import MainWindow
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from afdesk.rules.rulesets import SpendKind
from tests.gui.odds_wait import ODDS_MS


@pytest.fixture
def window(qtbot):
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.rng = random.Random(14)
    w.resize(1280, 720)
    w.mode_views.samples[Mode.CHASE].trigger()
    w.show()
    return w


def controls(window):
    return window.mode_views.board(Mode.CHASE).controls


def start_round(doc, seed=1):
    assert not doc.push(deal_hands(doc.encounter, random.Random(seed)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(seed + 100)))


def undo_all_to(doc, state):
    while doc.encounter.state() != state and doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.encounter.state() == state


def test_head_start_way_speed_and_knock_out_by_mouse_and_keyboard(window, qtbot):
    doc, c = window.doc, controls(window)
    start = doc.encounter.state()
    c.tabs.setCurrentWidget(c.participants)
    panel = c.participants
    panel.who.setCurrentIndex(panel.who.findData("mei"))
    panel.total.setFocus()
    panel.total.selectAll()
    qtbot.keyClicks(panel.total, "5")
    panel.way.setCurrentIndex(panel.way.findData("riding"))
    panel.speed.setValue(4)
    qtbot.mouseClick(panel.apply, Qt.MouseButton.LeftButton)
    mei = doc.encounter.chase.participant("mei")
    assert (mei.total, mei.way.value, mei.speed) == (5, "riding", 4)
    assert doc.encounter.log[-1].text == "Mei: total 5, riding (wilderness), speed 4"
    assert window.mode_views.board(Mode.CHASE).lane("mei").data.rank == 1  # now ahead of Huang's 3
    panel.knock.setFocus()
    qtbot.keyClick(panel.knock, Qt.Key.Key_Space)
    assert doc.encounter.chase.participant("mei").out
    assert panel.knock.text() == "&Mark back in"
    qtbot.mouseClick(panel.apply, Qt.MouseButton.LeftButton)
    assert "nothing changed" in c.message.text()
    # Alt+letter reaches the tabs (Sta&ge) and the controls in them
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(panel.knock, Qt.Key.Key_G, Qt.KeyboardModifier.AltModifier)
    assert c.tabs.currentWidget() is c.stage
    undo_all_to(doc, start)


def test_stages_set_prepared_and_drawn(window, qtbot):
    doc, c = window.doc, controls(window)
    start = doc.encounter.state()
    panel = c.stage
    c.tabs.setCurrentWidget(panel)
    box = panel.boxes["chasm"]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    panel.boxes["fluid"].setFocus()
    qtbot.keyClick(panel.boxes["fluid"], Qt.Key.Key_Space)
    qtbot.mouseClick(panel.set_now, Qt.MouseButton.LeftButton)
    assert [p.value for p in doc.encounter.chase.stage] == ["chasm", "fluid"]
    assert doc.encounter.log[-1].text == "Stage: Chasm, Fluid"
    board = window.mode_views.board(Mode.CHASE)
    assert [card.prop.value for card in board._cards] == ["chasm", "fluid"]
    ahead = len(doc.encounter.chase.stages_ahead)
    qtbot.mouseClick(panel.ahead, Qt.MouseButton.LeftButton)
    assert len(doc.encounter.chase.stages_ahead) == ahead + 1
    assert "Chasm, Fluid" in panel.queue.text()
    panel.rng = random.Random(3)
    qtbot.mouseClick(panel.draw, Qt.MouseButton.LeftButton)
    assert len(panel.ticked()) == 1  # no pole yet: one property (H3)
    assert panel.ticked() != ("chasm", "fluid")
    # a pole with margin 2 picks 2: more is refused unless the GM overrides
    chase = doc.encounter.chase
    assert chase.pole == ""
    undo_all_to(doc, start)


def test_the_pole_picks_as_many_as_its_margin(window, qtbot):
    doc, c = window.doc, controls(window)
    start_round(doc)
    enc = doc.encounter
    # play the round: every participant green, success by 2 (typed)
    while enc.turn.phase is Phase.TURNS:
        pid = c.who.currentData()
        p = enc.chase.participant(pid)
        if p is not None and not p.colours and not p.out:
            c.faces.setText("1")
            assert c.do_roll(), c.message.text()
            c.success.setChecked(True)
            c.margin.setValue(2)
            assert c.do_check(), c.message.text()
        window.act_next.trigger()
    assert enc.chase.pole and enc.chase.pole_margin == 2
    panel = c.stage
    panel.tick(("attacking", "dangerous", "flaming"))
    qtbot.mouseClick(panel.set_now, Qt.MouseButton.LeftButton)
    assert "picks 2 stage properties" in c.message.text()
    panel.rng = random.Random(5)
    qtbot.mouseClick(panel.draw, Qt.MouseButton.LeftButton)
    assert len(panel.ticked()) == 2
    qtbot.mouseClick(panel.set_now, Qt.MouseButton.LeftButton)
    assert len(enc.chase.stage) == 2 and c.message.text() == ""


def test_a_vehicle_with_crew_joins_and_each_crew_member_checks(window, qtbot):
    doc, c = window.doc, controls(window)
    panel = c.vehicle
    c.tabs.setCurrentWidget(panel)
    qtbot.mouseClick(panel.add, Qt.MouseButton.LeftButton)
    assert "give it a name" in c.message.text()
    qtbot.keyClicks(panel.name, "Fish cart")
    panel.commander.setCurrentIndex(panel.commander.findData("runner-1"))
    panel.helm.setCurrentIndex(panel.helm.findData("runner-2"))
    panel.set_crew(["mei"])
    qtbot.mouseClick(panel.add, Qt.MouseButton.LeftButton)
    enc = doc.encounter
    v = next(v for v in enc.chase.vehicles if v.name == "Fish cart")
    assert (v.id, v.commander, v.helm, v.crew) == ("fish-cart", "runner-1", "runner-2", ("mei",))
    assert enc.chase.participant("mei") is None and enc.chase.participant("fish-cart")
    assert panel.commander.findData("mei") == -1  # aboard now
    # the cart's turn: the helm's die, a crew member's check (H5)
    start_round(doc, 2)
    for _ in range(12):
        if c.who.currentData() == "fish-cart":
            break
        window.act_next.trigger()
    assert c.who.currentData() == "fish-cart"
    c.faces.setText("2")
    assert c.do_roll(), c.message.text()
    assert not c.crew_check.isHidden() and c.crew_check.isEnabled()
    c.crew.setCurrentIndex(c.crew.findData("mei"))
    c.source = ScriptedSource([1, 2])  # Mei's agility 2: two Fails
    dialog = c.open_crew_check()
    assert isinstance(dialog, ChaseCheckDialog) and dialog.checker == "mei"
    assert dialog.roll_check()
    grit = enc.combatants["mei"].grit
    assert dialog.apply(), dialog.message.text()
    assert enc.combatants["mei"].grit == grit - 1
    assert "Mei (Fish cart's crew) fails by 1" in enc.log[-1].text
    assert c.crew.findData("mei") == -1


def test_countdown_set_and_its_die_rolled_or_typed(window, qtbot):
    doc, c = window.doc, controls(window)
    panel = c.countdown
    c.tabs.setCurrentWidget(panel)
    panel.exchanges.setValue(2)
    qtbot.keyClicks(panel.target, "the temple")
    panel.rows.setChecked(True)
    qtbot.mouseClick(panel.set, Qt.MouseButton.LeftButton)
    cd = doc.encounter.chase.countdown
    assert (cd.exchanges, cd.target, cd.rows) == (2, "the temple", True)
    assert (
        "reach the temple within 2 exchanges" in window.mode_views.board(Mode.CHASE).heading.text()
    )
    panel.faces.setText("9")
    qtbot.mouseClick(panel.roll, Qt.MouseButton.LeftButton)
    assert "Countdown die" in c.message.text() and "1 to 6" in c.message.text()
    assert panel.faces.text() == "9"  # the typing is kept to correct
    panel.faces.setText("6 4")  # red, then blue: the bad colour removes two rows (H4)
    qtbot.mouseClick(panel.roll, Qt.MouseButton.LeftButton)
    assert doc.encounter.chase.countdown.rows_removed == 2
    assert "2 rows gone" in window.mode_views.board(Mode.CHASE).heading.text()
    # one countdown die a round (H4): the button rests, and the model refuses a second roll
    assert not panel.roll.isEnabled() and "one countdown die a round" in panel.roll.toolTip()
    panel.rng = random.Random(0)
    assert not panel.do_roll()
    assert "already rolled this round" in c.message.text()
    assert doc.encounter.chase.countdown.rows_removed == 2


def _actor_rolls_red(window, doc, c):
    start_round(doc, 4)
    pid = c.who.currentData()
    assert pid in doc.encounter.combatants, pid
    c.faces.setText("6 1")
    assert c.do_roll(), c.message.text()
    return pid


def test_special_actions_offered_with_their_conditions_and_what_they_start(window, qtbot):
    doc, c = window.doc, controls(window)
    pid = _actor_rolls_red(window, doc, c)
    panel = c.special
    c.tabs.setCurrentWidget(panel)
    assert panel.who.currentData() == pid and panel.take.isEnabled()
    panel.kind.setCurrentIndex(panel.kind.findData("screen"))
    assert "defenses until you can choose an action again" in panel.kind.currentText()
    qtbot.mouseClick(panel.take, Qt.MouseButton.LeftButton)
    assert doc.encounter.combatants[pid].has(StateKind.SCREENING)
    assert not panel.take.isEnabled()  # the one special action is spent
    doc.undo_stack.undo()
    panel.kind.setCurrentIndex(panel.kind.findData("hide"))
    panel.take.setFocus()
    qtbot.keyClick(panel.take, Qt.Key.Key_Space)
    who = doc.encounter.combatants[pid]
    assert who.hidden and len(who.decoys) == 2
    assert "2 decoy(s)" in panel.state.text()
    qtbot.mouseClick(panel.decoy, Qt.MouseButton.LeftButton)
    assert doc.encounter.chase.participant(pid).decoys == 1
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    # an attack opens the check dialog, the range penalty on a higher total (H1)
    panel.kind.setCurrentIndex(panel.kind.findData("attack"))
    higher = [i for i in range(panel.target.count()) if "range" in panel.target.itemText(i)]
    lower = [i for i in range(panel.target.count()) if "range" not in panel.target.itemText(i)]
    target_i = (higher or lower)[0]
    panel.target.setCurrentIndex(target_i)
    tid = panel.target.currentData()
    qtbot.mouseClick(panel.take, Qt.MouseButton.LeftButton)
    assert doc.encounter.chase.participant(pid).started == f"attack:{tid}"
    dialog = panel.dialog
    assert dialog is not None and dialog.isVisible()
    if higher:
        assert any("range penalty" in r for r in dialog.modifiers.rows())
    dialog.reject()
    qtbot.mouseClick(panel.drop, Qt.MouseButton.LeftButton)
    assert doc.encounter.chase.participant(pid).started == ""


def test_grant_an_extra_die_then_roll_both_and_keep_one(window, qtbot):
    doc, c = window.doc, controls(window)
    pid = _actor_rolls_red(window, doc, c)
    panel = c.special
    panel.kind.setCurrentIndex(panel.kind.findData("grant"))
    other = panel.target.itemData(0)
    panel.target.setCurrentIndex(0)
    qtbot.mouseClick(panel.take, Qt.MouseButton.LeftButton)
    assert doc.encounter.chase.participant(other).extra_die
    c.success.setChecked(True)
    assert c.do_check(), c.message.text()
    for _ in range(12):
        window.act_next.trigger()
        if c.who.currentData() == other or doc.encounter.turn.phase is not Phase.TURNS:
            break
    if c.who.currentData() != other:
        pytest.fail(f"{other} never got its turn; the test's deal must give it one ({pid})")
    c.faces.setText("5 / 6 2")
    assert c.do_roll()
    assert not c.keep[1].isHidden() and "second red, green" in c.message.text()
    qtbot.mouseClick(c.keep[1], Qt.MouseButton.LeftButton)
    p = doc.encounter.chase.participant(other)
    assert p.colours == ("red", "green") and p.special == 1 and not p.extra_die


def test_the_chase_check_is_rolled_with_shifts_both_ways(window, qtbot):
    doc, c = window.doc, controls(window)
    start_round(doc, 6)
    pid = c.who.currentData()
    c.faces.setText("2")
    assert c.do_roll(), c.message.text()
    assert c.check.isEnabled()
    c.source = ScriptedSource([5, 2, 3, 6, 1, 4, 4, 4])
    dialog = c.open_check()
    qtbot.waitUntil(lambda: "success" in dialog.odds.text(), timeout=ODDS_MS)
    assert "af-2.5.4" in dialog.odds.text()
    assert dialog.roll_check()
    assert dialog.dice.roll() is not None
    shifts = doc.encounter.combatants[dialog.checker].shifts
    referee = doc.encounter.meta.referee_shifts
    assert dialog.spend(Role.ATTACKER, SpendKind.ADD), dialog.message.text()
    assert dialog.spend(Role.DEFENDER, SpendKind.RETRY), dialog.message.text()
    assert "1 Shifts left" not in dialog.own_label.text() or shifts == 2
    op = dialog.op()
    assert op.roll is not None and [s.payer for s in op.spends] == [dialog.checker, "referee"]
    assert op.roll.dice[-1].added_by or any(d.added_by for d in op.roll.dice)
    assert dialog.apply(), dialog.message.text()
    assert doc.encounter.combatants[dialog.checker].shifts == shifts - 1
    assert doc.encounter.meta.referee_shifts == referee - 1
    assert "(rolled " in doc.encounter.log[-1].text
    assert doc.encounter.chase.participant(pid).score is not None


def test_board_odds_and_the_check_follow_the_encounters_ruleset(window, qtbot):
    doc, c = window.doc, controls(window)
    assert not doc.push(SetRuleset("d20-degrees"))
    start_round(doc, 6)
    qtbot.waitUntil(lambda: "success" in c.odds.text(), timeout=ODDS_MS)
    c.faces.setText("2")
    assert c.do_roll(), c.message.text()
    c.source = ScriptedSource([17])
    dialog = c.open_check()
    qtbot.waitUntil(lambda: "d20-degrees" in dialog.odds.text(), timeout=ODDS_MS)
    assert dialog.roll_check()
    assert not dialog.dice.isVisible()  # a d20 has no dice pool to draw
    assert "Success" in dialog.result.text() or "Triumph" in dialog.result.text()
    assert not dialog.ref_retry.isVisible()  # d20-degrees spends nothing
    assert dialog.apply(), dialog.message.text()
    assert doc.encounter.chase.participant(dialog.pid).success


def test_the_typed_fallback_in_the_dialog(window, qtbot):
    doc, c = window.doc, controls(window)
    start_round(doc, 6)
    c.faces.setText("4")
    assert c.do_roll()
    dialog = c.open_check()
    dialog.manual_success.setChecked(False)
    dialog.manual_margin.setValue(1)
    assert dialog.apply(), dialog.message.text()
    p = doc.encounter.chase.participant(dialog.pid)
    assert p.score is not None and not p.success


def test_stage_set_by_op_shows_as_cards(window):
    doc = window.doc
    assert not doc.push(SetStage(("obscured",)))
    assert [card.prop.value for card in window.mode_views.board(Mode.CHASE)._cards] == ["obscured"]
    assert RollPursuit  # imported for the Op the board's Turn tab pushes


def test_cooperation_rolls_with_the_next_chase_check(window, qtbot):
    doc, c = window.doc, controls(window)
    pid = _actor_rolls_red(window, doc, c)
    target = "runner-2" if pid != "runner-2" else "runner-1"
    panel = c.special
    panel.kind.setCurrentIndex(panel.kind.findData("cooperate"))
    panel.target.setCurrentIndex(panel.target.findData(target))
    qtbot.mouseClick(panel.take, Qt.MouseButton.LeftButton)
    assert doc.encounter.chase.participant(target).helpers == (pid,)
    c.success.setChecked(True)
    assert c.do_check(), c.message.text()
    for _ in range(12):
        window.act_next.trigger()
        if c.who.currentData() == target:
            break
    assert c.who.currentData() == target
    c.faces.setText("1")
    assert c.do_roll(), c.message.text()
    c.source = ScriptedSource([5, 2, 4, 4, 1, 1, 1, 1])
    dialog = c.open_check()
    assert dialog.helper() == pid and not dialog.helper_label.isHidden()
    assert dialog.roll_check()
    assert dialog.helper_roll is not None and dialog.helper_dice.roll() is dialog.helper_roll
    assert dialog.apply(), dialog.message.text()
    assert f"with {doc.encounter.combatants[pid].name} cooperating" in doc.encounter.log[-1].text


def test_a_contest_opens_the_check_dialog_against_its_target(window, qtbot):
    from afdesk.encounter.checks import CheckKind

    doc, c = window.doc, controls(window)
    pid = _actor_rolls_red(window, doc, c)
    panel = c.special
    panel.kind.setCurrentIndex(panel.kind.findData("contest"))
    me = doc.encounter.chase.participant(pid).total
    offered = [panel.target.itemData(i) for i in range(panel.target.count())]
    assert offered and all(doc.encounter.chase.participant(q).total <= me for q in offered)
    qtbot.mouseClick(panel.take, Qt.MouseButton.LeftButton)
    started = doc.encounter.chase.participant(pid).started
    assert started == f"contest:{offered[0]}"
    assert panel.dialog is not None and panel.dialog.action is CheckKind.DISTRACT
    panel.dialog.reject()
