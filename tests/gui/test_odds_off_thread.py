"""The check dialog never blocks on odds: they are computed off the UI thread,
a newer request supersedes an older one, and the Roll button works at once."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QTimer

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.gui.odds_worker import OddsWorker
from afdesk.gui.text import pct
from afdesk.rules.dice import ScriptedSource
from tests.gui.odds_wait import settled_odds


@pytest.fixture
def duel(playing_doc):
    doc = playing_doc
    enc = doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    return EncounterDocument(enc, journal_factory=lambda d: None)


class SlowOdds:
    """An odds seam that holds every query until released, noting where it ran."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.threads: list[int] = []

    def __call__(self, query):
        self.threads.append(threading.get_ident())
        self.started.set()
        assert self.release.wait(30), "the test never released the query"
        return query()


@pytest.fixture
def slow(qtbot):
    """A slow odds seam, released at the latest when the test ends (before its widgets
    close and wait for their workers)."""
    seam = SlowOdds()
    yield seam
    seam.release.set()


def event_loop_turns(qtbot) -> None:
    """A zero-time timer fires: the UI thread's event loop is processing events."""
    timer = QTimer()
    timer.setSingleShot(True)
    with qtbot.waitSignal(timer.timeout, timeout=5000):
        timer.start(0)


@pytest.mark.parametrize("ruleset", ["af-2.5.4", "af-classic", "d20-degrees"])
def test_the_dialog_stays_responsive_while_slow_odds_run(duel, qtbot, slow, ruleset):
    duel.encounter.apply(SetRuleset(ruleset))
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    settled_odds(qtbot, dlg)
    dlg.odds_worker.compute = slow
    dlg.shifts.odds_worker.compute = slow  # the odds after each Shift, asked after the roll
    shown = []
    dlg.odds_worker.ready.connect(lambda request, result, _ctx: shown.append(request))

    dlg.modifiers.add_gm("Mud", -1)  # a change: new odds are asked for
    assert slow.started.wait(10)  # ... and are running now, on another thread
    assert slow.threads[0] != threading.get_ident()
    assert "computing" in dlg.odds.text()
    event_loop_turns(qtbot)

    # The Roll button works at once, while the old query still runs.
    dlg.source = ScriptedSource([5, 4, 2, 1])
    dlg.dice.roll_attack.click()
    assert dlg.flow.rolled
    assert "computing" in dlg.odds.text()
    if dlg.flow.spend_unit is not None:
        assert all("(…)" in b.text() for b in dlg.shifts.buttons if not b.isHidden())
    event_loop_turns(qtbot)
    assert shown == []

    slow.release.set()
    text = settled_odds(qtbot, dlg)
    # Only the newest request (after the roll) was shown; the one before it was dropped.
    assert shown == [dlg.odds_worker.latest]
    if ruleset == "d20-degrees":
        assert "Odds:" in text and "computing" not in text
    else:
        assert f"Succeeds <b>{pct(dlg.flow.odds().p_attacker_succeeds)}</b>" in text


def test_a_newer_request_supersedes_a_waiting_one(qtbot, slow):
    worker = OddsWorker()
    worker.compute = slow
    got = []
    worker.ready.connect(lambda request, result, ctx: got.append((request, result, ctx)))
    first = worker.request(lambda: "first", "a")
    assert slow.started.wait(10)
    worker.request(lambda: "second", "b")  # waits behind the first
    third = worker.request(lambda: "third", "c")  # replaces the second
    assert worker.busy and first != third
    slow.release.set()
    qtbot.waitUntil(lambda: not worker.busy, timeout=20000)
    assert got == [(third, "third", "c")]
    assert worker.shutdown()


def test_an_odds_error_is_shown_not_raised(qtbot):
    worker = OddsWorker()
    got = []
    worker.ready.connect(lambda request, result, ctx: got.append(result))

    def refused():
        raise ValueError("no odds for that")

    worker.request(refused)
    qtbot.waitUntil(lambda: not worker.busy, timeout=20000)
    assert isinstance(got[0], ValueError)
    assert worker.shutdown()


def test_C3_the_dialog_shows_odds_for_a_penalty_and_three_tokens(duel, qtbot):
    """C3: 1-3 tokens whatever the Interference; the odds appear, no error escapes."""
    duel.encounter.apply(SetRuleset("af-classic"))
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.modifiers.add_gm("Rain", -2)
    dlg.options.set_ventures(3)
    assert dlg.flow.ventures == 3
    text = settled_odds(qtbot, dlg)
    assert f"Succeeds <b>{pct(dlg.flow.odds().p_attacker_succeeds)}</b>" in text
