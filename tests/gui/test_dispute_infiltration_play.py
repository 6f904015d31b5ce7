"""Snags found playing a dispute and an infiltration as a new GM at 1280x720, through the
real window's widgets: the village council, the smugglers' warehouse, and the river ford
battle switched at an exchange end (E16). Each test failed before its fix."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPointF, QRect, QRectF, QSettings
from PySide6.QtWidgets import QApplication, QLabel

from afdesk import paths
from afdesk.encounter.checks import CheckKind
from afdesk.encounter.ops.flow import EndExchangeEarly, NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.state import Mode, Phase
from afdesk.gui import screens
from afdesk.gui.dispute.controls import NEW
from afdesk.gui.main_window import MainWindow
from afdesk.gui.mapgeom import AREA
from afdesk.rules.dice import ScriptedSource
from tests.gui.conftest import wait_exposed


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(0, 0, 1280, 720))
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    wait_exposed(qtbot, w)
    return w


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def bar_buttons(window) -> list[str]:
    return [b.text() for row in window.decisions.rows for b in row.buttons]


def council_at_turn_of(window, cid: str):
    window.mode_views.samples[Mode.DISPUTE].trigger()
    doc = window.doc
    assert not doc.push(deal_hands(doc.encounter, random.Random(3)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(4)))
    for _ in range(40):
        if doc.encounter.actor == cid:
            return window.mode_views.board(Mode.DISPUTE).controls
        assert not doc.push(NextTurn())
    raise AssertionError(f"{cid} never got a turn")


def ford_turned(window, mode: Mode):
    """The river ford battle, its first exchange ended, switched to ``mode`` (E16)."""
    assert window.open_bundled(paths.resource_dir() / "encounters" / "river-ford.afenc")
    doc = window.doc
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndExchangeEarly())
    assert not doc.push(ChangeMode(mode))
    settle()
    return doc


def test_a_chosen_defense_not_yet_rolled_is_not_dropped_by_apply(window):
    """E4: the GM picks the target's insight and clicks Apply before Roll the defense:
    the check is not applied as if undefended; the dialog says to roll the defense or
    pick No defense, and nothing changes until then."""
    controls = council_at_turn_of(window, "huang")
    enc = window.doc.encounter
    controls.target.setCurrentIndex(controls.target.findData("lan"))
    controls.source = ScriptedSource([5, 5, 1, 1])
    dialog = controls.open_check(CheckKind.TAUNT)
    dialog.dice.roll_attack.click()
    dialog.defense.choose("insight")
    before = window.doc.encounter.state()
    dialog.apply_button.click()
    assert window.doc.encounter.state() == before  # nothing applied
    assert dialog.isVisible()
    reason = dialog.reason.text()
    assert "Roll the defense" in reason and "No defense" in reason and "(E4)" in reason
    dialog.defense.choose(None)  # the GM decides on no defense after all
    dialog.apply_button.click()
    assert enc is window.doc.encounter
    assert window.doc.encounter.dispute.entry("lan").grit == 0  # 2 off her grit 1 (P5)


def test_a_dispute_just_switched_to_is_not_offered_closing_before_its_first_exchange(window):
    """P8, E16: the battle becomes a dispute at the end of exchange 1; the bar does not
    at once offer to close the dispute that has not had an exchange yet (with 0 support
    everywhere), but does at the end of the dispute's first exchange."""
    doc = ford_turned(window, Mode.DISPUTE)
    controls = window.mode_views.board(Mode.DISPUTE).controls
    for name, by in (("Pay the toll", "huang"), ("Fight through", "gao")):
        controls.platform.setCurrentIndex(controls.platform.findData(NEW))
        controls.p_name.setText(name)
        controls.p_proponent.setCurrentIndex(controls.p_proponent.findData(by))
        assert controls.do_platform()
    assert len(doc.encounter.dispute.platforms) == 2
    assert doc.encounter.turn.phase is Phase.EXCHANGE_END
    assert not [b for b in bar_buttons(window) if b.startswith("Close:")]
    assert not doc.push(deal_hands(doc.encounter, random.Random(2)))
    assert not doc.push(EndExchangeEarly())
    assert [b for b in bar_buttons(window) if b.startswith("Close:")]


def test_the_who_box_shows_a_long_name_and_its_side_whole(window):
    """The Play tab's Who box had 24 letters while the At box took the rest of the row:
    'Green-Jade Huang (the neutral audi' lost its side. Both boxes share the row now."""
    ford_turned(window, Mode.DISPUTE)
    controls = window.mode_views.board(Mode.DISPUTE).controls
    settle()
    box = controls.actor
    assert box.currentText() == "Green-Jade Huang (the neutral audience)"
    needed = box.fontMetrics().horizontalAdvance(box.currentText())
    assert box.width() > needed + 24  # the text and the arrow
    target = controls.target
    assert target.width() > target.fontMetrics().horizontalAdvance(target.currentText()) + 24
    assert window.width() <= 1280


def test_the_retry_of_sixes_names_whose_roll_whole(window):
    """R3: the '6s of' box was sized before it was filled ('Elder Ba', 'Dock Gua')."""
    controls = council_at_turn_of(window, "bao")
    controls.source = ScriptedSource([5, 5, 4])
    dialog = controls.open_check(CheckKind.CONVINCE)
    settle()  # the dialog is on screen before the GM rolls
    dialog.dice.roll_attack.click()
    settle()
    box = dialog.sixes.roll_choice
    assert box.currentText() == "Elder Bao's check"
    for i in range(box.count()):
        text = box.itemText(i)
        assert box.width() > box.fontMetrics().horizontalAdvance(text) + 16, text


def test_the_alarm_banner_hides_no_decoy_or_character_in_the_top_row(window):
    """N6: Huang's decoy moved to (0, 0) (N5) then the alarm: the banner at the zone's
    top left covered that decoy on both maps; it now sits on the top edge band."""
    from afdesk.encounter.infiltration.ops import RaiseAlarm
    from afdesk.encounter.ops.roster import PlaceCombatant
    from afdesk.gui.infiltration.layer import Tag

    window.mode_views.samples[Mode.INFILTRATION].trigger()
    doc = window.doc
    assert not doc.push(PlaceCombatant("guard-1", (2, 0)))  # a guardian in the top row
    assert not doc.push(RaiseAlarm())
    window.show_player_view()
    settle()
    for scene in (window.map.map_scene, window.player_window.view.map_scene):
        (banner,) = [i for i in scene.items() if isinstance(i, Tag) and i.text.startswith("ALARM")]
        covered = banner.sceneBoundingRect()
        people = [*scene.decoys.values(), *scene.tokens.values()]
        assert people
        r = 0.3 * AREA  # the disc of a token or a decoy, round its centre
        for item in people:
            disc = QRectF(item.pos() - QPointF(r, r), item.pos() + QPointF(r, r))
            assert not covered.intersects(disc), item
        assert scene.map_rect().contains(covered)  # still within what Fit shows


def test_the_surprise_attacks_notes_read_as_sentences(window):
    """N7, E8: the check dialog's notes ran together: 'cannot be dodged (E8) Dock Guard 1
    tries to perceive'; each note is now a sentence of its own."""
    from afdesk.encounter.infiltration.ops import HiddenActsFrom
    from afdesk.encounter.ops.roster import PlaceCombatant, SetFacing
    from afdesk.gui.dialogs.contest import ContestDialog
    from afdesk.gui.document import EncounterDocument
    from afdesk.storage.samples import build_warehouse
    from tests.encounter.conftest import start_round, turn_of

    enc = build_warehouse()
    start_round(enc)
    turn_of(enc, "huang")
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    window.set_document(doc)
    for op in (
        HiddenActsFrom("huang", (3, 2)),
        PlaceCombatant("guard-1", (4, 3)),
        SetFacing("guard-1", 0.0, override=True),
    ):
        assert doc.push(op) == ""
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "guard-1", window)
    dlg.source = ScriptedSource([1, 2, 5, 5])
    dlg.step.button.click()  # the study fails (N7)
    reason = dlg.reason.text()
    assert "cannot be dodged (E8). Dock Guard 1 tries to perceive Huang" in reason
    assert reason.endswith("leaves Dock Guard 1 down.")
    dlg.close()


def test_leaving_by_an_edge_from_inside_says_its_rule(window):
    """N8, E9: 'Huang left by north' with Huang two areas in was refused without its rule
    ('Huang is not at the north edge: move there first'); the words now name E9, and
    nothing changes."""
    window.mode_views.samples[Mode.INFILTRATION].trigger()
    _layer, panel = window.mode_views.extras[Mode.INFILTRATION]
    doc = window.doc
    doc.select("huang")
    settle()
    before = doc.encounter.state()
    panel.buttons["left:huang"].click()
    assert "Huang is not at the north edge" in panel.refusal.text()
    assert "(E9)" in panel.refusal.text()
    assert doc.encounter.state() == before


def test_who_got_out_shows_whole_inside_the_zone_clear_of_the_banner(window):
    """N8: Huang out north, Mei out east. The east 'Got out' tag hung half over the
    legend (Mei's name under it) and the north one lay under the end banner; each now
    sits whole inside the zone at its edge."""
    from afdesk.encounter.ops.roster import PlaceCombatant
    from afdesk.gui.infiltration.layer import Tag

    window.mode_views.samples[Mode.INFILTRATION].trigger()
    _layer, panel = window.mode_views.extras[Mode.INFILTRATION]
    doc = window.doc
    window.show_player_view()
    for cid, area in (("huang", (3, 0)), ("mei", (14, 3))):
        assert not doc.push(PlaceCombatant(cid, area))
        doc.select(cid)
        settle()
        panel.buttons[f"left:{cid}"].click()
    assert [(d.id, d.edge) for d in doc.encounter.infiltration.left] == [
        ("huang", "north"),
        ("mei", "east"),
    ]
    settle()
    scene = window.map.map_scene  # the players' map shows only its banner (N8)
    tags = [i for i in scene.items() if isinstance(i, Tag)]
    (banner,) = [t for t in tags if t.text.startswith("The infiltration is over")]
    got_out = [t for t in tags if t.text.startswith("Got out")]
    assert {t.text for t in got_out} == {"Got out (north): Huang", "Got out (east): Mei"}
    zone = scene.zone_rect()
    for tag in got_out:
        rect = tag.sceneBoundingRect()
        assert zone.contains(rect), tag.text
        assert not rect.intersects(banner.sceneBoundingRect()), tag.text
        assert not rect.intersects(scene.legend.sceneBoundingRect()), tag.text
    players = window.player_window.view.map_scene
    assert [t.text for t in players.items() if isinstance(t, Tag)] == ["The infiltration is over"]


def shown_hints(panel) -> list[QLabel]:
    """The dock's "not hidden yet" words on show (a rebuilt dock hides the old ones)."""
    return [h for h in panel.findChildren(QLabel, "notHiddenYet") if h.isVisibleTo(panel)]


def test_after_the_roles_the_dock_says_who_still_waits_to_start_hidden(window):
    """N1, N2: the river ford turned infiltration; once the band intrudes the dock said
    nothing more (no intruder selected): it now lists the intruders not hidden yet and
    says to select one on the map to start it hidden; the list shrinks as they do."""
    ford_turned(window, Mode.INFILTRATION)
    _layer, panel = window.mode_views.extras[Mode.INFILTRATION]
    doc = window.doc
    panel.buttons["roles:band"].click()
    settle()
    (hint,) = shown_hints(panel)
    text = hint.text()
    assert "Green-Jade Huang" in text and "Brother Bao" in text
    assert "select one on the map to start it hidden (N2)" in text
    doc.select("huang")
    settle()
    panel.buttons["hide:huang"].click()
    doc.select("")
    settle()
    (hint,) = shown_hints(panel)
    assert "Green-Jade Huang" not in hint.text()
    assert "Tenacious Chen" in hint.text()


def test_a_fumbled_taunts_log_line_says_fumble_once(window):
    """P7, R6: the log read 'vs Interference [5,5] — Fumble — Fumble: the app proposes +1
    tension'; the proposal follows the verdict without repeating it."""
    controls = council_at_turn_of(window, "bao")
    controls.target.setCurrentIndex(controls.target.findData("huang"))
    controls.source = ScriptedSource([2, 1, 5, 5] + [1] * 12)
    dialog = controls.open_check(CheckKind.TAUNT)
    dialog.dice.roll_attack.click()
    dialog.apply_button.click()
    text = window.doc.encounter.log[-1].text
    assert text.count("Fumble") == 1, text
    assert text.endswith("— Fumble — the app proposes +1 tension (P7, R6)")
    assert "+1 tension" in bar_buttons(window)


def test_the_character_dock_says_by_which_edge_an_intruder_left(window):
    """E9, N8: Mei out east: the Character dock read 'left the encounter: left east'; it
    now says 'left the encounter over the east edge (E9)'."""
    from afdesk.encounter.ops.roster import PlaceCombatant

    window.mode_views.samples[Mode.INFILTRATION].trigger()
    _layer, panel = window.mode_views.extras[Mode.INFILTRATION]
    doc = window.doc
    assert not doc.push(PlaceCombatant("mei", (14, 3)))
    doc.select("mei")
    settle()
    panel.buttons["left:mei"].click()
    settle()
    words = window.combatant_panel.subtitle.text()
    assert "left the encounter over the east edge (E9)" in words, words
    assert "left east" not in words
