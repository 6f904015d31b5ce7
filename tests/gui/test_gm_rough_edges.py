"""The rough edges a GM hit playing a full exchange, each driven
through the window or its dialogs as a GM would."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QPushButton

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.dice import ScriptedSource
from tests.gui.conftest import wait_exposed


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


@pytest.fixture
def window(qtbot):
    from PySide6.QtCore import QSettings

    from afdesk.gui.main_window import MainWindow

    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    return w


def test_new_encounter_clears_the_character_dock(window, doc):
    from afdesk.encounter.model import Encounter

    window.set_document(doc)
    cid = (
        next(c.id for c in doc.encounter.roster() if c.notes)
        if any(c.notes for c in doc.encounter.roster())
        else doc.encounter.roster()[0].id
    )
    doc.select(cid)
    panel = window.combatant_panel
    assert panel.cid == cid
    window.set_document(EncounterDocument(Encounter(), journal_factory=lambda d: None))
    assert panel.cid == ""
    assert panel.notes.text() == "" and panel.facets.text() == ""
    assert all(not label.text() for label in panel.counter_labels.values())
    live = [b for b in panel.findChildren(QPushButton) if b.isEnabled() and b.isVisible()]
    assert live == []


def test_a_momentum_marker_does_not_push_the_dock_sideways(window, doc, qtbot):
    """The dock at its ordinary width shows every button without a sideways scrollbar."""
    from PySide6.QtWidgets import QScrollArea

    from afdesk.encounter.ops.roster import AddMomentum

    window.resize(1280, 720)
    window.set_document(doc)
    cid = doc.encounter.roster()[0].id
    doc.select(cid)
    doc.push(AddMomentum(cid, 2, "Huang's Momentum from the ford"))
    panel = window.combatant_panel
    panel.resize(340, 700)
    scroll = panel.findChild(QScrollArea)
    qtbot.waitUntil(lambda: scroll.widget().layout().count() > 0)
    panel.show()
    QApplication.processEvents()
    assert scroll.widget().minimumSizeHint().width() <= scroll.viewport().width()
    assert not scroll.horizontalScrollBar().isVisible()


def test_an_illegal_guard_and_defense_pair_cannot_be_rolled(duel, qtbot):
    """E4: a guard and a defense of the same type (both dodge) cannot contest together;
    the red reason shows and Roll the defense stays off until the choice is legal."""
    from afdesk.encounter.combatant import StateKind
    from afdesk.encounter.ops.roster import AddState

    duel.encounter.apply(AddState("gao", StateKind.DEFENDING))
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([6, 5, 5, 1, 1, 1, 1])
    dlg.dice.roll_check()
    assert dlg.flow.attack_succeeded()
    dlg.defense.choose("dodge", "defense")
    assert dlg.dice.roll_defense.isEnabled()
    dlg.defense.guard_box.setChecked(True)  # the guard's dodge: the same type
    assert "different types" in dlg.reason.text()
    assert not dlg.dice.roll_defense.isEnabled()
    dlg.dice.roll_opposition()
    assert dlg.flow.defense_roll is None


def test_a_cancelled_five_still_shows_its_centre_pip(qtbot):
    """R4: a die struck through by Interference keeps every pip readable (a cancelled 5
    read as a 4)."""
    from afdesk.gui.dice_view import DiceView
    from afdesk.rules.dice import Die, Pool, Roll

    view = DiceView(size=60)
    qtbot.addWidget(view)
    view.set_roll(Roll((Die(5, cancelled_by=1), Die(4, Pool.INTERFERENCE))))
    view.resize(view.sizeHint())
    image = view.grab().toImage()
    rect = view._layout()[0][0]
    centre = image.pixelColor(int(rect.center().x()), int(rect.center().y()))
    # The centre pip is dark grey (faded black), not the strike's red.
    assert centre.red() < 160 and abs(centre.red() - centre.green()) < 30, centre.name()


def _add_off_map(doc, name="Scout"):
    from afdesk.encounter.combatant import Combatant, Side
    from afdesk.encounter.ops.roster import AddCombatant

    assert doc.push(AddCombatant(Combatant("scout", name, Side.OPPONENT))) == ""
    return "scout"


def test_a_character_off_the_map_can_be_selected(window, playing_doc, qtbot):
    """Off the map and not in this round's order: the reflex list and Tab still reach it."""
    doc = playing_doc
    window.set_document(doc)
    cid = _add_off_map(doc)
    order = window.reflex_panel.order
    items = [order.item(i) for i in range(order.count())]
    mine = [it for it in items if it.data(Qt.ItemDataRole.UserRole) == cid]
    assert mine and "off the map" in mine[0].text()
    doc.select("")
    order.itemClicked.emit(mine[0])
    assert doc.selected == cid and window.combatant_panel.cid == cid
    doc.select("")
    seen = {window.map.select_next(1) for _ in range(len(doc.encounter.order) + 1)}
    assert cid in seen


def test_add_character_starts_beside_the_selection(window, doc):
    """Add character: the selected character's side and group, a free area near it."""
    from afdesk.encounter.combatant import Side
    from afdesk.gui.dialogs.character import CharacterDialog

    window.set_document(doc)
    enc = doc.encounter
    pick = next(c for c in enc.roster() if c.side is not Side.OPPONENT and c.on_map)
    doc.select(pick.id)
    dlg = CharacterDialog(doc, None, window)
    assert Side(dlg.side.currentData()) is pick.side and dlg.group.text() == pick.group
    assert dlg.area.text().strip()
    col, row = (int(p) for p in dlg.area.text().split(","))
    assert not enc.occupants((col, row)) and enc.zone.contains((col, row))
    assert max(abs(col - pick.area[0]), abs(row - pick.area[1])) <= 2
    dlg.name.setText("Lookout")
    dlg.buttons.button(dlg.buttons.StandardButton.Ok).click()
    added = next(c for c in enc.roster() if c.name == "Lookout")
    assert added.on_map


def test_duplicate_numbers_the_copy(window, doc, qtbot):
    """Duplicate: "Bandit 3" from "Bandit 2", with its facets, in a free area near it."""
    from afdesk.gui import commands as cmd

    window.set_document(doc)
    enc = doc.encounter
    pick = enc.combatants["bandit-2"]  # the sample's "Bandit 2"
    assert cmd.DUPLICATE in [e.command for e in window_entries(doc, "bandit-2")]
    window.perform("bandit-2", "duplicate")
    dlg = window.dialog
    assert dlg.name.text() == "Bandit 3"
    dlg.buttons.button(dlg.buttons.StandardButton.Ok).click()
    copy = next(c for c in enc.roster() if c.name == "Bandit 3")
    assert copy.facets == pick.facets and copy.side is pick.side and copy.group == pick.group
    assert copy.on_map and copy.area != enc.combatants["bandit-2"].area


def window_entries(doc, cid):
    from afdesk.gui import actions as gm_actions

    return gm_actions.entries(doc, cid)


@pytest.mark.parametrize("theme_name", ["GM", "PLAYER"])
def test_the_map_header_wraps_instead_of_being_cut(qtbot, theme_name):
    """The round line ("Exchange 1 · reflex cards for round 2") is shown whole on the GM's
    map and on the projector."""
    from PySide6.QtGui import QFontMetricsF

    from afdesk.encounter.state import Phase, TurnState
    from afdesk.encounter.summary import headline
    from afdesk.gui.map import theme
    from afdesk.gui.map.overlays import LEGEND_WIDTH, LegendItem
    from afdesk.storage import samples

    enc = samples.build()
    enc.turn = TurnState(phase=Phase.CARDS, exchange=1, round=1)
    text = headline(enc, brief=True)
    assert "reflex cards for round 2" in text
    t = getattr(theme, theme_name)
    legend = LegendItem(t)
    legend.sync("River ford", text, "", None, 600)
    lines = legend.turn_lines()
    assert " ".join(lines) == text
    fm = QFontMetricsF(theme.font(18 * t.text_scale))
    assert all(fm.horizontalAdvance(line) <= LEGEND_WIDTH - 32 for line in lines)


def test_attacking_from_hiding_reveals(duel, qtbot):
    """E6: a hidden character that attacks is revealed, decoys and all, and
    the log says so."""
    from afdesk.encounter.combatant import StateKind
    from afdesk.encounter.ops.roster import AddState, EditCombatant

    enc = duel.encounter
    enc.apply(AddState("huang", StateKind.HIDDEN))
    enc.apply(EditCombatant(enc.combatants["huang"].replace(decoys=((6, 11), (8, 12)))))
    assert enc.combatants["huang"].hidden
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([1, 2, 3, 1, 1, 1])  # it fails: revealed all the same
    dlg.dice.roll_check()
    dlg.apply_button.click()
    huang = enc.combatants["huang"]
    assert not huang.hidden and huang.decoys == ()
    assert "revealed" in enc.log[-1].text
    duel.undo_stack.undo()
    assert enc.combatants["huang"].hidden and len(enc.combatants["huang"].decoys) == 2


def test_persevere_only_after_a_longer_fight_and_only_once(window, playing_doc):
    """E15: a one-exchange fight has no persevere (menu and dock say why); the log counts
    exchanges in words, and says when the last one was dealt but not played."""
    from afdesk.encounter.ops.flow import EndEncounter

    doc = playing_doc
    window.set_document(doc)
    assert doc.push(EndEncounter()) == ""
    assert doc.encounter.log[-1].text == "The encounter ends after 1 exchange"
    assert not window.act_persevere.isEnabled()
    assert "lasted 1 exchange" in window.act_persevere.statusTip()
    button = window.reflex_panel.end_button
    assert "Persevere" in button.text() and not button.isEnabled()


def test_persevere_is_off_once_applied(window):
    """After two exchanges persevere opens; once applied it is off again (E15)."""
    import random

    from afdesk.encounter.ops.flow import EndEncounter, NextTurn
    from afdesk.encounter.ops.reflex import deal_hands, play_cards
    from afdesk.encounter.state import Phase
    from afdesk.gui.dialogs.persevere import PersevereDialog
    from afdesk.rules.dice import RandomSource
    from afdesk.storage import samples

    enc = samples.build()
    rng = random.Random(5)
    for _ in range(2):
        enc.apply(deal_hands(enc, rng))
        while enc.turn.phase is not Phase.EXCHANGE_END:
            if enc.turn.phase is Phase.CARDS:
                enc.apply(play_cards(enc, rng=rng))
            else:
                enc.apply(NextTurn())
    enc.apply(deal_hands(enc, rng))  # exchange 3 dealt, never played
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    window.set_document(doc)
    assert doc.push(EndEncounter()) == ""
    assert doc.encounter.log[-1].text == (
        "The encounter ends after 2 exchanges (exchange 3 was dealt but not played)"
    )
    assert window.act_persevere.isEnabled()
    dlg = PersevereDialog(doc, window, source=RandomSource(1))
    dlg.roll()
    dlg.apply()
    assert doc.encounter.turn.persevered
    assert not window.act_persevere.isEnabled()
    assert not window.reflex_panel.end_button.isEnabled()


def test_log_lines_wrap_and_count_in_words(window, playing_doc, qtbot):
    """A long log line wraps to the dock (no sideways scrolling); "1 hit", not "1 hits"."""
    from afdesk.encounter.combatant import StateKind
    from afdesk.encounter.ops.roster import AddState, TickBleeding

    doc = playing_doc
    window.resize(1280, 720)
    window.set_document(doc)
    actor = doc.encounter.actor
    assert doc.push(AddState(actor, StateKind.BURNING)) == ""
    assert doc.push(TickBleeding(actor, StateKind.BURNING, hits=1)) == ""
    line = doc.encounter.log[-1].text
    assert ": 1 hit (E3)" in line, line
    panel = window.log_panel
    panel.resize(420, 300)
    panel.show()
    view = panel.view
    qtbot.waitUntil(lambda: view.viewport().width() < 420)
    fm = view.fontMetrics()
    rows = [view.model().index(r, 0) for r in range(view.model().rowCount())]
    wide = [i for i in rows if fm.horizontalAdvance(i.data()) > view.viewport().width()]
    assert wide, "the sample's log has lines longer than the dock is wide"
    assert view.horizontalScrollBar().maximum() == 0
    assert all(view.visualRect(i).width() <= view.viewport().width() for i in wide)
    assert all(view.visualRect(i).height() > fm.height() * 1.5 for i in wide)


def test_shifts_line_reads_as_a_sentence(duel, qtbot):
    """ "1 Shift left." (not "1 Shifts left ."), and the referee's pool with its space."""
    from afdesk.encounter.ops.roster import AdjustCounter

    huang = duel.encounter.combatants["huang"]
    duel.encounter.apply(AdjustCounter("huang", "shifts", 1 - huang.shifts))
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([5, 4, 1, 1, 1, 1])
    dlg.dice.roll_check()
    text = dlg.shifts.turn.text()
    assert "1 Shift left." in text and " ." not in text


def test_a_key_move_refusal_shows_on_the_map_until_the_next_action(window, playing_doc):
    """The refusal sits by the token on the map (and in the status bar) until the GM acts
    again; a key move's hint names the keys, not Shift-drag, and ends with a full stop."""
    from afdesk.encounter.ops.flow import NextTurn

    doc = playing_doc
    window.set_document(doc)
    enc = doc.encounter
    other = next(c.id for c in enc.roster() if c.on_map and c.id != enc.actor)
    doc.select(other)
    assert not window.map.step(other, (1, 0))  # not their turn
    text = window.map.refusal_text()
    assert text and text.endswith(".") and "Shift-drag" not in text
    assert "arrow key" in text
    assert window.statusBar().currentMessage()
    assert doc.push(NextTurn()) == ""
    assert window.map.refusal_text() == ""


def test_a_refused_command_stays_in_the_status_bar_until_the_next_action(window, playing_doc):
    from afdesk.encounter.ops.flow import NextTurn
    from afdesk.gui import commands as cmd

    doc = playing_doc
    window.set_document(doc)
    calls = []
    bar = window.statusBar()
    real = bar.showMessage
    bar.showMessage = lambda text, timeout=0: (calls.append((text, timeout)), real(text, timeout))
    assert not window.ctx.run(cmd.DEAL)  # mid-round: no deal
    text, timeout = calls[-1]
    assert text and timeout == 0 and bar.currentMessage() == text
    assert doc.push(NextTurn()) == ""
    assert bar.currentMessage() == ""


def test_end_the_encounter_asks_first_and_says_it_can_be_undone(window, playing_doc, monkeypatch):
    from afdesk.encounter.state import Phase
    from afdesk.gui import commands as cmd

    doc = playing_doc
    window.set_document(doc)
    asked = []
    answers = [False, True]

    def confirm(title, question):
        asked.append(question)
        return answers.pop(0)

    monkeypatch.setattr(window.ctx, "confirm", confirm)
    window.ctx.run(cmd.END)
    assert doc.encounter.turn.phase is not Phase.ENDED and "undo" in asked[0]
    window.ctx.run(cmd.END)
    assert doc.encounter.turn.phase is Phase.ENDED


def test_end_the_exchange_early_is_a_logged_override(window, playing_doc, monkeypatch):
    """The GM ends exchange 1 after its first round: one undoable step, logged as an
    override; the exchange counts as played (E15), and the next can be dealt."""
    from afdesk.encounter.state import Phase
    from afdesk.gui import commands as cmd

    doc = playing_doc
    window.set_document(doc)
    enc = doc.encounter
    before = enc.state()
    monkeypatch.setattr(window.ctx, "confirm", lambda title, question: True)
    assert window.act_end_exchange.isEnabled()
    window.act_end_exchange.trigger()
    assert enc.turn.phase is Phase.EXCHANGE_END and enc.turn.exchanges_played == 1
    assert enc.log[-1].text == "GM override: exchange 1 ends early, after round 1"
    assert cmd.DEAL.available(doc, "").enabled
    assert not window.act_end_exchange.isEnabled()
    doc.undo_stack.undo()
    assert enc.state() == before


def test_after_a_move_the_facing_is_offered(window, playing_doc, qtbot):
    """E11: after a move the mover picks a facing. The map offers it at once (the way it
    went as the default); the keypad turns it; Enter accepts."""
    from afdesk.encounter.geometry import DIRECTIONS

    doc = playing_doc
    window.set_document(doc)
    enc = doc.encounter
    actor = enc.actor
    doc.select(actor)
    view = window.map
    assert view.facing_offer() == ""
    moved = next(d for d in ((0, 1), (1, 0), (-1, 0), (0, -1)) if view.step(actor, d))
    assert moved
    assert view.facing_offer() == actor
    assert "Enter accepts" in view._offer.text()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_2)  # face south, as on a keypad
    assert enc.combatants[actor].facing == DIRECTIONS["S"]
    assert view.facing_offer() == actor
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert view.facing_offer() == ""


def test_the_first_save_as_opens_in_the_gms_encounters_folder(window, doc, monkeypatch):
    """not the folder afdesk happened to start in (Documents/afdesk; the data folder's
    encounters/ when ``$AFDESK_DATA_DIR`` is set, as here)."""
    from pathlib import Path

    from PySide6.QtWidgets import QFileDialog

    from afdesk.paths import encounters_dir

    window.set_document(doc)
    asked = []

    def ask(parent, title, start, filters):
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    assert not window.save_as()
    assert Path(asked[0]).parent == encounters_dir() and encounters_dir().is_dir()
    assert encounters_dir().parent == Path(os.environ["AFDESK_DATA_DIR"])
    assert Path(asked[0]).name == doc.encounter.meta.name + ".afenc"


def test_the_attack_line_is_drawn_while_a_check_is_open(window, duel):
    """Attacker to target on the map while the check dialog is open, gone when it
    closes."""
    window.set_document(duel)
    assert window.map.attack_line() == ""
    window.perform("huang", "hack")
    dlg = window.dialog
    assert isinstance(dlg, ContestDialog)
    assert window.map.attack_line().startswith("Hack → Bandit Chief Gao")
    dlg.reject()
    assert window.map.attack_line() == ""


def test_the_attack_line_follows_the_target_the_check_dialog_picks(window, duel, qtbot):
    """E13: the dialog says when its target changes (``targetChanged``) and the map
    redraws the line to the new target; a dialog that is no check draws none."""
    window.set_document(duel)
    window.perform("huang", "hack")
    dlg = window.dialog
    targets = [dlg.target_box.itemData(i) for i in range(dlg.target_box.count())]
    other = next(cid for cid in targets if cid and cid != "gao")
    with qtbot.waitSignal(dlg.targetChanged):
        dlg.target_box.setCurrentIndex(targets.index(other))
    name = duel.encounter.combatant(other).name
    assert window.map.attack_line().startswith(f"Hack → {name}")
    dlg.reject()
    assert window.map.attack_line() == ""
    window.ctx.open_dialog(QDialog(window))  # no check: nothing to follow
    assert window.map.attack_line() == ""
    window.dialog.reject()
