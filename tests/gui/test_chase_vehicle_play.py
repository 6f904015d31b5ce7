"""A vehicle chase played through the board and the card dialog (H4, H5): the commander is
the only one asked for a card, the vehicle moves on the commander's card by its helm's die,
the board asks each crew member's check (whose odds show no knock-out), and on a Chasm stage
the helm's vehicle teeters, keeps teetering over a round without a teeter and falls on the
second (a teeter lasts until the stage changes)."""

from __future__ import annotations

import random

import msgspec
import pytest
from PySide6.QtCore import QSettings, Qt

from afdesk import paths
from afdesk.encounter.chase.ops import SetStage, Special, SpecialAction
from afdesk.encounter.combatant import Combatant, Facet, Side, StateKind
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.reflex import deal_hands
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.state import Mode, Phase
from afdesk.gui.chase.check_dialog import ChaseCheckDialog
from afdesk.gui.chase.lanes import facts
from afdesk.gui.dialogs.cards import PlayCardsDialog
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.rules.dice import ScriptedSource
from afdesk.rules.pursuit.checks import chase_turn_odds, rolled_turn_odds
from afdesk.rules.rulesets import ruleset_named
from afdesk.storage import load
from tests.gui.odds_wait import ODDS_MS


@pytest.fixture
def window(qtbot):
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.rng = random.Random(14)
    w.resize(1280, 720)
    # The rooftop sample without its prepared stages: the Chasm set here stays the stage
    # from round to round (a prepared stage taken at a round's start is a new stage, H4).
    state = load(paths.chase_sample_encounter()).state
    chase = msgspec.structs.replace(state.chase, stages_ahead=())
    state = msgspec.structs.replace(state, chase=chase)
    w.set_document(EncounterDocument(Encounter.from_state(state)))
    w.show()
    return w


LAN = Combatant(
    "lan",
    "Lan",
    Side.BAND,
    area=(4, 3),
    facing=0.0,
    facets=(Facet("machinery", 2), Facet("agility", 2)),
)


def wait_odds(qtbot, label):
    qtbot.waitUntil(lambda: "…" not in label.text() and label.text() != "", timeout=ODDS_MS)
    return label.text()


def play_round(window, seed):
    """The card dialog of a round: every hand it asks a card of, then revealed."""
    doc = window.doc
    dialog = PlayCardsDialog(doc, window, random.Random(seed))
    asked = set(dialog.fields)
    dialog.reveal()
    assert doc.encounter.turn.phase is Phase.TURNS, dialog.error.text()
    dialog.deleteLater()
    return asked


def to_the_vehicle(window, c):
    for _ in range(12):
        if c.who.currentData() == "sampan":
            return
        window.act_next.trigger()
    raise AssertionError("the vehicle never had a turn")


def vehicle_turn(qtbot, c, face, *, lan_fails=True):
    """The sampan's turn on Huang's card: the helm's die, each crew member's check, the
    helm's check, all from the board (H5)."""
    enc = c.doc.encounter
    assert enc.actor == "huang"  # the commander's card
    assert "rolls the pursuit die first" in c.crew_ask.text()
    c.faces.setText(str(face))
    assert c.do_roll(), c.message.text()
    assert "rolled" in wait_odds(qtbot, c.odds)
    assert "crew to check (H5): Huang, Lan" in c.crew_ask.text()
    # Lan, crew: the board asks, the dialog's odds are a crew check's (no knock-out)
    c.crew.setCurrentIndex(c.crew.findData("lan"))
    c.source = ScriptedSource([1, 2, 1, 2, 1, 2] if lan_fails else [5, 5, 1, 1, 1, 1])
    dialog = c.open_crew_check()
    assert isinstance(dialog, ChaseCheckDialog) and dialog.checker == "lan"
    text = wait_odds(qtbot, dialog.odds)
    assert "crew, H5" in text and "knocked out" not in text and "to the total" not in text
    assert dialog.roll_check() and dialog.apply(), dialog.message.text()
    assert "Lan (Sampan's crew)" in enc.log[-1].text
    # the helm's check moves the sampan
    c.source = ScriptedSource([1, 1, 1, 1, 1, 1])
    dialog = c.open_check()
    assert dialog.checker == "mei"
    assert "knocked out" in wait_odds(qtbot, dialog.odds)
    assert dialog.roll_check() and dialog.apply(), dialog.message.text()
    c.crew.setCurrentIndex(c.crew.findData("huang"))
    c.source = ScriptedSource([5, 1, 1, 1, 1, 1])
    dialog = c.open_crew_check()
    assert dialog.checker == "huang"
    assert dialog.roll_check() and dialog.apply(), dialog.message.text()
    assert "all checked" in c.crew_ask.text()


def test_h5_h4_a_vehicle_chase_through_the_board_and_the_card_dialog(window, qtbot):
    doc = window.doc
    c = window.mode_views.board(Mode.CHASE).controls
    assert not doc.push(AddCombatant(LAN))
    panel = c.vehicle
    c.tabs.setCurrentWidget(panel)
    panel.refresh()
    qtbot.keyClicks(panel.name, "Sampan")
    panel.commander.setCurrentIndex(panel.commander.findData("huang"))
    panel.helm.setCurrentIndex(panel.helm.findData("mei"))
    panel.set_crew(["lan"])
    qtbot.mouseClick(panel.add, Qt.MouseButton.LeftButton)
    enc = doc.encounter
    v = next(v for v in enc.chase.vehicles if v.name == "Sampan")
    assert (v.commander, v.helm, v.crew) == ("huang", "mei", ("lan",))
    assert not doc.push(SetStage(("chasm",), override=True))
    c.tabs.setCurrentIndex(0)
    assert not doc.push(deal_hands(enc, random.Random(3)))
    # H5: the card dialog asks only the commander of the three
    asked = play_round(window, 1)
    assert "huang" in asked and not {"mei", "lan"} & asked
    assert not {"mei", "lan"} & set(enc.turn.order)
    to_the_vehicle(window, c)
    grit = enc.combatants["lan"].grit
    vehicle_turn(qtbot, c, 4)  # blue: the bad colour on a Chasm
    assert enc.combatants["lan"].grit < grit  # a crew member fails and suffers (H5)
    assert enc.chase.participant("sampan").teetering
    # round 2: green, no teeter: still teetering on the same stage (H4)
    while enc.turn.phase is Phase.TURNS:
        window.act_next.trigger()
    play_round(window, 2)
    to_the_vehicle(window, c)
    vehicle_turn(qtbot, c, 1, lan_fails=False)
    assert enc.chase.participant("sampan").teetering
    # round 3: blue again: the second teeter falls, the helm falls the total
    while enc.turn.phase is Phase.TURNS:
        window.act_next.trigger()
    play_round(window, 3)
    to_the_vehicle(window, c)
    vehicle_turn(qtbot, c, 5)
    total = enc.chase.participant("sampan").total
    falling = enc.combatants["mei"].state(StateKind.FALLING)
    assert falling is not None and falling.markers == total
    assert not enc.chase.participant("sampan").teetering
    # Lan, crew, teetered in round 1 and teeters again: Lan falls too (H4, H5)
    assert enc.combatants["lan"].state(StateKind.FALLING) is not None
    assert not enc.combatants["lan"].has(StateKind.TEETER)


def test_h5_the_gm_takes_a_crew_member_off_the_vehicle_from_the_board(window, qtbot):
    doc = window.doc
    c = window.mode_views.board(Mode.CHASE).controls
    panel = c.vehicle
    c.tabs.setCurrentWidget(panel)
    assert panel.aboard.findData("driver") >= 0  # the sample's cart: Wu and his driver
    assert "Cart Driver (Wu's cart, helm)" in [
        panel.aboard.itemText(i) for i in range(panel.aboard.count())
    ]
    panel.aboard.setCurrentIndex(panel.aboard.findData("boss"))
    qtbot.mouseClick(panel.take_off, Qt.MouseButton.LeftButton)
    enc = doc.encounter
    assert enc.chase.vehicles == () and enc.chase.participant("boss") is not None
    assert "out of the chase, everyone aboard runs on (H5)" in enc.log[-1].text
    assert panel.aboard.count() == 0 and not panel.take_off.isEnabled()
    doc.undo_stack.undo()
    assert enc.chase.vehicles and panel.aboard.count() == 2


@pytest.mark.parametrize(
    ("stage", "speed", "kind"),
    [(("steep",), 2, "climb"), (("fluid",), 1, "swim"), (("steep", "fluid"), 1, "the lower")],
)
def test_h4_the_lane_and_the_check_dialog_show_the_stages_speed(window, qtbot, stage, speed, kind):
    """Huang runs 3, climbs 2, swims 1 (the sample): the board and the dialog show the speed
    the check will then use, and the dialog's odds are those of that speed (H4)."""
    doc = window.doc
    board = window.mode_views.board(Mode.CHASE)
    c = board.controls
    assert not doc.push(SetStage(stage, override=True))
    board.refresh()
    assert facts(board.lane("huang").data)[0] == f"speed {speed}"
    assert not doc.push(deal_hands(doc.encounter, random.Random(3)))
    play_round(window, 1)
    for _ in range(12):
        if doc.encounter.actor == "huang":
            break
        window.act_next.trigger()
    assert c.who.currentData() == "huang"
    c.faces.setText("1")
    assert c.do_roll(), c.message.text()
    dialog = c.open_check()
    assert f"speed {speed} ({kind}" in dialog.colours.text()
    odds = wait_odds(qtbot, dialog.odds)
    rules = ruleset_named(doc.encounter.ruleset)
    huang = doc.encounter.chase.participant("huang")
    want = rolled_turn_odds(
        rules, speed, ("green",), 3, (), stage=doc.encounter.chase.stage, total=huang.total
    )
    wrong = rolled_turn_odds(rules, 3, ("green",), 3, ())  # run speed, no subtraction
    assert f"{want.expected_added:+.1f}" != f"{wrong.expected_added:+.1f}"
    assert f"expected {want.expected_added:+.1f} to the total" in odds
    dialog.reject()


def test_h1_the_boards_odds_count_a_granted_extra_die(window, qtbot):
    """Huang's red grants Mei an extra pursuit die: the board's odds for Mei's turn are the
    better of two dice (bad colour 16%, not 40%) and the expected gain is chase_turn_odds'
    with the extra die (H1)."""
    doc = window.doc
    c = window.mode_views.board(Mode.CHASE).controls
    enc = doc.encounter
    assert not doc.push(deal_hands(enc, random.Random(3)))
    play_round(window, 1)
    for _ in range(12):
        if enc.actor == "huang":
            break
        window.act_next.trigger()
    c.faces.setText("6 1")
    assert c.do_roll(), c.message.text()
    assert not doc.push(SpecialAction("huang", Special.GRANT, "mei"))
    c.who.setCurrentIndex(c.who.findData("mei"))
    text = wait_odds(qtbot, c.odds)
    mei = enc.chase.participant("mei")
    want = chase_turn_odds(
        ruleset_named(enc.ruleset), mei.speed, 2, (), extra_die=True, total=mei.total
    )
    assert "extra die: the better of two (H1)" in text
    assert "bad colour 16%" in text and f"expected {want.expected_added:+.1f}" in text
