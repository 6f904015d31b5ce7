"""The infiltration's last rule gaps in the GM's window: the decoy a fumble while hidden
costs, picked on the decisions bar (N4d), moving a hidden character's decoys (N5), the
target's perception against a surprise attack in the check dialog (N7), and the snags seen
at 1280x720 (the facing prompt after leaving, the ticker's words, the dock's Who box, the
decoy labels on the map)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.contest.assembly import CheckKind, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.state import Mode
from afdesk.gui.main_window import MainWindow
from afdesk.gui.text import pct
from afdesk.rules.dice import ScriptedSource
from tests.gui.conftest import wait_exposed


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    return w


def _open_sample(w):
    w.mode_views.samples[Mode.INFILTRATION].trigger()
    assert w.doc.encounter.mode is Mode.INFILTRATION
    return w.mode_views.extras[Mode.INFILTRATION]


def test_n4d_a_fumble_while_hidden_asks_on_the_decisions_bar_which_decoy_goes(window):
    _open_sample(window)
    doc = window.doc
    plan = assemble(doc.encounter, "huang", CheckKind.CHECK, facet="sneak")
    flow = ContestFlow(doc.encounter, plan)
    flow.add_gm_modifier("Dark", -2)
    flow.roll_attack(ScriptedSource([1] * plan.dice + [5, 5]))  # a Fumble (R6)
    assert doc.push(flow.op()) == ""
    bar = window.decisions
    (row,) = [r for r in bar.rows if r.decision.kind == "decoy"]
    assert "Huang fumbled while hidden" in row.text.text() and "(N4d)" in row.text.text()
    assert [b.text() for b in row.buttons] == ["Lose (1, 2)", "Lose (3, 2)"]
    assert bar.isVisibleTo(window)
    row.buttons[1].click()
    huang = doc.encounter.combatants["huang"]
    assert huang.hidden and huang.decoys == ((1, 2),)
    assert not [r for r in bar.rows if r.decision.kind == "decoy"]  # decided: gone
    doc.undo_stack.undo()  # one undo step brings the decision back
    assert [r.decision.kind for r in bar.rows] == ["decoy"]


def _at_turn_of(window, cid: str):
    from afdesk.gui.document import EncounterDocument
    from afdesk.storage.samples import build_warehouse
    from tests.encounter.conftest import start_round, turn_of

    enc = build_warehouse()
    start_round(enc)
    turn_of(enc, cid)
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    window.set_document(doc)
    return doc


def test_n5_the_dock_moves_a_hidden_characters_decoys_within_its_speed(window):
    _layer, panel = _open_sample(window)
    doc = window.doc
    doc.select("huang")
    moves = panel.decoy_moves
    assert moves is not None and len(moves.boxes) == 2
    assert not moves.button.isEnabled()  # before play: not Huang's turn (says why)
    assert "turn" in moves.button.toolTip()
    doc = _at_turn_of(window, "huang")
    doc.select("huang")
    moves = panel.decoy_moves
    assert not moves.button.isEnabled()  # no area picked yet
    assert moves.button.toolTip() == "pick where a decoy goes first (N5)"
    box = moves.boxes[0]  # the decoy at (1, 2)
    texts = [box.itemText(i) for i in range(box.count())]
    assert texts[0] == "stays at (1, 2)" and "to (0, 0)" in texts
    assert all("(4, 2)" not in t for t in texts)  # 3 areas away: past the speed 2 (E14)
    box.setCurrentIndex(texts.index("to (0, 0)"))
    assert moves.button.isEnabled()
    moves.button.click()
    huang = doc.encounter.combatants["huang"]
    assert huang.hidden and (0, 0) in huang.decoys and (1, 2) not in huang.decoys
    assert doc.encounter.log[-1].text.startswith("Huang maneuvers while hidden")
    moves = panel.decoy_moves  # the dock shows the new places, and the action is spent
    assert not moves.boxes[0].itemText(0).endswith("(1, 2)")
    assert not moves.button.isEnabled()
    assert moves.button.toolTip() == "Huang has already used the action this turn (maneuver)"


def _ambush_doc(window, *ops):
    """The warehouse at Huang's turn, Huang at its decoy (3, 2), Dock Guard 1 at (4, 3)
    facing it (north), then ``ops``."""
    from afdesk.encounter.infiltration.ops import HiddenActsFrom
    from afdesk.encounter.ops.roster import PlaceCombatant, SetFacing

    doc = _at_turn_of(window, "huang")
    for op in (
        HiddenActsFrom("huang", (3, 2)),
        PlaceCombatant("guard-1", (4, 3)),
        SetFacing("guard-1", 0.0, override=True),
        *ops,
    ):
        assert doc.push(op) == ""
    return doc


def _dialog(window, doc):
    from afdesk.gui.dialogs.contest import ContestDialog

    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "guard-1", window)
    return dlg


def _open_defenses(dlg) -> list[tuple[str, str]]:
    return [
        (o.kind.value, o.via.value)
        for b, o in dlg.defense.options()
        if o is not None and b.isEnabled()
    ]


def test_n7_the_check_dialog_offers_the_perception_and_it_opens_the_defenses(window, qtbot):
    from afdesk.encounter.combatant import StateKind
    from afdesk.encounter.ops.roster import AddState

    doc = _ambush_doc(window, AddState("guard-1", StateKind.DEFENDING))
    dlg = _dialog(window, doc)
    qtbot.addWidget(dlg)
    p = dlg.step
    assert p.isVisibleTo(dlg) and p.button.isEnabled()
    assert p.button.text() == "&Perceive (study, spends guard)"
    odds = p.check.odds_query()()
    assert f"It stands <b>{pct(odds.p_attack_lands)}</b> (exact)" in p.text.text()
    assert "study <b>2</b> dice against Huang's sneak <b>3</b> dice" in p.text.text()
    assert _open_defenses(dlg) == []  # nothing contests the surprise attack yet (N7)
    dlg.source = ScriptedSource([5, 4, 1, 2, 3, 5, 5, 6, 1, 2])
    p.button.click()  # study 5 against a failed sneak: it stands
    assert "the perception stands (N7)" in p.text.text()
    assert _open_defenses(dlg) == [("parry", "defense")]  # not the guard, not a dodge (E8)
    assert not p.button.isEnabled()
    dlg.dice.roll_attack.click()
    dlg.defense.choose("parry", "defense")
    dlg.dice.roll_defense.click()
    dlg.apply_button.click()
    text = doc.encounter.log[-1].text
    assert text.startswith("Dock Guard 1 tries to perceive Huang (study [5,4])")
    assert "Dock Guard 1 parries (defense)" in text
    guard = doc.encounter.combatants["guard-1"]
    assert guard.economy.guards == 0 and not guard.has(StateKind.DOWN)


def test_n7_a_perception_that_fails_leaves_the_attack_uncontested_and_the_target_down(
    window, qtbot
):
    from afdesk.encounter.combatant import StateKind

    doc = _ambush_doc(window)
    dlg = _dialog(window, doc)
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([1, 2, 5, 5])
    dlg.step.button.click()  # the study fails: no sneak needed (R9)
    assert "the perception fails (N7)" in dlg.step.text.text()
    assert "nothing contests the attack" in dlg.reason.text()
    assert _open_defenses(dlg) == []
    dlg.dice.roll_attack.click()
    dlg.apply_button.click()  # the attack does 0 hits: the dialog asks first
    assert dlg.apply_button.text() == "&Apply with 0 hits"
    dlg.apply_button.click()
    guard = doc.encounter.combatants["guard-1"]
    assert guard.has(StateKind.DOWN) and guard.economy.guards == 0
    assert "Dock Guard 1 is left down (N7)" in doc.encounter.log[-1].text


def test_n7_the_perception_is_not_offered_once_the_attack_is_rolled_or_outside_n7(window, qtbot):
    doc = _ambush_doc(window)
    dlg = _dialog(window, doc)
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([5, 5])
    dlg.dice.roll_attack.click()
    assert not dlg.step.button.isEnabled()
    assert "before the attack's dice (N7)" in dlg.step.button.toolTip()
    from afdesk.gui.dialogs.contest import ContestDialog

    plain = ContestDialog(doc, "huang", CheckKind.CREEP, "", window)
    qtbot.addWidget(plain)
    assert not plain.step.isVisibleTo(plain)  # a Creep is no surprise attack


def test_the_facing_prompt_goes_when_the_intruder_leaves_by_an_edge(window):
    from afdesk.encounter.infiltration.ops import Reveal

    doc = _at_turn_of(window, "huang")
    assert doc.push(Reveal("huang", (1, 2))) == ""  # the alarm: a normal turn
    doc.select("huang")
    view = window.map
    assert view.step("huang", (0, -1)) and view.step("huang", (0, -1))  # to (1, 0)
    assert view.facing_offer() == "huang"
    panel = window.mode_views.extras[Mode.INFILTRATION][1]
    panel.buttons["left:huang"].click()  # out by the north edge (N8)
    assert not doc.encounter.combatants["huang"].on_map, panel.refusal.text()
    assert view.facing_offer() == ""


def test_decoys_sharing_an_area_get_one_owners_tag_and_one_seen_tag(window):
    from afdesk.encounter.ops.roster import EditCombatant, SetFacing
    from afdesk.gui.infiltration.layer import Tag

    layer, _panel = _open_sample(window)
    doc = window.doc
    huang = doc.encounter.combatants["huang"]
    assert doc.push(EditCombatant(huang.replace(area=(1, 2), decoys=((1, 2), (11, 3))))) == ""
    assert doc.push(SetFacing("guard-1", 0.0, override=True)) == ""  # sees (11, 3) (N4a)
    assert layer.decoy_tags[(11, 3)] == "decoys: Hu, Me"  # the tokens' labels
    assert layer.decoy_tags[(1, 2)] == "decoy: Huang"
    owners = {(o, d) for _obs, _at, o, d in layer.lines}
    assert {("huang", (11, 3)), ("mei", (11, 3))} <= owners  # both decoys there are seen
    assert layer.seen_tags[(11, 3)] == "SEEN by D1"
    texts = [i.text for i in layer.items if isinstance(i, Tag)]
    decoy_tags = sorted(t for t in texts if t.startswith("decoy"))
    assert decoy_tags == ["decoy: Huang", "decoy: Mei", "decoys: Hu, Me"]  # not piled up
    assert sorted(t for t in texts if t.startswith("SEEN")) == sorted(layer.seen_tags.values())
