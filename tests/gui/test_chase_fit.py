"""The chase board at 1280x720: long names and lane facts are never silently cut
(cut with "…" and whole in the tooltip, or wrapped), and the window keeps fitting the screen
with a long name in every list and many stage properties."""

from __future__ import annotations

import random

import msgspec
from PySide6.QtCore import QSettings

from afdesk.encounter.chase.ops import SetStage
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.state import Mode
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples

LONG = "Triad Runner Number One of the Jade Lotus Society"


def test_long_names_and_facts_at_1280x720(qtbot):
    state = samples.build_chase().state()
    people = tuple(
        msgspec.structs.replace(c, name=LONG) if c.id == "runner-1" else c for c in state.combatants
    )
    doc = EncounterDocument(
        Encounter.from_state(msgspec.structs.replace(state, combatants=people)),
        journal_factory=lambda d: None,
    )
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.set_document(doc)
    w.resize(1280, 720)
    w.show()
    all_ten = (
        "attacking", "chasm", "dangerous", "difficult", "flaming",
        "fluid", "obscured", "occupied", "steep", "treacherous",
    )  # fmt: skip
    assert not doc.push(SetStage(all_ten))
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(2)))
    c = w.mode_views.board(Mode.CHASE).controls
    for pid in ("runner-1", "mei", "huang"):
        c.who.setCurrentIndex(c.who.findData(pid))
    assert w.minimumSizeHint().width() <= 1280
    assert w.width() <= 1280
    lane = w.mode_views.board(Mode.CHASE).lane("runner-1")
    qtbot.waitUntil(lambda: lane.paints > 0)
    assert lane.name_shown.endswith("…") and LONG not in lane.name_shown
    assert LONG in lane.toolTip()
    assert (
        "speed 1" in lane.toolTip()
    )  # all ten: Steep and Fluid, the lower of climb 1, swim 1 (H4)
    # every combo box says the whole of what it shows in its tooltip
    c.participants.who.setCurrentIndex(c.participants.who.findData("runner-1"))
    assert c.participants.who.toolTip() == LONG


def test_the_exchange_end_text_never_pushes_the_window_past_1280x720(qtbot):
    """At a chase's exchange end the Reflex dock says what comes next with the GM's notes:
    a long note, or a word it cannot wrap (a link), wraps and scrolls inside the dock; the
    window stays within the screen."""
    from test_chase_board import _deal_and_play, _play_turns

    from afdesk.encounter.ops.meta import SetNotes
    from afdesk.encounter.state import Phase
    from afdesk.gui.text import ZWSP

    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.rng = random.Random(14)
    w.resize(1280, 720)
    w.mode_views.samples[Mode.CHASE].trigger()
    w.show()
    doc = w.doc
    link = "https://example.org/" + "ledger" * 30  # no place to wrap
    notes = "The band has Wu's ledger & the cart <below>. " * 40 + link
    assert not doc.push(SetNotes(notes))
    k = 0
    for rnd in range(5):
        _deal_and_play(doc, rnd)
        k = _play_turns(w, k)
    assert doc.encounter.turn.phase is Phase.EXCHANGE_END
    panel = w.reflex_panel
    w.reflex_dock.raise_()
    qtbot.waitUntil(lambda: panel.end_box.isVisible())
    hint = w.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 720, hint
    assert w.width() <= 1280 and w.height() <= 720
    shown = panel.end_text.text().replace(ZWSP, "")
    assert "Wu&#x27;s ledger &amp; the cart &lt;below&gt;." in shown and link in shown
    body = panel.scroll.widget()
    assert body.minimumSizeHint().width() <= panel.scroll.viewport().width()  # no cut
    assert panel.scroll.verticalScrollBar().maximum() > 0  # the rest is a scroll away
