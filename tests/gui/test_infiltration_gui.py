"""The infiltration in the GM's window and on the players' screen (E16, N1-N8): the sample
from File > Open sample, the map layer (badges, watch steps, the decoys seen and by whom,
the alarm), the Infiltration dock's buttons as Ops, the refusals the menus show before the
GM tries (N3, N4a), the players' map with no owner on a decoy, and a battle switched to an
infiltration at an exchange end (E16)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.infiltration.ops import RaiseAlarm
from afdesk.encounter.infiltration.watch import seen_decoys, watch_steps
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import PlaceCombatant, SetFacing
from afdesk.encounter.state import Mode, Phase
from afdesk.gui import actions
from afdesk.gui.document import EncounterDocument
from afdesk.gui.infiltration.install import InfiltrationViews
from afdesk.gui.main_window import MainWindow
from afdesk.gui.player_view import PlayerWindow
from afdesk.gui.token_menu import token_menu
from afdesk.storage.samples import build_warehouse
from tests.encounter.conftest import start_round, turn_of
from tests.gui.conftest import wait_exposed
from tests.gui.odds_wait import settled_odds


@pytest.fixture
def window(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    return w


def _open_sample(w) -> InfiltrationViews:
    w.mode_views.samples[Mode.INFILTRATION].trigger()
    assert w.doc.encounter.mode is Mode.INFILTRATION
    views = w.mode_views.extras[Mode.INFILTRATION]
    assert isinstance(views, InfiltrationViews)
    return views


def test_the_sample_opens_on_the_map_with_the_layer_and_the_dock(window):
    views = _open_sample(window)
    assert window.mode_views.stack.currentWidget() is window.map  # the map is its view
    assert (
        "Smugglers' warehouse (an infiltration)"
        in window.mode_views.samples[Mode.INFILTRATION].text()
    )
    layer, panel = views
    assert layer.badges == {"guard-1": "UNAWARE", "guard-2": "UNAWARE", "foreman": "UNAWARE"}
    assert set(layer.steps) == {"guard-1", "guard-2", "foreman"}  # N3: each one's step
    assert layer.banner.startswith("No alarm: 3 guardian(s) unaware")
    assert all(item.scene() is window.map.map_scene for item in layer.items)
    assert panel.parentWidget().isVisibleTo(window)  # the dock shows in an infiltration
    assert panel.objective_boxes.keys() == {"ledger", "crates"}


def test_confirm_all_moves_every_unaware_guardian_and_confirm_moves_one(window):
    layer, panel = _open_sample(window)
    enc = window.doc.encounter
    steps = {s.id: s for s in watch_steps(enc)}
    panel.buttons["confirm:guard-2"].click()
    assert enc.combatants["guard-2"].area == steps["guard-2"].area
    assert enc.combatants["guard-1"].area == (6, 6)  # only the one confirmed
    steps = {s.id: s for s in watch_steps(enc)}
    assert set(steps) == {"guard-1", "foreman"}  # guard-2 stepped this turn (N3)
    panel.confirm_all.click()
    for gid, s in steps.items():
        c = enc.combatants[gid]
        assert c.area == s.area and c.facing == pytest.approx(s.facing)  # N3
    assert layer.steps == {} and watch_steps(enc) == ()  # one step a turn (N3)
    window.doc.undo_stack.undo()  # Confirm all is one undo step
    assert all(enc.combatants[g].area == s.area for g, s in steps.items()) is False


def test_confirm_all_once_a_turn_is_disabled_with_the_reason(window):
    """N3: after Confirm all, a second one in the same turn is refused: the button is
    disabled and says why; pressed anyway, it changes nothing and says why (N3)."""
    _layer, panel = _open_sample(window)
    doc = window.doc
    assert panel.confirm_all.isEnabled()
    panel.confirm_all.click()
    assert not panel.confirm_all.isEnabled()
    assert "has taken its watch step this turn" in panel.confirm_all.toolTip()
    assert panel.confirm_all.toolTip().endswith("(N3)")
    assert (
        panel.findChild(QLabel, "watchedThisTurn")
        .text()
        .startswith("Dock Guard 1, Dock Guard 2, Foreman Gao: watch step taken this turn")
    )
    before, steps = doc.encounter.state(), doc.undo_stack.count()
    panel._confirm_all()  # as if pressed anyway
    assert doc.encounter.state() == before and doc.undo_stack.count() == steps
    assert "(N3)" in panel.refusal.text()


def test_a_move_that_puts_a_decoy_in_a_clear_line_draws_the_seen_line(window):
    layer, panel = _open_sample(window)
    doc = window.doc
    assert layer.lines == [] and seen_decoys(doc.encounter) == {}
    assert doc.push(SetFacing("guard-1", 0.0, override=True)) == ""  # now facing north
    seen = seen_decoys(doc.encounter)
    assert seen  # N4a: re-checked after the facing change
    assert {(o, d) for _obs, _at, o, d in layer.lines} == set(seen)
    assert all(obs == "guard-1" and at == (6, 6) for obs, at, _o, _d in layer.lines)
    (owner, area), _who = next(iter(seen.items()))
    key = f"eliminate:{owner}@({area[0]}, {area[1]})"
    assert doc.push(SetFacing("guard-1", 180.0, override=True)) == ""
    assert layer.lines == [] and key not in panel.buttons  # gone with the line
    # a move: the guardian steps to where it looks along the decoys' row
    assert doc.push(PlaceCombatant("guard-1", (12, 6))) == ""
    assert doc.push(SetFacing("guard-1", 0.0, override=True)) == ""
    assert layer.lines and all(o == "mei" for _obs, _at, o, _d in layer.lines)
    mei = next(k for k in panel.buttons if k.startswith("eliminate:mei"))
    panel.buttons[mei].click()
    assert len(doc.encounter.combatants["mei"].decoys) == 1  # N4: eliminated


def _at_turn_of(window, cid: str, *ops) -> EncounterDocument:
    """The warehouse after ``ops``, dealt, at ``cid``'s turn, shown in ``window``."""
    enc = build_warehouse()
    for op in ops:
        enc.apply(op)
    start_round(enc)
    turn_of(enc, cid)
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    window.set_document(doc)
    return doc


def _menu_actions(menu) -> list:
    out = []
    for a in menu.actions():
        out.append(a)
        if a.menu() is not None:
            out.extend(_menu_actions(a.menu()))
    return out


def test_the_menus_say_why_before_the_gm_tries_n3(window):
    doc = _at_turn_of(window, "guard-1")
    entries = {e.key: e for e in actions.entries(doc, "guard-1")}
    for key in ("hack", "hide", "look", "action:maneuver", "snap:prepare", "screen"):
        assert not entries[key].enabled and entries[key].reason.endswith("(N3)")
    menu = token_menu(window, doc, "guard-1", lambda e: None, lambda r: None)
    tips = {a.text(): a.toolTip() for a in _menu_actions(menu) if not a.isEnabled()}
    assert "Defend" in " ".join(tips) and all(
        "(N3)" in tip for text, tip in tips.items() if text != "Recover"
    )


def test_a_hide_in_a_clear_line_is_greyed_with_n4a(window):
    from afdesk.encounter.infiltration.ops import Reveal

    doc = _at_turn_of(
        window,
        "huang",
        Reveal("huang", (1, 2)),  # the alarm: every guardian alerted (N6)
        SetFacing("guard-1", 0.0, override=True),
        PlaceCombatant("huang", (6, 5)),
    )
    hide = next(e for e in actions.entries(doc, "huang") if e.key == CheckKind.HIDE.value)
    assert not hide.enabled
    assert hide.reason.startswith("Huang cannot hide: Dock Guard 1 has a clear line on Huang (N4a)")
    menu = token_menu(window, doc, "huang", lambda e: None, lambda r: None)
    greyed = next(a for a in _menu_actions(menu) if a.data() == "hide")
    assert not greyed.isEnabled() and "(N4a)" in greyed.toolTip()


def test_the_dock_reveals_raises_the_alarm_and_marks_objectives(window):
    layer, panel = _open_sample(window)
    enc = window.doc.encounter
    panel.buttons["act:huang@(3, 2)"].click()  # N5/N7: acts from that decoy
    assert enc.combatants["huang"].area == (3, 2) and enc.combatants["huang"].hidden
    panel.buttons["reveal:huang@(3, 2)"].click()
    assert not enc.combatants["huang"].hidden and enc.infiltration.alarm  # N5, N6
    assert layer.banner.startswith("ALARM raised (N6)")
    assert set(layer.badges.values()) == {"ALERT"}
    assert not panel.alarm.isEnabled()
    window.doc.select("huang")
    assert "hide:huang" not in panel.buttons  # no fresh start after the alarm (N2, N6)
    panel.objective_boxes["ledger"].click()
    assert enc.infiltration.objective("ledger").done  # N1
    panel.alarm.setEnabled(True)
    panel.alarm.click()  # refused: shown under the buttons, nothing changes
    assert "already raised (N6)" in panel.refusal.text()


def test_leaving_by_an_edge_records_it_and_the_end_shows(window):
    layer, panel = _open_sample(window)
    doc = window.doc
    for cid in ("huang", "mei"):
        doc.select(cid)
        assert doc.push(PlaceCombatant(cid, (2 if cid == "huang" else 12, 0))) == ""
        panel.buttons[f"left:{cid}"].click()
        assert panel.refusal.text() == ""
    inf = doc.encounter.infiltration
    assert [(d.id, d.edge) for d in inf.left] == [("huang", "north"), ("mei", "north")]
    assert doc.encounter.combatants["huang"].exited  # left the zone (E9)
    assert layer.banner == "The infiltration is over: every intruder has left by an edge (N8)"
    assert "over" in panel.status.text()


def test_the_players_map_shows_decoys_never_an_owner(window, qtbot):
    _open_sample(window)
    doc = window.doc
    players = PlayerWindow(doc)
    qtbot.addWidget(players)
    players.show()
    scene = players.view.map_scene
    assert len(scene.decoys) == 4 and not {"huang", "mei"} & set(scene.tokens)
    assert all(item._text == "" for item in scene.decoys.values())  # no initials (N2)
    gm = window.map.map_scene
    assert {item._text for item in gm.decoys.values()} == {"Hu", "Me"}  # the GM sees whose
    assert not any("Huang" in i.toolTip() or "Mei" in i.toolTip() for i in scene.items())
    table = players.mode_extras[Mode.INFILTRATION]
    assert doc.push(SetFacing("guard-1", 0.0, override=True)) == ""  # decoys seen (N4a)
    assert table.items == [] and table.banner == ""  # nothing the players may not know
    assert doc.push(RaiseAlarm()) == ""
    assert table.banner == "ALARM! The guards are alerted"  # N6, once raised
    assert [i.scene() for i in table.items] == [scene]
    assert table.lines == [] and table.steps == {} and table.badges == {}


def test_a_battle_switched_to_infiltration_at_an_exchange_end_keeps_everyone(window, doc):
    window.set_document(doc)
    enc = doc.encounter
    before = dict(enc.combatants)
    rng = random.Random(5)
    assert doc.push(deal_hands(enc, rng)) == ""
    while enc.turn.phase is not Phase.EXCHANGE_END:
        if enc.turn.phase is Phase.TURNS:
            assert doc.push(NextTurn()) == ""
        else:
            assert doc.push(play_cards(enc, rng=rng)) == ""
    assert doc.push(ChangeMode(Mode.INFILTRATION)) == ""  # E16, no override needed
    assert enc.mode is Mode.INFILTRATION and set(enc.combatants) == set(before)
    assert all(enc.combatants[c].area == before[c].area for c in before)
    layer, panel = window.mode_views.extras[Mode.INFILTRATION]
    assert panel.parentWidget().isVisibleTo(window)
    assert layer.banner.startswith("No roles yet (N1)")  # no roles yet (N1), no alarm
    doc.undo_stack.undo()
    assert enc.mode is Mode.BATTLE and not panel.parentWidget().isVisibleTo(window)
    assert layer.items == []


def test_the_watch_is_a_study_check_in_the_check_dialog_with_its_odds(window, qtbot):
    _layer, panel = _open_sample(window)
    panel.buttons["watch:foreman"].click()
    dlg = panel.dialog
    assert dlg is not None and dlg.attacker == "foreman"
    assert dlg.facet_box.currentData() == "study" and dlg.flow.plan.facet == "study"  # N3
    assert "%" in settled_odds(qtbot, dlg)  # the exact odds of the watch
    dlg.reject()


def test_start_hidden_sets_up_the_selected_intruder_by_n2_or_says_why_not(window):
    _layer, panel = _open_sample(window)
    doc = window.doc
    from afdesk.encounter.combatant import StateKind
    from afdesk.encounter.ops.roster import RemoveState

    # Un-hidden by the GM before any alarm (a Reveal would raise it, N6: no set-up then).
    assert doc.push(RemoveState("huang", StateKind.HIDDEN)) == ""
    doc.select("huang")
    panel.buttons["hide:huang"].click()
    huang = doc.encounter.combatants["huang"]
    assert huang.hidden and len(huang.decoys) == 2 and panel.refusal.text() == ""
    assert doc.push(RemoveState("huang", StateKind.HIDDEN)) == ""
    assert doc.push(PlaceCombatant("huang", (7, 6))) == ""  # Dock Guard 1's tile
    panel.buttons["hide:huang"].click()
    assert "in a tile holding a guardian (N2)" in panel.refusal.text()
    assert not doc.encounter.combatants["huang"].hidden  # nothing changed


def test_the_dock_shows_only_in_an_infiltration_whatever_a_restored_workspace_says(
    window, doc, qtbot
):
    window.set_document(doc)  # a battle
    _layer, panel = window.mode_views.extras[Mode.INFILTRATION]
    dock = panel.parentWidget()
    assert not dock.isVisibleTo(window)
    dock.show()  # as restoreState would
    qtbot.waitUntil(lambda: not dock.isVisibleTo(window))
    assert doc.push(ChangeMode(Mode.INFILTRATION, override=True)) == ""
    assert dock.isVisibleTo(window)


def test_a_battle_turned_infiltration_offers_the_roles_then_the_hidden_start(window):
    """A battle switched at an exchange end has nobody in a role: the dock says so and
    sets them by team in one click (N1); the selected intruder then starts hidden (N2)
    and the opponents stand unaware with their watch steps (N3)."""
    from afdesk import paths
    from afdesk.encounter.combatant import Side
    from afdesk.encounter.ops.flow import EndExchangeEarly

    assert window.open_bundled(paths.resource_dir() / "encounters" / "river-ford.afenc")
    doc = window.doc
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndExchangeEarly())
    assert not doc.push(ChangeMode(Mode.INFILTRATION))  # at the exchange end (E16)
    layer, panel = window.mode_views.extras[Mode.INFILTRATION]
    assert {"roles:band", "roles:opponents"} <= set(panel.buttons)
    assert "No roles yet" in panel.status.text()  # not "0 guardian(s) unaware"
    assert layer.banner == "No roles yet (N1): see the Infiltration dock"
    panel.buttons["roles:band"].click()
    enc = doc.encounter
    band = {cid for cid, c in enc.combatants.items() if c.side is Side.BAND}
    foes = {cid for cid, c in enc.combatants.items() if c.side is Side.OPPONENT}
    assert set(enc.infiltration.intruders) == band and set(enc.infiltration.guardians) == foes
    assert "roles:band" not in panel.buttons  # asked once
    assert set(layer.badges) == foes and set(layer.badges.values()) == {"UNAWARE"}
    intruder = sorted(band)[0]
    doc.select(intruder)
    panel.buttons[f"hide:{intruder}"].click()
    assert enc.combatants[intruder].hidden and len(enc.combatants[intruder].decoys) == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()  # the roles are one step of their own
    assert enc.infiltration.intruders == () and "roles:band" in panel.buttons


def test_the_edge_to_leave_by_is_the_one_the_intruder_stands_at(window):
    """The Who got out box offers the edge nearest where the intruder truly is (hidden
    too), so one click records it (E9, N8), instead of north whatever the place."""
    from PySide6.QtWidgets import QComboBox

    _layer, panel = _open_sample(window)
    doc = window.doc
    assert doc.push(PlaceCombatant("mei", (14, 7))) == ""  # the east wall, still hidden
    doc.select("mei")
    (edge,) = [b for b in panel.findChildren(QComboBox, "leftEdge") if not b.isHidden()]
    assert edge.currentText() == "east"
    panel.buttons["left:mei"].click()
    assert panel.refusal.text() == ""
    assert [(d.id, d.edge) for d in doc.encounter.infiltration.left] == [("mei", "east")]


def test_the_roles_buttons_fit_the_dock_at_1280x720(qtbot, tmp_path, monkeypatch):
    """On a 1280x720 screen the Roles (N1) words and both buttons lie whole inside the
    Infiltration dock (they were squeezed beside the words, the second cut off)."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QApplication

    from afdesk import paths
    from afdesk.encounter.ops.flow import EndExchangeEarly
    from afdesk.gui import screens

    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(0, 0, 1280, 720))
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    wait_exposed(qtbot, w)
    assert w.open_bundled(paths.resource_dir() / "encounters" / "river-ford.afenc")
    doc = w.doc
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndExchangeEarly())
    assert not doc.push(ChangeMode(Mode.INFILTRATION))
    _layer, panel = w.mode_views.extras[Mode.INFILTRATION]
    for _ in range(5):
        QApplication.processEvents()  # the dock laid out at its width
    view = panel.body.parentWidget()  # the scroll area's viewport
    for key in ("roles:band", "roles:opponents"):
        b = panel.buttons[key]
        right = b.mapTo(view, b.rect().topRight()).x()
        assert right < view.width() and b.width() >= b.sizeHint().width(), key


def test_a_change_the_dock_does_not_show_makes_no_widget_in_it(window):
    """The third hour: the dock makes again only the part whose content changed. A
    guardian's grit changed (nothing the dock shows) leaves every part as it was: the
    watch steps' (N3) and the decoys' (N5) buttons stay the very same widgets and the dock
    holds no more widgets than before, with nobody selected or with a hidden intruder's
    Maneuver while hidden shown; an objective marked (N1) makes only the objectives
    again."""
    from PySide6.QtWidgets import QWidget

    from afdesk.encounter.ops.roster import AdjustCounter

    _layer, panel = _open_sample(window)
    doc = window.doc
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(2)))
    for who in ("", "mei"):
        doc.select(who)
        assert (panel.decoy_moves is not None) == (who == "mei")
        kept = {k: panel.buttons[k] for k in ("confirm:guard-1", "act:huang@(3, 2)")}
        made = set(panel.findChildren(QWidget))
        for delta in (-1, 1):
            assert not doc.push(AdjustCounter("guard-2", "grit", delta))
            assert {k: panel.buttons[k] for k in kept} == kept
            assert set(panel.findChildren(QWidget)) == made
    ledger, maneuver = panel.objective_boxes["ledger"], panel.decoy_moves
    ledger.click()
    assert doc.encounter.infiltration.objective("ledger").done
    assert panel.objective_boxes["ledger"] is not ledger  # the objectives made again
    assert panel.objective_boxes["ledger"].isChecked()
    assert {k: panel.buttons[k] for k in kept} == kept and panel.decoy_moves is maneuver
