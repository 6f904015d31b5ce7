"""Workspaces: a window layout per task (:mod:`afdesk.gui.layouts` declares them), switched
with the task (the zone editor -> Prepare, a chase -> Chase, a campaign opened ->
Campaign, else Play) or by hand (View > Workspace), each restored as the GM left it
(``QMainWindow.saveState`` per workspace in QSettings) until View > Workspace > Reset
workspace puts back its declared layout."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QTabBar

from afdesk.gui import layouts, screens
from afdesk.gui.follow import Links
from afdesk.gui.stored import store, store_list

AREAS = {
    "left": Qt.DockWidgetArea.LeftDockWidgetArea,
    "right": Qt.DockWidgetArea.RightDockWidgetArea,
    "bottom": Qt.DockWidgetArea.BottomDockWidgetArea,
}
CURRENT = "workspaces/current"


def state_key(name: str) -> str:
    return f"workspaces/{name}/state"


def front_key(name: str) -> str:
    return f"workspaces/{name}/front"


def names_dock(state: bytes, name: str) -> bool:
    """Whether a layout saved by ``QMainWindow.saveState`` holds the dock ``name`` (its
    object name is written in UTF-16)."""
    return name.encode("utf-16-be") in state


class Workspaces:
    """The window's workspaces (kept on it as ``workspaces``)."""

    def __init__(self, window: QMainWindow, settings: QSettings) -> None:
        self.window = window
        self.settings = settings
        saved = settings.value(CURRENT)
        self.current = saved if saved in layouts.WORKSPACES else layouts.PLAY
        self.menu: QMenu | None = None
        self.entries: dict[str, QAction] = {}
        self._by_hand = False
        self._doc = None
        self._links = Links()
        self._watch = _LayoutWatch(window, self.hide_stray_tab_bars)

    def restore_window(self) -> bytes:
        """The window's geometry and layout as it was closed (the workspace shown then);
        returns the layout restored (b"" if none was saved)."""
        w = self.window
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if geometry is not None:
            w.restoreGeometry(geometry)
        if state is not None:
            w.restoreState(state)
        screens.clamp_window(w)  # a layout saved on a larger screen
        return bytes(state) if state is not None else b""

    # ------------------------------------------------------------------- switching

    def switch(self, name: str) -> None:
        """Show workspace ``name``: as the GM left it, else as declared. The workspace
        left keeps its arrangement for the next time."""
        if name not in layouts.WORKSPACES:
            raise KeyError(f"no workspace named {name!r}: {', '.join(layouts.ORDER)}")
        if name == self.current:
            return
        self.save()
        self.current = name
        self.settings.setValue(CURRENT, name)
        self.restore()
        self._check_entry()
        self.tidy()

    def tidy(self) -> None:
        """Hide the tab bars a layout left behind, now and once the layout has settled."""
        self.hide_stray_tab_bars()
        QTimer.singleShot(0, self.hide_stray_tab_bars)  # once the layout has settled

    def hide_stray_tab_bars(self) -> list[QTabBar]:
        """Hide the tab bars the window's layout left behind: after a switch moved the
        docks, Qt may leave a tab bar of an earlier layout shown (one tab, or the tabs of
        a group that no longer exists), drawn as a fragment over the docks. A tab bar in
        use shows the titles of one group of tabbed, shown docks (Qt shows a hidden one
        again when it uses it). Returns those hidden."""
        w = self.window
        docks = [d for d in self._docks() if d.isVisible() and not d.isFloating()]
        groups = set()
        for d in docks:
            tabbed = [t for t in w.tabifiedDockWidgets(d) if t.isVisible()]
            if tabbed:
                groups.add(frozenset(x.windowTitle() for x in (d, *tabbed)))
        members: dict[frozenset[str], list[QDockWidget]] = {}
        for d in docks:
            members.setdefault(
                frozenset(x.windowTitle() for x in (d, *w.tabifiedDockWidgets(d))), []
            ).append(d)
        hidden = []
        for bar in w.findChildren(QTabBar, options=_DIRECT):  # the window's own bars
            if not bar.isVisible():
                continue
            titles = frozenset(bar.tabText(i) for i in range(bar.count()))
            if bar.count() < 2 or titles not in groups or not _beside(bar, members[titles]):
                bar.hide()
                hidden.append(bar)
        return hidden

    def restore(self) -> None:
        """The current workspace as the GM left it (its declaration if never changed);
        a dock made after it was saved shows as declared."""
        saved = self.settings.value(state_key(self.current))
        if saved is None or not self.window.restoreState(saved):
            self.apply()
            return
        self._raise_front()
        QTimer.singleShot(0, self._raise_front)  # the tabs are rebuilt when laid out
        wanted = layouts.WORKSPACES[self.current].docks(self.small())
        for dock in self._docks():
            name = dock.objectName()
            if name in layouts.SELF_SHOWN:
                continue
            if layouts.TASK_DOCKS.get(name, self.current) != self.current:
                dock.hide()
            elif not names_dock(bytes(saved), name):
                dock.setVisible(name in wanted)

    def save(self) -> None:
        """Keep the current workspace's arrangement (switching away, closing), with the
        docks in front of their tabs."""
        store(self.settings, state_key(self.current), self.window.saveState())
        store(self.settings, CURRENT, self.current)
        if self.window.isVisible():
            front = [
                d.objectName()
                for d in self._docks()
                if d.isVisible()
                and not d.visibleRegion().isEmpty()
                # a task's dock shown on its way in (the zone editor's) is not the GM's
                and layouts.TASK_DOCKS.get(d.objectName(), self.current) == self.current
            ]
            store_list(self.settings, front_key(self.current), front)

    def _raise_front(self) -> None:
        """Put in front of each group of tabs the dock that was in front when the GM left
        the workspace, else the one it declares in front: ``restoreState`` brings a group
        back with its last shown dock in front (the Reserves over the Character dock, back
        in Play after Prepare)."""
        saved = self.settings.value(front_key(self.current)) or []
        if isinstance(saved, str):  # QSettings gives one value for a list of one
            saved = [saved]
        w = self.window
        docks = {d.objectName(): d for d in self._docks() if d.isVisible()}
        chosen: set[str] = set()
        for name in [*saved, *layouts.WORKSPACES[self.current].front]:
            dock = docks.get(name)
            if dock is None or name in chosen:
                continue
            group = {name, *(t.objectName() for t in w.tabifiedDockWidgets(dock))}
            if group & chosen:
                continue  # this group's front is chosen already
            dock.raise_()
            chosen |= group

    def reset(self) -> None:
        """View > Workspace > Reset workspace: the declared layout again."""
        self.settings.remove(state_key(self.current))
        self.settings.remove(front_key(self.current))
        self.apply()
        self.tidy()

    def apply(self, name: str | None = None) -> None:
        """Lay the docks out as workspace ``name`` (the current one) declares: which show,
        in which area and tab, and the columns' and the bottom row's sizes."""
        w = self.window
        size = w.size()  # a switch moves docks, never the window's edges
        ws = layouts.WORKSPACES[name or self.current]
        docks = {d.objectName(): d for d in self._docks()}
        small = self.small()
        wanted = ws.docks(small)
        for dock_name, dock in docks.items():
            if dock_name not in wanted and dock_name not in layouts.SELF_SHOWN:
                dock.hide()
        corner_area = AREAS["bottom"]
        if ws.side_columns_full_height:
            w.setCorner(Qt.Corner.BottomLeftCorner, AREAS["left"])
            w.setCorner(Qt.Corner.BottomRightCorner, AREAS["right"])
        else:
            w.setCorner(Qt.Corner.BottomLeftCorner, corner_area)
            w.setCorner(Qt.Corner.BottomRightCorner, corner_area)
        across: tuple[list[QDockWidget], list[int]] = ([], [])
        down: tuple[list[QDockWidget], list[int]] = ([], [])
        for place in ws.places_for(small):
            dock = docks.get(place.dock)
            if dock is None:  # not made yet (the editor's, the campaign's)
                continue
            dock.setFloating(False)
            front = docks.get(place.behind)
            if place.behind and front is not None:
                w.tabifyDockWidget(front, dock)
            else:
                w.addDockWidget(AREAS[place.area], dock)
                if place.area == "bottom":
                    down[0].append(dock)
                    down[1].append(max(round(place.share * w.height()), place.least))
                else:
                    across[0].append(dock)
                    across[1].append(max(round(place.share * w.width()), place.least))
            dock.show()
        for dock_name in ws.front:
            if dock_name in docks:
                docks[dock_name].raise_()
        if across[0]:
            w.resizeDocks(across[0], across[1], Qt.Orientation.Horizontal)
        if down[0]:
            w.resizeDocks(down[0], down[1], Qt.Orientation.Vertical)
        if w.size() != size:
            w.resize(size)

    def small(self) -> bool:
        """The screen is small (a 1280x720 laptop): the workspaces' small layouts."""
        return screens.is_small(screens.available(self.window))

    def for_task(self, *, campaign: bool = False) -> str:
        """The workspace the GM's task asks for now."""
        w = self.window
        editor = getattr(w, "zone_editor", None)
        doc = getattr(w, "doc", None)
        from afdesk.gui import modes

        return layouts.for_task(
            editing=editor is not None and editor.is_open(),
            mode=modes.screens_for(doc.encounter.mode).workspace if doc is not None else "",
            campaign=campaign,
        )

    def follow_task(self, *_args, campaign: bool = False) -> None:
        """Switch to the workspace the task asks for (not while the GM switches by hand)."""
        if not self._by_hand:
            self.switch(self.for_task(campaign=campaign))

    def follow_document(self, doc) -> None:
        """A document shown: its mode changes switch to the mode's workspace."""
        self._doc = doc
        self._links.clear()
        self._links.connect(doc.modeChanged, self.follow_task)
        self.follow_task()
        self.tidy()  # the first layout may leave bars behind too

    # ------------------------------------------------------------------------ menu

    def install_menu(self, view_menu: QMenu) -> QMenu:
        """View > Workspace: one entry per workspace and Reset workspace."""
        menu = view_menu.addMenu("&Workspace")
        group = QActionGroup(menu)
        for name in layouts.ORDER:
            act = menu.addAction(layouts.WORKSPACES[name].title)
            act.setCheckable(True)
            act.setData(name)
            group.addAction(act)
            act.triggered.connect(lambda _c=False, n=name: self.choose(n))
            self.entries[name] = act
        menu.addSeparator()
        reset = menu.addAction("&Reset workspace")
        reset.setStatusTip("Put back this workspace's docks as afdesk first laid them out")
        reset.triggered.connect(lambda _c=False: self.reset())
        self.menu = menu
        self._check_entry()
        return menu

    def choose(self, name: str) -> None:
        """The GM picked a workspace: Prepare opens the zone editor, another closes it."""
        editor = getattr(self.window, "zone_editor", None)
        self._by_hand = True
        try:
            if editor is not None:
                editor.action.setChecked(name == layouts.PREPARE)
            self.switch(name)
        finally:
            self._by_hand = False
        self.tidy()  # the zone editor's docks came or went too

    def _check_entry(self) -> None:
        if self.current in self.entries:
            self.entries[self.current].setChecked(True)

    def _docks(self) -> list[QDockWidget]:
        """The window's named docks (its own children: looking through every widget of
        the whole window for them cost the start several milliseconds, tidied 6 times)."""
        return [d for d in self.window.findChildren(QDockWidget, options=_DIRECT) if d.objectName()]


_DIRECT = Qt.FindChildOption.FindDirectChildrenOnly


def _beside(bar: QTabBar, docks: list[QDockWidget]) -> bool:
    """Whether ``bar`` sits against the edge of its group's ``docks``, as wide: the tab bar
    Qt uses for a group does; a copy of an earlier layout with the same tabs is drawn
    elsewhere, or as wide as the dock was before the window was resized."""
    b = bar.geometry()
    for dock in docks:
        d = dock.geometry()
        across = abs(b.left() - d.left()) <= 2 and abs(b.width() - d.width()) <= 2
        if across and (abs(b.top() - d.bottom() - 1) <= 4 or abs(d.top() - b.bottom() - 1) <= 4):
            return True
    return False


class _LayoutWatch(QObject):
    """Calls ``tidy`` once the window's layout has settled after it changed (the docks
    moved, the window was shown): Qt may leave a tab bar of the layout before drawn."""

    def __init__(self, window: QMainWindow, tidy) -> None:
        super().__init__(window)
        self._tidy = tidy
        self._due = False
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Show) and not self._due:
            self._due = True
            QTimer.singleShot(0, self, self._run)
        return False

    def _run(self) -> None:
        self._due = False
        self._tidy()
