"""Checks shown to the table: a public check's dice, names, result and verdict
reach the players' window; a GM-only check never does (not even as a hidden widget); the
GM chooses per check and per side; a hidden roller's check is never shown."""

from __future__ import annotations

from afdesk.encounter.checks import CheckKind
from afdesk.encounter.combatant import Side, StateKind
from afdesk.encounter.contest.assembly import assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import AddState, SetDecoys
from afdesk.gui.dice_view import DiceView
from afdesk.gui.player_view import PlayerWindow
from afdesk.gui.table.rolls import gate_for
from afdesk.gui.table.settings import TableSettings
from afdesk.rules.dice import RandomSource
from tests.gui.conftest import wait_exposed


def plain_check(enc, cid: str, seed: int = 5):
    flow = ContestFlow(enc, assemble(enc, cid, CheckKind.CHECK, facet="study"))
    flow.roll_attack(RandomSource(seed))
    return flow.op()


def window(doc, qtbot) -> tuple[PlayerWindow, list]:
    w = PlayerWindow(doc)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    wait_exposed(qtbot, w)
    seen: list = []
    gate_for(doc).shown.connect(seen.append)
    return w, seen


def test_a_band_members_check_is_shown_with_its_dice(playing_doc, qtbot):
    w, _seen = window(playing_doc, qtbot)
    enc = playing_doc.encounter
    op = plain_check(enc, "lan")
    with qtbot.waitSignal(gate_for(playing_doc).shown):
        assert playing_doc.push(op) == ""
    assert w.roll_panel.isVisible() and w.roll_panel.shown_count == 1
    words = " ".join(w.roll_panel.texts())
    assert "Silent Lan" in words
    verdict = op.record.verdict(enc.ruleset)
    assert verdict.lands and verdict.explain() == "5x2, succeeds"
    assert "Succeeds: 5x2" in words
    dice = w.roll_panel.findChildren(DiceView)
    assert [d.roll() for d in dice] == [op.record.attack]
    # The next action clears it.
    assert playing_doc.push(NextTurn()) == ""
    assert not w.roll_panel.isVisible()
    # The timer clears it too (a GUI timer; the test waits on the panel, never sleeps).
    playing_doc.undo_stack.undo()
    playing_doc.undo_stack.undo()
    TableSettings().roll_seconds = 2
    assert playing_doc.push(plain_check(enc, "lan", 9)) == ""
    timer = w.roll_panel.timer
    assert w.roll_panel.isVisible() and timer.isActive() and timer.interval() == 2000
    # Its own timeout clears it, brought forward: waiting out the 2 s on a loaded machine
    # left a 5 s limit 3 s of slack (and cost every run 2 s).
    timer.start(0)
    qtbot.waitUntil(lambda: not w.roll_panel.isVisible(), timeout=20000)


def test_an_opponents_check_is_gm_only_by_default_and_never_reaches_the_table(playing_doc, qtbot):
    w, seen = window(playing_doc, qtbot)
    enc = playing_doc.encounter
    gate = gate_for(playing_doc)
    assert playing_doc.push(plain_check(enc, "gao")) == ""
    assert seen == [] and w.roll_panel.shown_count == 0 and not w.roll_panel.isVisible()
    assert "Bandit Chief Gao" not in " ".join(w.roll_panel.texts())
    assert [public for _roll, public in gate.decided] == [False]
    # The GM makes the next one public; the one after is back to the side's default.
    gate.next_choice = "public"
    assert playing_doc.push(plain_check(enc, "gao", 6)) == ""
    assert len(seen) == 1 and seen[0].who == "Bandit Chief Gao"
    assert playing_doc.push(plain_check(enc, "gao", 7)) == ""
    assert len(seen) == 1
    # ... or keeps a band member's check to themselves.
    gate.next_choice = "gm"
    assert playing_doc.push(plain_check(enc, "lan", 8)) == ""
    assert len(seen) == 1
    # A side's default is a setting.
    TableSettings().set_public_rolls(Side.OPPONENT, True)
    assert playing_doc.push(plain_check(enc, "gao", 9)) == ""
    assert len(seen) == 2
    TableSettings().set_public_rolls(Side.BAND, False)
    assert playing_doc.push(plain_check(enc, "lan", 10)) == ""
    assert len(seen) == 2
    # Showing the last check after all is the GM's explicit choice.
    assert gate.show_last() == ""
    assert len(seen) == 3 and seen[-1].who == "Silent Lan"
    assert w.roll_panel.isVisible()


def test_a_hidden_rollers_check_is_never_shown(playing_doc, qtbot):
    w, seen = window(playing_doc, qtbot)
    enc = playing_doc.encounter
    assert playing_doc.push(AddState("lan", StateKind.HIDDEN)) == ""
    assert playing_doc.push(SetDecoys("lan", ((4, 12), (6, 12)))) == ""
    gate = gate_for(playing_doc)
    gate.next_choice = "public"
    assert playing_doc.push(plain_check(enc, "lan")) == ""
    assert seen == [] and w.roll_panel.shown_count == 0
    assert "hidden" in gate.show_last()
    assert seen == []


def test_the_table_menu_sets_the_next_check_and_shows_the_last(playing_doc, qtbot):
    from PySide6.QtCore import QSettings

    from afdesk.gui.main_window import MainWindow

    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.set_document(playing_doc)
    w.show_player_view()
    pw = w.player_window
    qtbot.addWidget(pw)
    seen: list = []
    gate_for(playing_doc).shown.connect(seen.append)
    w.table.next_menu.aboutToShow.emit()
    public = next(a for a in w.table.next_group.actions() if a.data() == "public")
    public.trigger()
    assert playing_doc.push(plain_check(playing_doc.encounter, "gao")) == ""
    assert [r.who for r in seen] == ["Bandit Chief Gao"] and pw.roll_panel.isVisible()
    assert playing_doc.push(plain_check(playing_doc.encounter, "gao", 11)) == ""
    assert len(seen) == 1 and not pw.roll_panel.isVisible()
    show_last = next(a for a in w.table.menu.actions() if a.text().startswith("Show the"))
    show_last.trigger()
    assert len(seen) == 2 and pw.roll_panel.isVisible()
    strip = w.table.strip_act
    strip.trigger()
    assert not strip.isChecked() and pw.strip.isHidden()
