"""Typed GM commands (item 9): the registry, availability with the model's
reason, triggering through a context, and the same commands bound by the menus, the
docks and the map. Refusals go to the one reporter, not to every dock."""

from __future__ import annotations

import random

import msgspec
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import SetEconomy, TakeAction
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import AddState, PlaceCombatant
from afdesk.encounter.state import Mode, Phase
from afdesk.gui import actions
from afdesk.gui import commands as cmd
from afdesk.gui.commands import CommandContext, CommandRegistry, UnknownCommand
from afdesk.gui.dialogs.cards import PlayCardsDialog
from afdesk.gui.dialogs.character import AddStateDialog, CharacterDialog, MomentumDialog
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.docks.combatant import CombatantPanel
from afdesk.gui.docks.log import LogPanel
from afdesk.gui.docks.reflex import ReflexPanel
from afdesk.gui.document import EncounterDocument
from afdesk.gui.errors import Reporter, words
from afdesk.gui.main_window import MainWindow
from afdesk.gui.screens import screen_of
from afdesk.storage import samples as sample
from afdesk.storage.errors import LoadError


class Table:
    """A context as a window builds it, with the status bar as a list."""

    def __init__(self, doc: EncounterDocument, qtbot) -> None:
        self.status: list[str] = []
        self.parent = QWidget()
        qtbot.addWidget(self.parent)
        self.reporter = Reporter(self.parent, self.status.append)
        self.ctx = CommandContext(self.parent, self.reporter, random.Random(5))
        self.ctx.doc = doc
        self.qtbot = qtbot

    def dialog(self, kind):
        """The dialog a command opened (owned by the parent; closing deletes it)."""
        dlg = self.ctx.dialog
        assert isinstance(dlg, kind)
        return dlg


@pytest.fixture
def table(playing_doc, qtbot):
    return Table(playing_doc, qtbot)


def other_than(enc, cid):
    return next(c.id for c in enc.roster() if c.id != cid and c.on_map)


# ------------------------------------------------------------------------ registry


def test_every_menu_entry_names_a_registered_command(playing_doc):
    doc = playing_doc
    enc = doc.encounter
    enc.apply(AddState("chen", StateKind.HIDDEN))
    enc.apply(AddState("chen", StateKind.BLEEDING, markers=2))
    seen = set()
    for c in enc.roster():
        for entry in actions.entries(doc, c.id):
            assert cmd.REGISTRY[entry.key] is entry.command
            assert entry.label and entry.group
            seen.add(entry.key)
    assert {"target:hack", "creep", "bleed", "remove-state:hidden", "remove"} <= seen


def test_the_menus_list_only_what_the_current_mode_offers(playing_doc, monkeypatch):
    """A mode decides which actions, snaps and checks it offers (item 4): the
    menus ask it, so a mode that leaves out Hack, Defend and Prepare drops them everywhere."""
    from afdesk.encounter import modes
    from afdesk.encounter.economy import SnapKind

    doc = playing_doc
    enc = doc.encounter
    actor = enc.actor
    target = other_than(enc, actor)

    def keys(cid):
        return {e.key for e in actions.entries(doc, cid)}

    assert {"hack", "action:defend", "snap:prepare"} <= keys(actor)
    assert "target:hack" in keys(target)
    left_out = {CheckKind.HACK, ActionKind.DEFEND, SnapKind.PREPARE}
    mode = type(modes.current_mode(enc))
    monkeypatch.setattr(mode, "offers", lambda self, kind: kind not in left_out)
    assert not {"hack", "action:defend", "snap:prepare"} & keys(actor)
    assert "target:hack" not in keys(target)
    assert {"aim", "action:hesitate"} <= keys(actor)


def test_an_unknown_command_is_a_clear_error(qtbot):
    with pytest.raises(UnknownCommand, match="'attack:everyone'"):
        cmd.REGISTRY["attack:everyone"]
    window = MainWindow(QSettings())
    qtbot.addWidget(window)
    window.set_document(EncounterDocument(sample.build(), journal_factory=lambda d: None))
    with pytest.raises(UnknownCommand):
        window.perform("huang", "add-stat")  # a typo no longer passes silently
    with pytest.raises(UnknownCommand):
        window.ctx.run("add-stat", "huang")  # the context finds commands by id too
    window.maybe_save = lambda: True  # closing never asks about the deal
    assert window.ctx.run("deal")  # ... every registered one
    assert window.doc.encounter.turn.phase is not Phase.SETUP


def test_a_command_id_is_registered_once():
    registry = CommandRegistry()
    registry.register(cmd.DealCommand())
    with pytest.raises(ValueError, match="already registered"):
        registry.register(cmd.DealCommand())
    assert len(registry) == 1 and "deal" in registry


# ------------------------------------------------------------- character commands


def test_an_op_command_is_available_as_the_model_says_and_pushes_its_op(table):
    doc = table.ctx.doc
    actor = doc.encounter.actor
    other = other_than(doc.encounter, actor)
    defend = cmd.REGISTRY["action:defend"]
    assert defend.available(doc, actor) == (True, "")
    ok, reason = defend.available(doc, other)
    assert not ok and "turn" in reason
    assert not table.ctx.run(defend, other)  # refused before anything is pushed
    assert table.status == [reason] and doc.undo_stack.count() == 0
    assert table.ctx.run(defend, actor)
    assert doc.encounter.combatants[actor].has(StateKind.DEFENDING)
    assert doc.undo_stack.count() == 1


def test_check_commands_open_the_contest_dialog_for_the_right_people(table):
    doc = table.ctx.doc
    actor = doc.encounter.actor
    other = other_than(doc.encounter, actor)
    table.ctx.run(cmd.REGISTRY["check"], other)
    dlg = table.dialog(ContestDialog)
    assert (dlg.attacker, dlg.action) == (other, CheckKind.CHECK)
    dlg.reject()
    target = cmd.REGISTRY["target:hack"]
    assert target.offered(doc, other) and not target.offered(doc, actor)
    assert target.text(doc, other).startswith(doc.encounter.combatants[actor].name + ": Hack")
    target.trigger(table.ctx, other)  # out of reach or not, the dialog says why
    dlg = table.dialog(ContestDialog)
    assert (dlg.attacker, dlg.action, dlg.plan.target) == (actor, CheckKind.HACK, other)
    dlg.reject()


def test_form_commands_open_their_forms(table):
    for command, kind in (
        (cmd.ADD_STATE, AddStateDialog),
        (cmd.MOMENTUM, MomentumDialog),
        (cmd.EDIT, CharacterDialog),
    ):
        assert table.ctx.run(command, "chen")
        table.dialog(kind).reject()
    assert table.ctx.run(cmd.ADD_CHARACTER)
    assert table.dialog(CharacterDialog).old is None


def test_remove_asks_first(table, monkeypatch):
    doc = table.ctx.doc
    who = other_than(doc.encounter, doc.encounter.actor)
    answers = [False, True]
    monkeypatch.setattr(table.ctx, "confirm", lambda title, question: answers.pop(0))
    table.ctx.run(cmd.REMOVE, who)
    assert who in doc.encounter.combatants
    table.ctx.run(cmd.REMOVE, who)
    assert who not in doc.encounter.combatants


# ------------------------------------------------------------- encounter commands


def test_encounter_commands_follow_the_phase(doc, table):
    table.ctx.doc = doc
    enc = doc.encounter
    assert cmd.DEAL.available(doc, "").enabled
    assert not cmd.PLAY_CARDS.available(doc, "").enabled
    assert "deal first" in cmd.PLAY_CARDS.available(doc, "").reason
    assert not cmd.END.available(doc, "").enabled
    assert not cmd.PERSEVERE.available(doc, "").enabled
    assert cmd.TRIM.available(doc, "") == (False, cmd.trim_words(doc))
    assert table.ctx.run(cmd.ADVANCE)  # Space in setup deals
    assert enc.turn.phase is Phase.CARDS
    assert table.ctx.run(cmd.ADVANCE)  # ... and then opens the cards
    dlg = table.dialog(PlayCardsDialog)
    dlg.reveal()
    assert enc.turn.phase is Phase.TURNS
    actor = enc.actor
    assert cmd.NEXT_TURN.available(doc, "").enabled
    assert table.ctx.run(cmd.ADVANCE)
    assert enc.actor != actor


def test_physical_hands_belong_to_the_document_and_the_deal_asks_them(doc, table):
    table.ctx.doc = doc
    doc.physical_hands.add("huang")
    table.ctx.run(cmd.DEAL)
    hand = doc.encounter.reflex.hand("huang")
    assert hand.physical and not hand.cards


def test_changing_the_mode_mid_exchange_is_a_confirmed_override(table, monkeypatch):
    doc = table.ctx.doc
    answers = [False, True]
    monkeypatch.setattr(table.ctx, "confirm", lambda title, question: answers.pop(0))
    table.ctx.run(cmd.MODES[Mode.CHASE])
    assert doc.encounter.mode is not Mode.CHASE and doc.undo_stack.count() == 0
    table.ctx.run(cmd.MODES[Mode.CHASE])
    assert doc.encounter.mode is Mode.CHASE
    assert "GM override" in doc.encounter.log[-1].text


# -------------------------------------------------------------------- the window


@pytest.fixture
def window(qtbot, playing_doc):
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.set_document(playing_doc)
    return w


def test_the_character_menu_runs_the_commands(window):
    doc = window.doc
    actor = doc.encounter.actor
    doc.select(actor)
    window.char_menu.aboutToShow.emit()
    defend = next(a for a in window.char_menu.actions() if a.data() == "action:defend")
    defend.trigger()
    assert doc.encounter.combatants[actor].has(StateKind.DEFENDING)


def test_the_encounter_menu_is_enabled_as_its_commands_are_available(window):
    doc = window.doc
    assert window.act_next.isEnabled() and not window.act_deal.isEnabled()
    assert window.act_deal.statusTip() == cmd.DEAL.available(doc, "").reason
    assert not window.act_persevere.isEnabled()
    while doc.encounter.turn.phase is Phase.TURNS:
        window.act_next.trigger()
    assert window.act_cards.isEnabled()


def test_a_refusal_goes_to_whoever_pushed_not_to_every_dock(window):
    doc = window.doc
    other = other_than(doc.encounter, doc.encounter.actor)
    doc.select(other)
    reason = doc.push(TakeAction(other, ActionKind.DEFEND))  # e.g. from a dialog
    assert reason
    assert window.combatant_panel.refusal.text() == ""
    assert window.statusBar().currentMessage() != reason
    window.combatant_panel.defend.click()  # the dock's own push: shown beside and below
    assert window.combatant_panel.refusal.text() == reason
    assert window.statusBar().currentMessage() == reason


def test_the_map_asks_the_window_to_run_a_command(window, qtbot):
    doc = window.doc
    actor = doc.encounter.actor
    window.map.actionRequested.emit(actor, "edit")
    dlg = window.dialog
    assert isinstance(dlg, CharacterDialog) and dlg.old.id == actor
    dlg.reject()


# ---------------------------------------------------------------------- the docks


def test_the_docks_take_a_context_and_leave_window_and_screen_alone(table, qtbot):
    for panel in (CombatantPanel(table.ctx), ReflexPanel(table.ctx), LogPanel(table.ctx)):
        qtbot.addWidget(panel)
        panel.set_document(table.ctx.doc)
        assert panel.window() is panel  # QWidget.window(), not a main window attribute
        assert screen_of(panel) is not None
        assert panel.ctx is table.ctx


def test_the_docks_economy_menus_list_what_the_model_says(table, qtbot):
    doc = table.ctx.doc
    panel = CombatantPanel(table.ctx)
    qtbot.addWidget(panel)
    panel.set_document(doc)
    doc.select(doc.encounter.actor)
    snaps = [a.data() for a in panel.economy_menu("snap").actions()]
    assert snaps[:3] == ["distract", "look", "hustle"] and "snap:prepare" in snaps
    acts = [a.data() for a in panel.economy_menu("action").actions()]
    assert acts[:5] == ["hack", "aim", "taunt", "convince", "hide"]
    assert "action:defend" in acts and "check" not in acts
    defend = next(a for a in panel.economy_menu("action").actions() if a.data() == "action:defend")
    defend.trigger()
    assert doc.encounter.combatants[doc.encounter.actor].has(StateKind.DEFENDING)
    assert panel.defend.isChecked()


def test_the_reflex_dock_buttons_run_the_encounter_commands(doc, table, qtbot, monkeypatch):
    table.ctx.doc = doc
    panel = ReflexPanel(table.ctx)
    qtbot.addWidget(panel)
    panel.set_document(doc)
    assert panel.deal_button.isEnabled() and not panel.next_button.isEnabled()
    assert panel.next_button.toolTip() == cmd.NEXT_TURN.available(doc, "").reason
    panel.deal_button.click()
    assert doc.encounter.turn.phase is Phase.CARDS
    assert panel.cards_button.isEnabled()
    panel.cards_button.click()
    table.dialog(PlayCardsDialog).reveal()
    assert panel.next_button.isEnabled()
    actor = doc.encounter.actor
    panel.next_button.click()
    assert doc.encounter.actor != actor
    # The mode box: a declined override leaves the box on the mode the encounter has.
    monkeypatch.setattr(table.ctx, "confirm", lambda title, question: False)
    panel.mode_box.setCurrentIndex(panel.mode_box.findData(Mode.CHASE))
    panel.mode_box.activated.emit(panel.mode_box.currentIndex())
    assert panel.mode_box.currentData() == doc.encounter.mode != Mode.CHASE


def test_the_reflex_dock_keeps_physical_hands_on_the_document(doc, table, qtbot):
    table.ctx.doc = doc
    panel = ReflexPanel(table.ctx)
    qtbot.addWidget(panel)
    panel.set_document(doc)
    box = panel.physical_layout.itemAt(0).widget()
    box.setChecked(True)
    assert len(doc.physical_hands) == 1
    assert panel.physical_hands() == tuple(doc.physical_hands)
    box.setChecked(False)
    assert doc.physical_hands == set()


# ------------------------------------------------------------------ the reporter


def test_the_reporter_words_typed_errors_for_the_gm():
    assert words(IllegalOp("huang has no action left")) == "Huang has no action left."
    assert words(LoadError("bad.afenc", "not JSON")) == "bad.afenc: not JSON"
    assert words(KeyError("x")).startswith("afdesk could not do that (KeyError")


def test_a_refusal_is_shown_beside_the_control_and_in_the_status_bar(qtbot):
    status: list[str] = []
    reporter = Reporter(None, status.append)
    label = QLabel()
    qtbot.addWidget(label)
    reporter.refused("Not now.", beside=label)
    assert label.text() == "Not now." and status == ["Not now."]
    reporter.refused("", beside=label)  # done: the label clears, the status bar is left
    assert label.text() == "" and status == ["Not now."]


def test_next_turn_command_pushes_next_turn(table):
    doc = table.ctx.doc
    actor = doc.encounter.actor
    assert cmd.NEXT_TURN.op(doc, "") == NextTurn()
    table.ctx.run(cmd.NEXT_TURN)
    assert doc.encounter.actor != actor


def test_place_is_not_a_command_but_a_push_through_the_context(table):
    doc = table.ctx.doc
    assert table.ctx.push(PlaceCombatant("lan", (1, 1)), beside=None)
    assert doc.encounter.combatants["lan"].area == (1, 1)


def test_E3_the_turn_start_prompts_an_ongoing_state_once(window):
    """Burning on the actor: the dock prompts it at the turn's start and offers to resolve
    it; once resolved the prompt is gone and a second resolution is refused (E3)."""
    doc = window.doc
    actor = doc.encounter.actor
    doc.push(AddState(actor, StateKind.BURNING))
    doc.select(actor)
    panel = window.combatant_panel
    assert "resolve the fire" in panel.prompts.text() and not panel.prompts.isHidden()
    resolve = next(
        b
        for b in panel.findChildren(QPushButton)
        if b.text() == cmd.RESOLVE[StateKind.BURNING].label
    )
    resolve.click()
    assert "fire" not in panel.prompts.text()
    assert "resolves burning" in doc.encounter.log[-1].text
    entry = next(e for e in actions.entries(doc, actor) if e.key == "resolve:burning")
    assert not entry.enabled and "E3" in entry.reason


def test_E10_a_terrain_prompt_shows_in_the_dock_where_it_happened(window):
    """A fall on a Ledge after Interference is prompted for the character who rolled it,
    even off its turn, so the GM can act (add falling or down)."""
    doc = window.doc
    other = other_than(doc.encounter, doc.encounter.actor)
    c = doc.encounter.combatants[other]
    doc.push(
        SetEconomy(
            other,
            msgspec.structs.replace(
                c.economy, pending=("Gao gained Interference on the Ledge: falls (E10)",)
            ),
        )
    )
    doc.select(other)
    panel = window.combatant_panel
    assert "Ledge: falls (E10)" in panel.prompts.text() and not panel.prompts.isHidden()
