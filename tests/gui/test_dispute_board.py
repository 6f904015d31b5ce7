"""The dispute board in the window (P1-P9, E15, E16): File > Open sample shows the village
council on its board with T, N and W (P6); a Convince at the audience through the check
dialog moves the margin (P4a); a P4b refusal is said before the GM tries, and a refused Op
changes nothing and names its rule; tension over the threshold offers battle or chase at
once (P7); the players' board shows the outcome and no GM-only data (P9); a battle turned
dispute at an exchange end lists every character (E16)."""

from __future__ import annotations

import random

import msgspec
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from afdesk import paths
from afdesk.encounter.checks import CheckKind
from afdesk.encounter.dispute.ops import AddTension, MoveDisputant
from afdesk.encounter.ops.economy import SetEconomy
from afdesk.encounter.ops.flow import EndExchangeEarly, NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.state import Mode, Phase
from afdesk.gui.main_window import MainWindow
from afdesk.rules.dice import ScriptedSource


@pytest.fixture
def window(qtbot):
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.resize(1280, 720)
    w.mode_views.samples[Mode.DISPUTE].trigger()
    return w


def board(window):
    return window.mode_views.board(Mode.DISPUTE)


def turn_of(window, cid: str) -> None:
    """Deal, play the cards and pass turns until it is ``cid``'s."""
    doc = window.doc
    assert not doc.push(deal_hands(doc.encounter, random.Random(3)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(4)))
    for _ in range(40):
        if doc.encounter.actor == cid:
            return
        assert not doc.push(NextTurn())
    raise AssertionError(f"{cid} never got a turn")


def bar_buttons(window) -> dict:
    """The decisions bar's buttons by label: the dispute's decisions wait there (P7, P8)."""
    return {b.text(): b for row in window.decisions.rows for b in row.buttons}


def texts(widget) -> str:
    return "\n".join(label.text() for label in widget.findChildren(QLabel))


def test_the_sample_opens_on_its_board_with_t_n_and_w(window):
    b = board(window)
    assert window.mode_views.stack.currentWidget() is b
    assert window.doc.encounter.meta.name == "Village council"
    r = b.reckoning.text()
    assert "T = 8" in r and "N 15" in r and "W 3" in r  # 15 present, Bao's wits 3 (P6)
    assert set(b.cards) == {"mill", "bridge", "magistrate", ""}
    mill = b.cards["mill"]
    assert "CONVENTIONAL" in mill.title.text() and "Elder Bao" in mill.title.text()
    assert mill.support.text() == "support 1 of T 8"
    assert "Grief in the room" in b.cards["bridge"].title.text()
    audience = b.cards[""].people.text()
    assert "Farmers ×7" in audience and "Fishers ×5" in audience
    assert "grit 2 · wits 3 · sway 2" in mill.people.text()  # the GM sees every number
    assert "0 / 3" in b.tension.text()


def test_a_convince_at_the_audience_through_the_check_dialog_moves_the_margin(window, qtbot):
    turn_of(window, "huang")
    controls = board(window).controls
    assert controls.actor.currentData() == "huang"
    assert controls.target.currentData() == ""  # the neutral audience (P4a)
    assert controls.check_buttons[CheckKind.CONVINCE].isEnabled()
    controls.source = ScriptedSource([5, 5, 4])  # Result 5, Gain 2: margin 2 (R13)
    dialog = controls.open_check(CheckKind.CONVINCE)
    assert dialog is not None and dialog.plan is not None and dialog.plan.allowed
    assert dialog.target_box.currentText().startswith("the neutral audience")
    dialog.dice.roll_attack.click()
    dialog.apply_button.click()
    d = window.doc.encounter.dispute
    assert d.support()["magistrate"] == 3 and d.neutral() == 10
    assert board(window).cards["magistrate"].support.text() == "support 3 of T 8"
    log = window.doc.encounter.log[-1].text
    assert "convinces 2 of the audience to join Send for the magistrate" in log
    window.doc.undo_stack.undo()  # one step: the check and what it moved
    assert window.doc.encounter.dispute.neutral() == 12


def test_p4b_is_refused_before_the_gm_tries_and_a_refused_op_changes_nothing(window):
    turn_of(window, "huang")
    controls = board(window).controls
    controls.target.setCurrentIndex(controls.target.findData("bao"))
    assert "refused" in controls.target.currentText()
    button = controls.check_buttons[CheckKind.CONVINCE]
    assert not button.isEnabled()
    assert "Elder Bao still has grit 2 and sway 2" in button.toolTip()
    assert "(P4b)" in controls.why.text()
    assert controls.open_check(CheckKind.CONVINCE) is None
    before = window.doc.encounter.state()
    assert not controls.push(AddTension(-1))
    assert "(P7)" in controls.message.text()
    assert window.doc.encounter.state() == before


def test_tension_over_the_threshold_offers_battle_or_chase_at_once(window):
    turn_of(window, "huang")
    b = board(window)
    for _ in range(4):
        b.controls.more.click()
    enc = window.doc.encounter
    assert enc.dispute.outcome.how == "broken" and enc.turn.phase is Phase.TURNS
    assert "broke with no winner" in b.banner.text()
    assert {"Battle now", "Chase now", "End the encounter"} <= set(bar_buttons(window))
    assert window.decisions.parentWidget().isVisibleTo(window)
    bar_buttons(window)["Chase now"].click()
    assert window.doc.encounter.mode is Mode.CHASE
    assert window.mode_views.stack.currentWidget() is window.mode_views.board(Mode.CHASE)
    assert "at once: the dispute broke (P7)" in window.doc.encounter.log[-1].text


def test_the_players_board_shows_the_outcome_and_no_gm_only_data(window):
    window.show_player_view()
    players = window.player_window
    table = players.board(Mode.DISPUTE)
    assert players.stack.currentWidget() is table
    assert table.controls is None
    shown = texts(table)
    assert "T = 8" in shown and "Rebuild the mill" in shown and "Farmers ×7" in shown
    assert "grit 2 · wits 3 · sway 2" not in shown  # Elder Bao's numbers are the GM's
    assert "Owns the millstones" not in shown  # GM notes
    assert "grit 3 · wits 2 · sway 1" in shown  # the band's own Huang
    assert not window.doc.push(MoveDisputant("farmers", "mill", count=7))  # 8 of T 8 (P6)
    banner = table.banner.text()
    assert "Rebuild the mill wins (P6)" in banner and "+2" in banner  # P9, E15
    assert not table.findChildren(QPushButton)  # no GM decisions on the table


def test_a_battle_turned_dispute_at_an_exchange_end_lists_every_character(window):
    assert window.open_bundled(paths.resource_dir() / "encounters" / "river-ford.afenc")
    doc = window.doc
    assert doc.encounter.mode is Mode.BATTLE
    assert window.mode_views.stack.currentIndex() == 0  # the map
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndExchangeEarly())
    assert not doc.push(ChangeMode(Mode.DISPUTE))  # at the exchange end (E16)
    b = board(window)
    assert window.mode_views.stack.currentWidget() is b
    audience = b.cards[""].people.text()
    for c in doc.encounter.roster():
        if c.on_map:
            assert c.name in audience
    assert f"N {sum(1 for c in doc.encounter.roster() if c.on_map)}" in b.reckoning.text()


def test_setup_through_the_boards_controls_is_ops_with_undo(window):
    doc = window.doc
    start = doc.encounter.dispute
    c = board(window).controls
    # a new platform with a property's dice (P2)
    c.platform.setCurrentIndex(c.platform.findData("\x00new"))
    c.p_name.setText("Ask the river spirit")
    c.p_course.setText("Let the temple decide")
    c.p_properties.setText("Old faith +1; Fear")
    assert c.do_platform()
    p = doc.encounter.dispute.platform("ask-the-river-spirit")
    assert p is not None and [(q.text, q.dice) for q in p.properties] == [
        ("Old faith", 1),
        ("Fear", 0),
    ]
    assert "ask-the-river-spirit" in board(window).cards
    # a second conventional platform is refused with its rule, and nothing changes (P2)
    c.p_conventional.setChecked(True)
    before = doc.encounter.state()
    assert not c.do_platform()
    assert "(P2)" in c.message.text() and doc.encounter.state() == before
    # split a group: 3 of the 7 farmers to the mill (P3)
    c.entry.setCurrentIndex(c.entry.findData("farmers"))
    c.side.setCurrentIndex(c.side.findData("mill"))
    c.count.setValue(3)
    assert c.do_move()
    d = doc.encounter.dispute
    assert d.entry("farmers").count == 4 and d.support()["mill"] == 4
    assert "Farmers ×3" in board(window).cards["mill"].people.text()
    # grit, wits, sway (P3), then a new group in the audience
    c.entry.setCurrentIndex(c.entry.findData("bao"))
    c.sway.setValue(0)
    assert c.do_stats()
    assert doc.encounter.dispute.entry("bao").sway == 0
    c.group_name.setText("Millers")
    c.group_count.setValue(4)
    assert c.do_add_group()
    assert doc.encounter.dispute.entry("millers").count == 4
    assert "N 19" in board(window).reckoning.text()  # T = 10 now (P6)
    for _ in range(4):  # four steps: the refused one made none
        doc.undo_stack.undo()
    assert doc.encounter.dispute == start
    assert "ask-the-river-spirit" not in board(window).cards


def test_a_fumbled_convince_proposes_one_tension_on_the_board(window):
    turn_of(window, "huang")
    b = board(window)
    b.controls.source = ScriptedSource([1, 2, 1, 5])  # no Win, an Interference Win: Fumble
    dialog = b.controls.open_check(CheckKind.CONVINCE)
    dialog.modifiers.add_gm("the crowd jeers", -1)
    dialog.dice.roll_attack.click()
    dialog.apply_button.click()
    assert "proposes +1 tension (P7, R6)" in window.doc.encounter.log[-1].text
    assert window.doc.encounter.dispute.tension == 0  # proposed, not added
    bar_buttons(window)["+1 tension"].click()
    assert window.doc.encounter.dispute.tension == 1
    assert "+1 tension" not in bar_buttons(window)


def test_the_character_menus_convince_offers_the_audience_and_says_p4b_first(window):
    """Convince… from the Character menu opens the same dialog with the dispute's targets
    (the mode gives them, P4a), a personality's refusal named before rolling (P4b)."""
    turn_of(window, "huang")
    window.complete()
    ctx = window.ctx
    assert ctx.run("convince", "huang")
    dialog = ctx.dialog
    assert dialog.target_box.itemData(0) == "" and dialog.plan.allowed  # the audience (P4a)
    bao = dialog.target_box.findData("bao")
    assert "refused: Elder Bao still has grit 2 and sway 2" in dialog.target_box.itemText(bao)
    dialog.target_box.setCurrentIndex(bao)
    assert not dialog.apply_button.isEnabled() and "(P4b)" in dialog.reason.text()
    dialog.reject()


LONG = "Petition the Jade Lotus Society's river magistrate for a second hearing"


def test_long_platforms_and_many_people_keep_the_window_within_1280(window):
    from afdesk.encounter.dispute.ops import AddPlatform, JoinDispute
    from afdesk.encounter.dispute.state import Entry, Platform, PlatformProperty

    doc = window.doc
    window.show()
    assert not doc.push(
        AddPlatform(
            Platform(
                "long",
                LONG,
                LONG + ", and then another one after that",
                proponent="huang",
                properties=(PlatformProperty(LONG, 2),),
            )
        )
    )
    for i in range(12):
        assert not doc.push(JoinDispute(Entry(f"g{i}", f"{LONG} {i}", count=3)))
    c = board(window).controls
    c.entry.setCurrentIndex(c.entry.findData("g11"))
    c.platform.setCurrentIndex(c.platform.findData("long"))
    assert window.minimumSizeHint().width() <= 1280
    assert window.width() <= 1280
    assert LONG in c.entry.toolTip() and LONG in c.platform.toolTip()
    assert board(window).cards["long"].support.text() == "support 0 of T 26"  # N 51 (P6)
    assert f"{LONG} 11 ×3" in board(window).cards[""].people.text()


def test_the_ending_tab_closes_at_an_exchange_end_settles_and_reopens(window):
    doc = window.doc
    b = board(window)
    c = b.controls
    assert not c.do_close()  # setting up: not an exchange end (P8)
    assert "exchange" in c.message.text().lower()
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndExchangeEarly())
    assert c.do_close()  # one each: the conventional mill wins the tie (P8)
    assert doc.encounter.dispute.outcome.winner == "mill"
    assert "Rebuild the mill wins (P8)" in b.banner.text()
    assert c.reopen.isEnabled() and not c.settle.isEnabled()
    c.reopen.click()
    assert not doc.encounter.dispute.over and b.banner.isHidden()
    c.winner.setCurrentIndex(c.winner.findData("bridge"))
    c.settle.click()
    assert doc.encounter.dispute.outcome.winner == "bridge"
    assert doc.encounter.log[-1].text == "The GM ends the dispute: Mend the bridge wins (P9)"


def test_a_battle_turned_dispute_says_where_its_platforms_are_made(window):
    """Switched from a battle, everyone stands in the audience and no platform exists: the
    GM's board says the next step (P2, P3) until two platforms stand; the players' board
    never shows it."""
    from afdesk.encounter.dispute.ops import AddPlatform, SetDisputeStats
    from afdesk.encounter.dispute.state import Platform

    b = board(window)
    assert b.hint.isHidden()  # the sample has its three platforms
    assert window.open_bundled(paths.resource_dir() / "encounters" / "river-ford.afenc")
    doc = window.doc
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndExchangeEarly())
    assert not doc.push(ChangeMode(Mode.DISPUTE))
    b = board(window)
    assert not b.hint.isHidden()
    assert "no platform yet" in b.hint.text() and "Platforms" in b.hint.text()
    assert "(P2)" in b.hint.text()
    assert "Everyone has wits 0 and sway 0" in b.hint.text()  # joined from the battle (P3)
    assert not doc.push(AddPlatform(Platform("fight", "Fight it out", "Cross the ford")))
    assert "one platform" in b.hint.text() and not b.hint.isHidden()
    huang = doc.encounter.dispute.entries[0]
    assert not doc.push(SetDisputeStats(huang.id, huang.grit, 2, 1))
    assert "wits 0 and sway 0" not in b.hint.text()
    assert not doc.push(AddPlatform(Platform("pay", "Pay the toll", "Pay and pass")))
    assert b.hint.isHidden()
    window.show_player_view()
    assert window.player_window.board(Mode.DISPUTE).hint.isHidden()


def test_a_target_a_personality_refuses_to_convince_is_marked_for_convince_only(window):
    """Elder Bao may taunt Huang, whom he cannot convince (P4b, P5): the At box marks
    Huang "Convince refused", not "refused", and Taunt stays open; a refusal that is the
    actor's (the action used) leaves the audience unmarked, the line below saying why."""
    turn_of(window, "bao")
    c = board(window).controls
    c.target.setCurrentIndex(c.target.findData("huang"))
    assert c.target.currentText().endswith("— Convince refused")
    assert not c.check_buttons[CheckKind.CONVINCE].isEnabled()
    assert c.check_buttons[CheckKind.TAUNT].isEnabled()
    c.target.setCurrentIndex(c.target.findData(""))
    # The audience, once the action is used: the reason is Bao's, not the audience's.
    c.source = ScriptedSource([5, 5, 4])
    dialog = c.open_check(CheckKind.CONVINCE)
    dialog.dice.roll_attack.click()
    dialog.apply_button.click()
    assert not c.check_buttons[CheckKind.CONVINCE].isEnabled()
    assert c.target.itemText(c.target.findData("")) == "the neutral audience (P4a)"
    assert "already used the action" in c.why.text()


def test_on_a_tie_the_ending_tabs_pick_is_among_the_tied(window):
    """At an exchange end with the bridge and the magistrate tied and the conventional mill
    behind, the Pick box marks the tied and chooses one, so Close settles it (P8)."""
    doc = window.doc
    c = board(window).controls
    assert not doc.push(MoveDisputant("bao", "bridge"))  # mill 0, bridge 2, magistrate 1
    assert not doc.push(MoveDisputant("farmers", "magistrate", count=1))  # 2 and 2
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndExchangeEarly())
    assert c.winner.currentData() in ("bridge", "magistrate")
    assert "(tied)" in c.winner.currentText()
    assert "(tied)" not in c.winner.itemText(c.winner.findData("mill"))
    c.close_button.click()
    assert doc.encounter.dispute.outcome.winner == c.winner.currentData()
    assert c.message.text() == ""


def test_the_fumbles_tension_waits_on_the_decisions_bar_over_the_map_too(window):
    turn_of(window, "huang")
    b = board(window)
    b.controls.source = ScriptedSource([1, 2, 1, 5])  # no Win, an Interference Win: Fumble
    dialog = b.controls.open_check(CheckKind.CONVINCE)
    dialog.modifiers.add_gm("the crowd jeers", -1)
    dialog.dice.roll_attack.click()
    dialog.apply_button.click()
    window.mode_views.flip()  # the GM looks at the map (Ctrl+B)
    assert window.mode_views.stack.currentWidget() is not b
    bar = window.decisions
    assert bar.parentWidget().isVisibleTo(window)
    [row] = bar.rows
    assert "Huang fumbled a social check" in row.text.text() and "(P7, R6)" in row.text.text()
    window.doc.select("bao")  # another character selected: the decision stays
    assert bar.rows == [row]
    bar_buttons(window)["+1 tension"].click()
    assert window.doc.encounter.dispute.tension == 1
    assert bar.rows == [] and bar.idle.isVisibleTo(window)  # it stays: nothing waits
    window.doc.undo_stack.undo()  # undone: it waits again
    assert "+1 tension" in bar_buttons(window)


def test_a_taunt_with_no_weapon_shows_and_deals_its_success_margin(window):
    turn_of(window, "huang")
    controls = board(window).controls
    controls.target.setCurrentIndex(controls.target.findData("bao"))
    controls.source = ScriptedSource([5, 5, 1, 1])  # Result 5, Gain 2: margin 2 (R13)
    dialog = controls.open_check(CheckKind.TAUNT)
    assert dialog is not None and dialog.momentum.hits.value() == 0  # not rolled yet
    dialog.dice.roll_attack.click()
    assert dialog.momentum.hits.value() == 2
    assert "success margin (R13, P5) 2" in dialog.momentum.damage_text.text()
    dialog.apply_button.click()
    assert window.doc.encounter.dispute.entry("bao").grit == 0  # 2 grit off (P5)


def test_p5_a_retort_by_another_cooperates_through_the_check_dialog(window):
    turn_of(window, "huang")
    controls = board(window).controls
    controls.target.setCurrentIndex(controls.target.findData("lan"))
    # Huang 5, 5 (cover: Interference 1, 1); then Bao's retort 4, 4, 2 (Interference 1)
    # buys Lan two retries of her Fails 1, 1: 6 and 3; her 6 stops the taunt (R9, R11)
    controls.source = ScriptedSource([5, 5, 1, 1, 4, 4, 2, 1, 1, 1, 6, 3])
    dialog = controls.open_check(CheckKind.TAUNT)
    dialog.dice.roll_attack.click()
    panel = dialog.defense
    bao = panel.button("retort", "guard", by="bao")
    assert bao.text().startswith("Retort by Elder Bao (guard) — influence 3")
    assert bao.isEnabled()
    panel.choose("insight")
    panel.cooperate("bao")
    assert [o.defender for o in dialog.flow.defense] == ["lan", "bao"]
    dialog.dice.roll_defense.click()
    assert dialog.dice.helper_label.text() == "Elder Bao's retort helping:"
    dialog.apply_button.click()
    enc = window.doc.encounter
    assert enc.combatant("bao").economy.guards == 0 and enc.dispute.entry("lan").grit == 1
    assert "Widow Lan uses insight with Elder Bao's retort (P5)" in enc.log[-1].text


def test_p5_a_retort_by_another_that_cannot_says_why(window):
    turn_of(window, "huang")
    enc = window.doc.encounter
    e = enc.combatant("bao").economy
    assert not window.doc.push(SetEconomy("bao", msgspec.structs.replace(e, guards=0)))
    controls = board(window).controls
    controls.target.setCurrentIndex(controls.target.findData("lan"))
    controls.source = ScriptedSource([5, 5, 1, 1])
    dialog = controls.open_check(CheckKind.TAUNT)
    dialog.dice.roll_attack.click()
    panel = dialog.defense
    bao = panel.button("retort", "guard", by="bao")
    assert not bao.isEnabled()
    assert "Elder Bao's guard is used" in panel.why(bao) and "(E4)" in panel.why(bao)
    assert "Not open now" in panel.closed_toggle.text()


def test_long_names_after_a_retort_fit_the_check_dialog_and_the_cards(window, qtbot):
    """At 1280x720: long names are elided in the defenses (whole in the tooltip) and the
    dialog needs no sideways scrolling; the cards show who used its guard (E4, P5) and
    no card cuts off its last lines."""
    from afdesk.encounter.dispute.ops import EditPlatform
    from afdesk.encounter.ops.roster import EditCombatant

    doc = window.doc
    window.show()
    enc = doc.encounter
    bao_name = "Elder Bao Thuan of the Eastern Millstone Guild"
    assert not doc.push(EditCombatant(enc.combatant("bao").replace(name=bao_name)))
    bridge = enc.dispute.platform("bridge")
    long = "Mend the stone bridge over the river before the spring floods"
    assert not doc.push(EditPlatform(msgspec.structs.replace(bridge, name=long)))
    turn_of(window, "huang")
    controls = board(window).controls
    controls.target.setCurrentIndex(controls.target.findData("lan"))
    controls.source = ScriptedSource([5, 5, 1, 1, 4, 4, 2, 1, 1, 1, 6, 3])
    dialog = controls.open_check(CheckKind.TAUNT)
    dialog.dice.roll_attack.click()
    bao = dialog.defense.button("retort", "guard", by="bao")
    assert bao_name not in bao.text() and bao_name in bao.toolTip()
    dialog.defense.choose("insight")
    dialog.defense.cooperate("bao")
    assert "helper: retort" in dialog.defense_options.pool_text()
    qtbot.waitUntil(lambda: dialog.scroll.viewport().width() > 0)
    body = dialog.scroll.widget()
    assert body.minimumSizeHint().width() <= dialog.scroll.viewport().width()
    dialog.dice.roll_defense.click()
    dialog.apply_button.click()
    cards = board(window).cards
    assert "guard used" in cards["mill"].people.text()  # Bao retorted for Lan (P5)
    assert "guard used" in cards["bridge"].people.text()  # Lan's own insight
    assert "guard used" not in cards["magistrate"].people.text()
    QApplication.processEvents()
    for card in cards.values():
        assert card.height() >= card.heightForWidth(card.width())


def test_p5_physical_dice_for_a_retort_helping_are_typed_in_the_rulesets_order(window):
    turn_of(window, "huang")
    controls = board(window).controls
    controls.target.setCurrentIndex(controls.target.findData("lan"))
    controls.source = ScriptedSource([5, 5, 1, 1])
    dialog = controls.open_check(CheckKind.TAUNT)
    dialog.dice.roll_attack.click()
    dialog.defense.choose("insight")
    dialog.defense.cooperate("bao")
    hint = dialog.dice.defense_faces.faces_edit.placeholderText()
    # af-2.5.4: the helper's Gain buys the leader's retries, so it rolls first (R11)
    assert "the helper's dice first, then the defense's" in hint
    # Bao 4, 4, 2 and his Interference 1; Lan 1, 1, retried to 6 and 3: stopped
    dialog.dice.defense_faces.type_faces("4 4 2 1 1 1 6 3")
    dialog.dice.roll_defense.click()
    assert dialog.flow.verdict_now().stopped
    assert [d.face for d in dialog.flow.helper_roll.main_pool] == [4, 4, 2]
