"""The event ticker on the players' screen: what happened reaches the players' window as
short lines (afdesk.encounter.ticker's words), the newest few, fading out on a clock the
test drives (no sleeping), gone on an undo or a hold, never anything GM-only."""

from __future__ import annotations

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.flow import EndExchangeEarly
from afdesk.encounter.ops.meta import ChangeMode, SetNotes
from afdesk.encounter.ops.roster import AddState, AdjustCounter, SetDecoys
from afdesk.encounter.state import Mode
from afdesk.encounter.ticker import TickerLine
from afdesk.gui.player_view import PlayerWindow
from afdesk.gui.table.rolls import gate_for
from afdesk.gui.table.settings import TableSettings
from afdesk.gui.table.ticker_panel import FADE, MAX_LINES
from tests.gui.conftest import wait_exposed
from tests.gui.test_table_rolls import plain_check


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def window(doc, qtbot) -> tuple[PlayerWindow, Clock]:
    w = PlayerWindow(doc)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    wait_exposed(qtbot, w)
    clock = Clock()
    w.ticker.clock = clock
    return w, clock


def test_what_happens_reaches_the_players_screen_and_fades(playing_doc, qtbot):
    w, clock = window(playing_doc, qtbot)
    enc = playing_doc.encounter
    assert not w.ticker.isVisible()
    assert playing_doc.push(AdjustCounter("gao", "hits", 2)) == ""
    assert w.ticker.texts() == ["Bandit Chief Gao takes 2 hits"]
    assert w.ticker.isVisible()
    # Within the map, in its lower left corner.
    assert w.map_area().contains(w.ticker.geometry())
    clock.now += 3
    assert playing_doc.push(plain_check(enc, "lan")) == ""  # a band member's: public
    texts = w.ticker.texts()
    assert texts[0] == "Bandit Chief Gao takes 2 hits" and texts[1].startswith("Silent Lan ")
    assert texts[1].endswith(": succeeds")
    # The first line fades over its last seconds, then goes; the second stays a while.
    seconds = w.ticker.seconds
    clock.now = 100 + seconds - FADE / 2
    w.ticker.expire()
    first = w.ticker._labels[0].styleSheet()
    assert "rgba(244, 244, 244, 127)" in first, first
    clock.now = 100 + seconds
    w.ticker.expire()
    assert len(w.ticker.texts()) == 1 and w.ticker.texts()[0].startswith("Silent Lan")
    w.ticker.expire(100 + 3 + seconds)
    assert w.ticker.texts() == [] and not w.ticker.isVisible()
    assert not w.ticker.timer.isActive()


def test_the_newest_few_lines_an_undo_and_a_hold(playing_doc, qtbot):
    w, clock = window(playing_doc, qtbot)
    for i in range(MAX_LINES + 2):
        clock.now += 1
        assert playing_doc.push(AdjustCounter("gao", "hits", i + 1)) == ""
    assert len(w.ticker.texts()) == MAX_LINES
    assert w.ticker.texts()[-1] == f"Bandit Chief Gao takes {MAX_LINES + 2} hits"
    assert w.ticker.texts()[0] == "Bandit Chief Gao takes 3 hits"
    playing_doc.undo_stack.undo()  # what was said is no longer true
    assert w.ticker.texts() == []
    assert playing_doc.push(AdjustCounter("gao", "hits", 1)) == ""
    w.hold("black")
    assert w.ticker.texts() == []
    assert playing_doc.push(AdjustCounter("gao", "hits", 1)) == ""
    assert w.ticker.texts() == []  # a held screen says nothing
    w.hold("")
    TableSettings().ticker_shown = False
    assert playing_doc.push(AdjustCounter("gao", "hits", 1)) == ""
    assert w.ticker.texts() == []


def test_nothing_gm_only_reaches_the_ticker(playing_doc, qtbot):
    w, _clock = window(playing_doc, qtbot)
    enc = playing_doc.encounter
    said: list = []
    gate_for(playing_doc).said.connect(said.append)
    assert playing_doc.push(SetNotes("Gao flees at 2 hits")) == ""
    assert playing_doc.push(AddState("lan", StateKind.HIDDEN)) == ""
    assert playing_doc.push(SetDecoys("lan", ((4, 12), (6, 12)))) == ""
    assert playing_doc.push(AdjustCounter("lan", "hits", 1)) == ""
    assert playing_doc.push(plain_check(enc, "lan")) == ""
    assert said == [] and w.ticker.texts() == []
    # An opponent's check the GM keeps: the table hears nothing of its dice or verdict.
    gate_for(playing_doc).next_choice = "gm"
    assert playing_doc.push(plain_check(enc, "gao")) == ""
    assert said == []


def test_the_end_of_an_exchange_and_a_mode_change_are_said(playing_doc, qtbot):
    w, _clock = window(playing_doc, qtbot)
    assert playing_doc.push(EndExchangeEarly()) == ""
    assert playing_doc.push(ChangeMode(Mode.CHASE)) == ""
    assert w.ticker.texts() == ["Exchange 1 ends early", "The encounter becomes a chase"]
    assert w.stack.currentWidget() is w.board(Mode.CHASE) and w.ticker.isVisible()


def test_a_long_line_wraps_inside_the_map(playing_doc, qtbot):
    w, _clock = window(playing_doc, qtbot)
    long = "Reinforcements: " + ", ".join(f"Smuggler of the Jade river mill {i}" for i in range(6))
    w.ticker.add([TickerLine(long, "reinforcements")])
    area = w.map_area()
    assert area.contains(w.ticker.geometry())
    assert w.ticker.width() <= area.width() // 2
    label = w.ticker._labels[0]
    assert label.wordWrap() and label.height() >= label.heightForWidth(label.width())


def test_a_line_that_looks_the_same_is_not_styled_again(playing_doc, qtbot):
    """A style sheet set again polishes its label again (the ticker did so for every line
    at every action and every tick of its clock): only a line whose look changes gets one."""
    from PySide6.QtCore import QEvent, QObject

    w, clock = window(playing_doc, qtbot)
    assert playing_doc.push(AdjustCounter("gao", "hits", 2)) == ""
    first = w.ticker._labels[0]
    restyled: list[int] = []

    class Watch(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.StyleChange:
                restyled.append(1)
            return False

    watch = Watch()
    first.installEventFilter(watch)
    clock.now += 1  # far from fading: the first line looks the same
    assert playing_doc.push(AdjustCounter("gao", "hits", 1)) == ""
    w.ticker.expire()
    assert len(w.ticker.texts()) == 2 and restyled == []
    clock.now = 100 + w.ticker.seconds - FADE / 2  # fading: its colour changes
    w.ticker.expire()
    assert restyled
    first.removeEventFilter(watch)
