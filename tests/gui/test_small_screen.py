"""The GM's laptop is 1280x720. The window opens inside the screen, the docks
share the space, and every dialog fits with its action buttons in view."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QScrollArea,
    QWidget,
)

from afdesk.gui import screens
from tests.gui.conftest import wait_exposed

LAPTOP = QRect(0, 0, 1280, 720)


@pytest.fixture
def laptop(monkeypatch):
    """The screen afdesk sees: 1280x720 (the offscreen platform's own is 800x800)."""
    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(LAPTOP))
    return LAPTOP


def _in_scroll_area(w: QWidget) -> bool:
    p = w.parentWidget()
    while p is not None:
        if isinstance(p, QScrollArea):
            return True
        p = p.parentWidget()
    return False


def _outside(top: QWidget, screen: QRect) -> list[str]:
    """Buttons shown in ``top`` that lie (partly) off ``screen``; those in a scroll area
    are reachable by scrolling and only need their scroll area on screen."""
    bad = []
    for b in top.findChildren(QAbstractButton):
        if not b.isVisible() or b.visibleRegion().isEmpty() or _in_scroll_area(b):
            continue
        rect = QRect(b.mapToGlobal(QPoint(0, 0)), b.size())
        if not screen.contains(rect):
            bad.append(f"{type(b).__name__} {b.text()!r} at {rect.getRect()}")
    for area in top.findChildren(QScrollArea):
        if area.isVisible() and not area.visibleRegion().isEmpty() and not _in_scroll_area(area):
            rect = QRect(area.mapToGlobal(QPoint(0, 0)), area.size())
            if not screen.contains(rect):
                bad.append(f"scroll area {area.objectName()!r} at {rect.getRect()}")
    return bad


def _show_at_origin(qtbot, w: QWidget) -> None:
    qtbot.addWidget(w)
    w.show()
    w.move(0, 0)
    wait_exposed(qtbot, w)
    QApplication.processEvents()


def test_the_window_opens_inside_a_1280x720_screen(qtbot, laptop, playing_doc):
    from afdesk.gui.main_window import MainWindow

    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.set_document(playing_doc)
    _show_at_origin(qtbot, w)
    assert w.width() <= laptop.width() and w.height() <= laptop.height() - screens.TITLE_BAR
    assert _outside(w, laptop) == []
    # The docks share the space: the reflex order and the character sheet are tabs.
    assert w.reflex_dock in w.tabifiedDockWidgets(w.combatant_dock)
    assert w.map.width() >= 500 and w.map.height() >= 300


def _dialogs(doc, parent):
    """Every dialog of the window, opened as the GM would, on a check mid-roll."""
    from afdesk.encounter.contest.assembly import CheckKind
    from afdesk.encounter.ops.flow import NextTurn
    from afdesk.encounter.ops.roster import PlaceCombatant
    from afdesk.gui.dialogs.cards import PlayCardsDialog
    from afdesk.gui.dialogs.character import (
        AddStateDialog,
        CharacterDialog,
        MomentumDialog,
        SettingsDialog,
    )
    from afdesk.gui.dialogs.contest import ContestDialog
    from afdesk.gui.dialogs.persevere import PersevereDialog
    from afdesk.gui.editor.new_encounter import PrepareEncounterDialog
    from afdesk.rules.dice import ScriptedSource

    enc = doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    check = ContestDialog(doc, "huang", CheckKind.HACK, "gao", parent)
    check.source = ScriptedSource([6, 5, 5, 4, 1, 1, 1, 1, 1, 1, 1, 1])
    check.dice.roll_check()
    check.defense.choose("dodge")
    check.dice.roll_opposition()
    yield "check", check
    yield "character", CharacterDialog(doc, "huang", parent)
    yield "add character", CharacterDialog(doc, None, parent)
    yield "state", AddStateDialog(doc, "huang", parent)
    yield "momentum", MomentumDialog(doc, "huang", parent)
    yield "settings", SettingsDialog(doc, parent)
    yield "new encounter", PrepareEncounterDialog(parent)
    yield "persevere", PersevereDialog(doc, parent)
    yield "cards", PlayCardsDialog(doc, parent)


def test_every_dialog_fits_a_1280x720_screen(qtbot, laptop, playing_doc):
    from afdesk.gui.main_window import MainWindow

    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.set_document(playing_doc)
    qtbot.addWidget(w)
    for name, dlg in _dialogs(playing_doc, w):
        assert isinstance(dlg, QDialog)
        _show_at_origin(qtbot, dlg)
        assert dlg.height() <= 680, f"{name}: {dlg.height()} px tall"
        if name == "check":  # after the rolls the dice and the verdict are in view
            assert not dlg.dice.verdict.visibleRegion().isEmpty()
        assert _outside(dlg, laptop) == [], name
        for box in dlg.findChildren(QDialogButtonBox):
            for b in box.buttons():
                rect = QRect(b.mapToGlobal(QPoint(0, 0)), b.size())
                assert laptop.contains(rect), f"{name}: {b.text()!r} at {rect.getRect()}"
        dlg.reject()


def test_the_legend_folds_away_and_the_zone_fills_the_map(qtbot, laptop, playing_doc):
    from afdesk.gui.main_window import MainWindow

    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.set_document(playing_doc)
    _show_at_origin(qtbot, w)
    view = w.map
    view.fit_to_zone()
    before, fitted = view.zoom(), view.map_scene.map_rect()
    w.act_legend.trigger()  # View > Show the legend, unticked
    assert not view.map_scene.legend.isVisible() and not view.legend_shown()
    # The zone alone is fitted: never smaller on the same screen.
    assert view.map_scene.map_rect().width() < fitted.width() and view.zoom() >= before
    w.act_legend.trigger()
    assert view.map_scene.legend.isVisible()
