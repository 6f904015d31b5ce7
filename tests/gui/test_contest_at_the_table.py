"""The check dialog as a GM uses it at the table (1280x720): the action buttons hold
still through every step, the defenses not open now wait behind a disclosure in
readable text, the dice wrap, and Tab follows what the eye reads."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QPalette

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.gui import screens
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.dice import Pool, ScriptedSource
from tests.gui.conftest import wait_exposed
from tests.gui.odds_wait import settled_odds

LAPTOP = QRect(0, 0, 1280, 720)


@pytest.fixture
def duel(playing_doc):
    """Huang's turn, Gao one area north of her (behind his flank: no parry, E8)."""
    enc = playing_doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    return EncounterDocument(enc, journal_factory=lambda d: None)


@pytest.fixture
def dialog(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    screens.fit_dialog(dlg, LAPTOP)
    dlg.show()
    wait_exposed(qtbot, dlg)
    return dlg


def _places(dlg) -> dict[str, QRect]:
    buttons = {
        "roll": dlg.dice.roll_attack,
        "defense": dlg.dice.roll_defense,
        "apply": dlg.apply_button,
        "cancel": dlg.cancel_button,
    }
    return {k: QRect(b.mapToGlobal(QPoint(0, 0)), b.size()) for k, b in buttons.items()}


def _luminance(c: QColor) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_action_buttons_hold_still_through_every_step(dialog, qtbot):
    dlg = dialog
    before = _places(dlg)
    assert dlg.scroll.isAncestorOf(dlg.dice.roll_attack) is False
    assert dlg.button_row.isAncestorOf(dlg.dice.roll_defense)
    dlg.defense.choose("dodge")
    assert _places(dlg) == before
    dlg.source = ScriptedSource([5, 4, 2])
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    qtbot.wait(0)
    assert dlg.flow.rolled and dlg.dice.roll_defense.isEnabled()
    assert _places(dlg) == before  # "Roll the defense" stays under the mouse
    dlg.source = ScriptedSource([6, 2, 1, 2, 1, 3])
    qtbot.mouseClick(dlg.dice.roll_defense, Qt.MouseButton.LeftButton)
    qtbot.wait(0)
    assert dlg.flow.defense_roll is not None
    assert _places(dlg) == before
    settled_odds(qtbot, dlg)
    dlg.source = ScriptedSource([6, 6])
    qtbot.mouseClick(dlg.shifts.button_for("add"), Qt.MouseButton.LeftButton)
    qtbot.wait(0)
    assert _places(dlg) == before
    assert dlg.height() <= LAPTOP.height() - screens.TITLE_BAR


def test_defenses_not_open_wait_behind_a_disclosure_in_readable_text(dialog, qtbot):
    dlg = dialog
    parry = dlg.defense.button("parry")  # behind the flank: no parry (E8)
    assert not parry.isEnabled() and "no parry (E8)" in dlg.defense.why(parry)
    toggle, listing = dlg.defense.closed_toggle, dlg.defense.closed_list
    assert toggle is not None and listing is not None and listing.isAncestorOf(parry)
    assert not toggle.isChecked() and not parry.isVisible()  # collapsed by default
    assert dlg.defense.button("dodge").isVisible()  # what is open stays in front
    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
    assert parry.isVisible()
    pal = parry.palette()
    text = pal.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
    ground = pal.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Window)
    assert contrast(text, ground) >= 4.5
    why = dlg.defense._why[parry]
    assert why.isVisible() and why.wordWrap()
    why_text = why.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
    assert contrast(why_text, ground) >= 4.5
    assert why.palette().color(why.foregroundRole()) == text  # palette text, not grey
    body = dlg.scroll.widget()
    assert body.minimumSizeHint().width() <= dlg.scroll.viewport().width()  # reasons wrap
    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
    assert not parry.isVisible()


def test_nine_check_dice_and_two_interference_fit_the_dialog(dialog, qtbot):
    dlg = dialog
    dice, _intf = dlg.flow.attack_pools()
    dlg.modifiers.add_gm("Fine blade", 9 - dice)
    dlg.modifiers.add_gm("Mud", -2)
    assert dlg.flow.attack_pools() == (9, 2)
    dlg.source = ScriptedSource([5, 4, 2, 3, 5, 4, 1, 2, 3, 1, 2])
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    qtbot.wait(0)
    roll = dlg.dice.attack_dice.roll()
    assert roll is not None and len(roll.dice) == 11
    assert sum(d.pool is Pool.INTERFERENCE for d in roll.dice) == 2
    view = dlg.dice.attack_dice
    right = max(r.right() for r, _i, _d in view._layout())
    assert right <= view.width()
    edge = view.mapTo(dlg, QPoint(int(right), 0)).x()
    assert (
        edge <= dlg.scroll.viewport().mapTo(dlg, QPoint(0, 0)).x() + dlg.scroll.viewport().width()
    )
    assert dlg.width() <= LAPTOP.width()
    # Nothing in the scrolling part (the Shifts' dice to retry included) is wider than
    # what shows: it never scrolls sideways, so a wider part would be cut off.
    body = dlg.scroll.widget()
    assert body.minimumSizeHint().width() <= dlg.scroll.viewport().width()
    assert len(dlg.shifts.retry_pick.boxes) >= 9
    # Narrower than the dice: they wrap onto a second row instead of running off.
    assert view.heightForWidth(200) > view.heightForWidth(2000)


def test_tab_follows_what_the_eye_reads(dialog):
    dlg = dialog
    chain = dlg.tab_chain()
    none = dlg.defense.options()[0][0]
    order = [none, dlg.dice.roll_attack, dlg.dice.roll_defense, dlg.apply_button]
    order.append(dlg.cancel_button)
    assert [chain.index(w) for w in order] == sorted(chain.index(w) for w in order)
    # Qt's own focus chain, walked from the first field, is that order.
    walked, w = [], dlg.action_box
    for _ in range(400):
        walked.append(w)
        w = w.nextInFocusChain()
        if w is dlg.action_box:
            break
    positions = [walked.index(x) for x in chain]
    assert positions == sorted(positions)
    assert walked.index(none) < walked.index(dlg.cancel_button)
