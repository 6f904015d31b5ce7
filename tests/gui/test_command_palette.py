"""Ctrl+K: the command palette lists every GM command of the registry with its shortcut
and, when it cannot run now, the model's reason; typing filters and Enter runs the chosen
command the way the menus do."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from afdesk.encounter.combatant import StateKind
from afdesk.gui import commands as cmd
from afdesk.gui.main_window import MainWindow
from afdesk.gui.palette import NO_CHARACTER, CommandPalette, matches, rows
from tests.gui.conftest import wait_exposed


@pytest.fixture
def window(qtbot, playing_doc):
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.set_document(playing_doc)
    w.show()
    wait_exposed(qtbot, w)
    return w


def open_palette(window, qtbot) -> CommandPalette:
    QTest.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = window.palette
    assert isinstance(palette, CommandPalette) and palette.isVisible()
    return palette


def test_ctrl_k_lists_every_command_with_its_shortcut_and_why_not(window, qtbot):
    doc = window.doc
    doc.select(doc.encounter.actor)
    palette = open_palette(window, qtbot)
    assert {r.command.id for r in palette.rows} == {c.id for c in cmd.REGISTRY}
    by_id = {r.command.id: r for r in palette.rows}
    assert by_id["deal"].shortcut == "Ctrl+D"
    assert by_id["play-cards"].shortcut == "Ctrl+Shift+D"  # Ctrl+K opens the palette
    deal = by_id["deal"]
    ok, reason = cmd.DEAL.available(doc, "")
    assert not ok and reason and (deal.enabled, deal.reason) == (False, reason)
    item = palette.list.topLevelItem(palette.rows.index(deal))
    assert reason.rstrip(".") in item.text(2) and item.text(1) == "Ctrl+D"
    for row in palette.rows:  # each says whether it runs now, and if not why
        assert row.enabled == row.command.available(doc, row.who).enabled or (
            not row.enabled and row.reason.startswith("not offered for")
        )
        assert row.enabled or row.reason
        assert "&" not in row.text  # no mnemonic marks in what the GM reads
        item = palette.list.topLevelItem(palette.rows.index(row))
        assert bool(item.text(2)) is not row.enabled  # a reason only when it cannot run


def test_typing_filters_and_enter_runs_through_the_menus_path(window, qtbot):
    doc = window.doc
    actor = doc.encounter.actor
    doc.select(actor)
    palette = open_palette(window, qtbot)
    QTest.keyClicks(palette.search, "defend")
    shown = palette.shown()
    assert shown and all(matches(r, "defend") for r in shown)
    assert len(shown) < len(palette.rows)
    while palette.current().command.id != "action:defend":
        QTest.keyClick(palette.search, Qt.Key.Key_Down)
    assert palette.current().who == actor
    n = doc.undo_stack.count()
    QTest.keyClick(palette.search, Qt.Key.Key_Return)
    assert doc.encounter.combatants[actor].has(StateKind.DEFENDING)
    assert doc.undo_stack.count() == n + 1 and not palette.isVisible()


def test_enter_on_a_command_that_cannot_run_says_why_and_changes_nothing(window, qtbot):
    doc = window.doc
    palette = open_palette(window, qtbot)
    QTest.keyClicks(palette.search, "deal reflex")
    row = palette.current()
    assert row is not None and row.command.id == "deal" and not row.enabled
    n = doc.undo_stack.count()
    QTest.keyClick(palette.search, Qt.Key.Key_Return)
    assert palette.isVisible() and doc.undo_stack.count() == n
    assert row.reason.rstrip(".") in palette.status.text()
    palette.search.setText("no such command at all")
    assert palette.shown() == [] and "No command matches" in palette.status.text()
    assert not palette.run_current() and palette.isVisible()


def test_character_commands_wait_for_a_selected_character(playing_doc):
    doc = playing_doc
    doc.select("")
    listed = rows(doc, "", {})
    character = [r for r in listed if r.command not in cmd.ENCOUNTER]
    assert character and all(not r.enabled and r.reason == NO_CHARACTER for r in character)
    assert {r.command.id for r in listed} == {c.id for c in cmd.REGISTRY}
