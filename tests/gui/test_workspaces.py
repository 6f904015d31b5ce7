"""Workspaces: a layout per task (Prepare, Play, Chase, Campaign), switched with the task
and by hand (View > Workspace), each restored as the GM left it, across a restart too."""

from __future__ import annotations

import subprocess
import sys

import pytest
from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QApplication, QDockWidget

from afdesk.encounter.state import Mode
from afdesk.gui import layouts, screens
from afdesk.gui.main_window import MainWindow
from tests.gui.conftest import wait_exposed
from tests.gui.test_table import no_prompt

LAPTOP, DESKTOP = QRect(0, 0, 1280, 720), QRect(0, 0, 1920, 1080)


def on_screen(monkeypatch, qtbot, screen: QRect) -> MainWindow:
    """The window as it opens on ``screen``, the river-ford sample shown."""
    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(screen))
    w = no_prompt(MainWindow(QSettings()))
    qtbot.addWidget(w)
    w.open_sample()
    w.resize(screen.width() - screens.FRAME, screen.height() - screens.TITLE_BAR)
    w.show()
    wait_exposed(qtbot, w)
    return w


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def shown(w: MainWindow) -> set[str]:
    """The docks the GM sees (in front of their tabs)."""
    return {
        d.objectName()
        for d in w.findChildren(QDockWidget)
        if d.isVisible() and not d.visibleRegion().isEmpty()
    }


def map_share(w: MainWindow) -> float:
    return w.centralWidget().width() / w.width()


def enter(w: MainWindow, name: str, tmp_path) -> None:
    """Start the task that asks for workspace ``name``, then lay it out as declared."""
    if name == layouts.PREPARE:
        w.zone_editor.action.setChecked(True)  # opening the zone editor
    elif name == layouts.CHASE:
        w.mode_views.samples[Mode.CHASE].trigger()
    elif name == layouts.CAMPAIGN:
        assert w.campaign.create(tmp_path / "camp", "River")
        w.workspaces.follow_task(campaign=True)  # as File > New / Open campaign do
    assert w.workspaces.current == name, "the task switched the workspace"
    w.workspaces.reset()  # the declared layout at this window's size
    settle()


EXPECTED = {
    # (workspace, screen): (docks shown, the map's least share of the width)
    (layouts.PLAY, "laptop"): ({"combatantDock", "logDock"}, 0.5),
    (layouts.PLAY, "desktop"): ({"reflexDock", "combatantDock", "logDock"}, 0.5),
    (layouts.PREPARE, "laptop"): ({"zoneEditorDock", "paletteDock"}, 0.5),
    (layouts.PREPARE, "desktop"): ({"zoneEditorDock", "paletteDock"}, 0.5),
    (layouts.CHASE, "laptop"): ({"combatantDock", "logDock"}, 0.5),
    (layouts.CHASE, "desktop"): ({"reflexDock", "combatantDock", "logDock"}, 0.5),
    (layouts.CAMPAIGN, "laptop"): ({"campaignDock", "combatantDock", "logDock"}, 0.45),
    (layouts.CAMPAIGN, "desktop"): ({"campaignDock", "combatantDock", "logDock"}, 0.45),
}


@pytest.mark.parametrize(("name", "screen"), list(EXPECTED))
def test_each_workspace_shows_its_docks_and_gives_the_map_its_share(
    qtbot, monkeypatch, tmp_path, name, screen
):
    w = on_screen(monkeypatch, qtbot, LAPTOP if screen == "laptop" else DESKTOP)
    if name != layouts.PLAY:
        enter(w, name, tmp_path)
    else:
        w.workspaces.reset()
        settle()
    docks, share = EXPECTED[(name, screen)]
    assert shown(w) == docks
    assert map_share(w) >= share, f"the map gets {map_share(w):.2f} of the width"
    assert w.width() <= (LAPTOP if screen == "laptop" else DESKTOP).width()
    assert w.workspaces.entries[name].isChecked()


@pytest.mark.parametrize("screen", [LAPTOP, DESKTOP])
def test_in_play_the_character_dock_shows_its_attack_buttons_without_scrolling(
    qtbot, monkeypatch, screen
):
    w = on_screen(monkeypatch, qtbot, screen)
    w.workspaces.reset()
    w.doc.select("huang")
    settle()
    panel = w.combatant_panel
    for button in (panel.attack_button, panel.check_button, panel.edit_button):
        seen = button.visibleRegion().boundingRect()
        assert seen == button.rect(), f"{button.text()!r} shows {seen} of {button.rect()}"
    tabs = [d.windowTitle() for d in w.tabifiedDockWidgets(w.combatant_dock)]
    assert len(tabs) <= 2, f"at most three short tabs a column: {tabs}"


def test_the_task_switches_the_workspace(qtbot, monkeypatch, tmp_path):
    w = on_screen(monkeypatch, qtbot, LAPTOP)
    assert w.workspaces.current == layouts.PLAY
    w.zone_editor.action.setChecked(True)
    assert w.workspaces.current == layouts.PREPARE
    w.zone_editor.action.setChecked(False)
    assert w.workspaces.current == layouts.PLAY
    w.mode_views.samples[Mode.CHASE].trigger()
    assert w.workspaces.current == layouts.CHASE
    w.open_sample()
    assert w.workspaces.current == layouts.PLAY
    entries = [a.text() for a in w.workspaces.menu.actions()]
    assert entries == ["P&repare", "&Play", "&Chase", "Ca&mpaign", "", "&Reset workspace"]
    w.workspaces.entries[layouts.CAMPAIGN].trigger()  # by hand
    assert w.workspaces.current == layouts.CAMPAIGN and not w.zone_editor.is_open()
    w.workspaces.entries[layouts.PREPARE].trigger()  # by hand: the editor opens
    assert w.workspaces.current == layouts.PREPARE and w.zone_editor.is_open()


def test_the_gms_arrangement_is_kept_per_workspace_and_across_a_restart(qtbot, monkeypatch):
    w = on_screen(monkeypatch, qtbot, DESKTOP)
    w.workspaces.reset()
    settle()
    declared = w.log_dock.height()
    w.resizeDocks([w.log_dock], [declared + 120], screens.Qt.Orientation.Vertical)
    w.history_dock.hide()
    w.reserves_dock.hide()
    settle()
    mine = w.log_dock.height()
    assert abs(mine - (declared + 120)) <= 8
    w.workspaces.choose(layouts.CHASE)
    settle()
    assert w.workspaces.current == layouts.CHASE
    w.workspaces.choose(layouts.PLAY)
    settle()
    assert abs(w.log_dock.height() - mine) <= 8, "Play as the GM left it"
    w.close()

    again = on_screen(monkeypatch, qtbot, DESKTOP)  # the next start, the same settings
    settle()
    assert again.workspaces.current == layouts.PLAY
    assert abs(again.log_dock.height() - mine) <= 8, "restored after a restart"
    again.workspaces.reset()
    settle()
    assert abs(again.log_dock.height() - declared) <= 8, "Reset workspace: as declared"
    assert again.history_dock.isVisible()


def test_the_declarations_are_qt_free_and_name_known_places():
    out = subprocess.run(
        [sys.executable, "-c", "import sys, afdesk.gui.layouts; print('PySide6' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"
    for ws in layouts.WORKSPACES.values():
        for small in (False, True):
            places = ws.places_for(small)
            names = [p.dock for p in places]
            assert len(set(names)) == len(names), ws.name
            for p in places:
                assert p.area in ("left", "right", "bottom")
                assert (p.behind in names) if p.behind else 0 < p.share < 0.5
            assert set(ws.front) <= set(names) | {"logDock", "combatantDock"}
    assert layouts.for_task(editing=True, mode=layouts.CHASE, campaign=True) == layouts.PREPARE
    assert layouts.for_task(editing=False, mode=layouts.CHASE, campaign=False) == layouts.CHASE
    assert layouts.for_task(editing=False, mode="", campaign=True) == layouts.CAMPAIGN
    assert layouts.for_task(editing=False, mode="", campaign=False) == layouts.PLAY


def stray_tab_bars(w: MainWindow) -> list[tuple[int, list[str], tuple]]:
    """Tab bars drawn in the window that belong to no group of tabbed docks shown now
    (left behind by a layout before: a fragment over the docks or the map)."""
    from PySide6.QtWidgets import QTabBar

    groups = set()
    for d in w.findChildren(QDockWidget):
        if d.isVisible():
            tabbed = [t for t in w.tabifiedDockWidgets(d) if t.isVisible()]
            if tabbed:
                groups.add(frozenset(x.windowTitle() for x in (d, *tabbed)))
    out = []
    for bar in w.findChildren(QTabBar):
        if bar.parent() is not w or not bar.isVisible():
            continue
        if not bar.geometry().intersects(w.rect()):
            continue  # Qt keeps some out of sight
        titles = [bar.tabText(i) for i in range(bar.count())]
        if len(titles) < 2 or frozenset(titles) not in groups:
            out.append((bar.count(), titles, bar.geometry().getRect()))
    return out


def test_switching_workspaces_leaves_no_stray_tab_bar(qtbot, monkeypatch):
    """View > Workspace back and forth: no tab bar of an earlier layout stays drawn."""
    w = on_screen(monkeypatch, qtbot, LAPTOP)
    for name in ("chase", "campaign", "prepare", "campaign", "chase", "play", "prepare", "play"):
        w.workspaces.entries[name].trigger()
        settle()
        assert stray_tab_bars(w) == [], name


def test_back_in_a_workspace_the_docks_in_front_are_those_the_gm_left(qtbot, monkeypatch):
    """Leaving Play for Prepare and coming back shows the Character dock in front of its
    tabs (not the last tab, the Reserves), and a tab the GM raised stays raised."""
    w = on_screen(monkeypatch, qtbot, LAPTOP)
    settle()
    assert shown(w) == {"combatantDock", "logDock"}
    for name in ("prepare", "play"):
        w.workspaces.entries[name].trigger()
        settle()
    assert shown(w) == {"combatantDock", "logDock"}
    w.reflex_dock.raise_()
    settle()
    for name in ("chase", "play"):
        w.workspaces.entries[name].trigger()
        settle()
    assert shown(w) == {"reflexDock", "logDock"}


def test_the_first_layout_leaves_no_stray_tab_bar(qtbot, monkeypatch):
    """As the window first opens at 1280x720, on the start page and then on a sample and a
    mode's sample: no copy of a tab bar drawn over the docks (Qt may keep one with the same
    tabs as the bar in use, elsewhere)."""
    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(LAPTOP))
    w = no_prompt(MainWindow(QSettings()))
    qtbot.addWidget(w)
    w.resize(LAPTOP.width() - screens.FRAME, LAPTOP.height() - screens.TITLE_BAR)
    w.show()
    wait_exposed(qtbot, w)
    settle()
    assert stray_tab_bars(w) == [] and duplicate_tab_bars(w) == [], "start page"
    w.open_sample()
    settle()
    assert stray_tab_bars(w) == [] and duplicate_tab_bars(w) == [], "sample"


def duplicate_tab_bars(w: MainWindow) -> list[list[str]]:
    """The tabs of every group that more than one shown tab bar draws."""
    from PySide6.QtWidgets import QTabBar

    seen: dict[tuple[str, ...], int] = {}
    for bar in w.findChildren(QTabBar):
        if bar.parent() is w and bar.isVisible() and bar.geometry().intersects(w.rect()):
            key = tuple(sorted(bar.tabText(i) for i in range(bar.count())))
            seen[key] = seen.get(key, 0) + 1
    return [list(k) for k, n in seen.items() if n > 1]
