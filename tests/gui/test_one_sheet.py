"""One character form for the roster and the encounter, one New-encounter dialog for File >
New and the campaign's Prepare, and Carry over as the window offers it: weapons typed once
on the roster reach every encounter (E6, E12), lasting states keep their notes (E17), Carry
over waits until the encounter leaves setup and proposes only what the run changed (R10)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from afdesk.encounter.campaign.roster import Role
from afdesk.encounter.campaign.state import Play
from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.ops.reflex import deal_hands
from afdesk.encounter.ops.roster import AddState, AdjustCounter
from afdesk.encounter.weapons import Attack
from afdesk.encounter.zone import EMPTY
from afdesk.gui.campaign.carry_dialog import CarryOverDialog
from afdesk.gui.campaign.prepare_dialog import PrepareDialog
from afdesk.gui.campaign.roster_dialog import RosterDialog
from afdesk.gui.dialogs.character import CharacterDialog
from afdesk.gui.dialogs.character_form import CharacterForm, parse_states
from afdesk.gui.editor.new_encounter import PrepareEncounterDialog
from afdesk.gui.main_window import MainWindow
from tests.gui.conftest import wait_exposed

WEAPONS = "sword, 2\nstaff, 1, 2\nknives, 1\ncrossbow, 3, 0, 8"
ARMED = (
    Attack("sword", 2),
    Attack("staff", 1, reach=2),
    Attack("knives", 1),
    Attack("crossbow", 3, reach=0, range=8),
)
WOUND = State(StateKind.WOUNDED, 2, note="arrow in the shoulder")


@pytest.fixture
def window(qtbot, monkeypatch, tmp_path):
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.rng = random.Random(7)
    qtbot.addWidget(w)
    w.show()
    failures: list[str] = []
    monkeypatch.setattr(w.reporter, "failed", lambda title, err, **kw: failures.append(str(err)))
    w.failures = failures
    folder = tmp_path / "the-river"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    w.act_new_campaign.trigger()
    return w


def _roster(window) -> RosterDialog:
    window.campaign.panel.buttons["roster"].click()
    dlg = window.campaign.dialog
    assert isinstance(dlg, RosterDialog)
    return dlg


def _chen(window) -> str:
    """Chen, typed once into the roster with her weapons and her wound."""
    dlg = _roster(window)
    cid = dlg.add(Role.BAND, "Chen")
    dlg.form.attacks.setPlainText(WEAPONS)
    dlg.form.states.setPlainText("wounded 2 - arrow in the shoulder")
    dlg.form.shifts.setValue(2)
    assert dlg.apply(), dlg.error.text()
    dlg.accept()
    return cid


def test_the_roster_and_the_encounter_edit_on_one_form(window, qtbot):
    cid = _chen(window)
    roster = _roster(window)
    assert type(roster.form) is CharacterForm
    chen = window.campaign.doc.campaign.character(cid)
    assert (chen.attacks, chen.states, chen.shifts) == (ARMED, (WOUND,), 2)
    # A bad line is named, and nothing changes.
    roster.form.states.setPlainText("wounded two - arrow")
    assert not roster.apply()
    assert "State line 1 ('wounded two - arrow') should be" in roster.error.text()
    assert window.campaign.doc.campaign.character(cid) == chen
    roster.reject()

    _prepare(window, "The ford", [cid], empty=False)
    doc = window.doc
    assert doc.path.name == "the-ford.afenc"
    assert doc.encounter.combatant(cid).attacks == ARMED, "Prepare brings the roster's weapons"
    dlg = CharacterDialog(doc, cid, window)
    qtbot.addWidget(dlg)
    assert type(dlg.sheet_form) is CharacterForm, "the very form the roster uses"
    assert dlg.attacks.toPlainText() == "sword, 2, 1, 0\nstaff, 1, 2, 0\nknives, 1, 1, 0\n" + (
        "crossbow, 3, 0, 8"
    )
    assert dlg.sheet_form.states.toPlainText() == "wounded 2 - arrow in the shoulder"
    assert dlg.sheet_form.role.parent() is None and dlg.sheet_form.days.parent() is None


def _prepare(window, title: str, links: list[str], *, empty: bool) -> str:
    window.campaign.panel.buttons["prepare"].click()
    dlg = window.campaign.dialog
    assert isinstance(dlg, PrepareDialog) and isinstance(dlg, PrepareEncounterDialog)
    dlg.choose(
        name=title, ruleset=dlg.ruleset.itemData(0), tileset=dlg.tileset.itemData(0), empty=empty
    )
    dlg.picker.choose(links)
    dlg.accept()
    assert not dlg.error.text(), dlg.error.text()
    (e,) = [e for e in window.campaign.doc.campaign.encounters if e.title == title]
    window.open_path(window.campaign.doc.path_of(e.file))
    return e.id


def test_an_encounter_edit_keeps_the_fight_states_and_saves_a_new_note(window, qtbot):
    cid = _chen(window)
    _prepare(window, "The ford", [cid], empty=False)
    doc = window.doc
    assert doc.push(AddState(cid, StateKind.HIDDEN)) == ""
    dlg = CharacterDialog(doc, cid, window)
    qtbot.addWidget(dlg)
    dlg.buttons.accepted.emit()  # nothing changed on the form: nothing changes
    chen = doc.encounter.combatant(cid)
    assert set(chen.states) == {WOUND, State(StateKind.HIDDEN)} and chen.attacks == ARMED
    dlg = CharacterDialog(doc, cid, window)
    qtbot.addWidget(dlg)
    dlg.sheet_form.states.setPlainText("wounded 2 - bandaged")
    dlg.buttons.accepted.emit()
    assert not dlg.error.text()
    states = doc.encounter.combatant(cid).states
    assert State(StateKind.WOUNDED, 2, note="bandaged") in states
    assert doc.encounter.combatant(cid).has(StateKind.HIDDEN), "a fight state stays"


def test_prepare_offers_file_news_empty_zone_and_opens_the_zone_editor(window):
    cid = _chen(window)
    eid = _prepare(window, "The camp", [cid], empty=True)
    e = window.campaign.doc.campaign.encounter(eid)
    assert window.doc.path == window.campaign.doc.path_of(e.file)
    assert window.zone_editor.action.isChecked(), "an empty zone opens the zone editor (E9)"
    zone = window.doc.encounter.zone
    assert {t.kind for t in zone.tiles} == {EMPTY} and zone.size() == (3, 3)
    chen = window.doc.encounter.combatant(cid)
    assert chen.attacks == ARMED and chen.link == cid, "the roster's weapons, not re-typed"


def test_carry_over_waits_for_setup_and_keeps_a_new_sessions_shifts(window):
    cid = _chen(window)
    control = window.campaign
    eid = _prepare(window, "The ford", [cid], empty=False)
    control.panel.select(eid)
    control.panel.buttons["run"].click()
    doc = window.doc
    assert control.doc.campaign.encounter(eid).play is Play.RUNNING
    carry = control.panel.buttons["carry"]
    assert not carry.isEnabled() and "still in setup" in carry.toolTip()
    control.carry_over(eid)
    assert control.dialog is None or not isinstance(control.dialog, CarryOverDialog)
    assert any("still in setup" in f for f in window.failures)
    assert doc.push(deal_hands(doc.encounter, random.Random(3))) == ""
    assert carry.isEnabled(), "dealt: the encounter is being played"
    # New session mid-run (R10): the roster has 3 again, the copy keeps 2.
    window.campaign.ask = lambda *a: True
    control.new_session()
    assert control.doc.campaign.character(cid).shifts == 3
    assert doc.push(AdjustCounter(cid, "hits", 1)) == ""
    assert doc.push(AddState(cid, StateKind.EXHAUSTED, note="no sleep at the ford")) == ""
    assert window.save()
    carry.click()
    dlg = control.dialog
    assert isinstance(dlg, CarryOverDialog)
    fields = [(ln.field, ln.after, ln.note) for ln in dlg.lines]
    assert fields == [("hits", 1, ""), ("exhausted", 0, "no sleep at the ford")]
    assert dlg.referee is None
    dlg.accept()
    chen = control.doc.campaign.character(cid)
    assert (chen.shifts, chen.hits) == (3, 1)
    assert set(chen.states) == {WOUND, State(StateKind.EXHAUSTED, note="no sleep at the ford")}


def test_state_lines_say_what_is_wrong_and_where():
    assert parse_states("wounded 2 - arrow in the shoulder\n\nexhausted") == (
        WOUND,
        State(StateKind.EXHAUSTED),
    )
    for text, said in (
        ("bruised", "state line 1: 'bruised' is not a state"),
        ("exhausted\nhidden", "state line 2: hidden does not last"),
        ("wounded 2 3", "state line 1 ('wounded 2 3') should be"),
        ("wounded\nwounded 1", "state line 2: wounded is given twice"),
        (" - a note", "names no state"),
    ):
        with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")):
            parse_states(text)


def test_the_form_and_prepare_fit_a_1280x720_screen(window, qtbot, monkeypatch):
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QDialogButtonBox

    from afdesk.gui import screens

    laptop = QRect(0, 0, 1280, 720)
    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(laptop))

    def fits(dlg) -> None:
        qtbot.addWidget(dlg)
        dlg.show()
        dlg.move(0, 0)
        wait_exposed(qtbot, dlg)
        name = type(dlg).__name__
        assert dlg.height() <= 680 and dlg.width() <= 1280, name
        buttons = [b for box in dlg.findChildren(QDialogButtonBox) for b in box.buttons()]
        assert buttons or name == "RosterDialog"
        for b in buttons or [dlg.apply_button]:
            corner = b.mapTo(dlg, b.rect().bottomRight())
            assert dlg.rect().contains(corner), f"{name}: {b.text()} off screen"

    cid = _chen(window)
    fits(_roster(window))
    window.campaign.panel.buttons["prepare"].click()
    prepare = window.campaign.dialog
    fits(prepare)
    prepare.picker.choose([cid])
    prepare.accept()
    fits(CharacterDialog(window.doc, cid, window))
