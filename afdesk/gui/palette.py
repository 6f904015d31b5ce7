"""The command palette (Ctrl+K): every GM command of the registry
(:data:`afdesk.gui.commands.REGISTRY`) in one searchable list, with its shortcut and, for
one that cannot run now, the model's reason (``available(doc, who)``). Typing filters;
Enter (or a double-click) runs the chosen command through the window's own path, the one
its menus use; a command that cannot run stays open with its reason.

The encounter's commands run for the encounter, a character's for the selected character
(with none selected they are listed with the reason).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QFont, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.gui import commands as cmd
from afdesk.gui.text import sentence

if TYPE_CHECKING:
    from afdesk.gui.document import EncounterDocument

NO_CHARACTER = "select a character on the map first"
STEPS = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 10, Qt.Key.Key_PageUp: -10}
"""How far a key in the search field moves the choice."""


class Row(NamedTuple):
    """One command as the palette lists it."""

    command: cmd.Command
    who: str
    """The character it runs for ("" for the encounter's commands)."""
    text: str
    shortcut: str
    enabled: bool
    reason: str

    def words(self) -> str:
        """What a search matches: the text, the command's group and id, the shortcut."""
        return f"{self.text} {self.command.group} {self.command.id} {self.shortcut}".lower()


def rows(doc: EncounterDocument, cid: str, shortcuts: Mapping[str, str]) -> list[Row]:
    """Every registered command, the encounter's first, each with ``shortcuts``' key for
    its id and whether it may run now for the encounter or for character ``cid``."""
    out: list[Row] = []
    encounter = {c.id for c in cmd.ENCOUNTER}
    combatant = doc.encounter.combatants.get(cid)
    for command in cmd.ENCOUNTER:
        ok, reason = command.available(doc, "")
        label = command.label.replace("&", "")
        text = f"{command.group}: {label}" if command.group else label
        out.append(Row(command, "", text, shortcuts.get(command.id, ""), ok, reason))
    for command in cmd.REGISTRY:
        if command.id in encounter:
            continue
        shortcut = shortcuts.get(command.id, "")
        label = command.label.replace("&", "")
        if combatant is None:
            out.append(Row(command, "", label, shortcut, False, NO_CHARACTER))
            continue
        if command.offered(doc, cid):
            ok, reason = command.available(doc, cid)
            label = command.text(doc, cid).replace("&", "")
        else:
            ok, reason = False, f"not offered for {combatant.name} now"
        text = f"{combatant.name}: {label}"
        out.append(Row(command, cid, text, shortcut, ok, reason))
    return out


def matches(row: Row, query: str) -> bool:
    """Whether every word of ``query`` is in the row (case does not matter)."""
    words = row.words()
    return all(w in words for w in query.lower().split())


class CommandPalette(QDialog):
    """Search every command; Enter runs the chosen one with ``run(command, who)``."""

    def __init__(
        self,
        doc: EncounterDocument,
        cid: str,
        run: Callable[[cmd.Command, str], object],
        shortcuts: Mapping[str, str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Commands")
        self._run = run
        self.rows = rows(doc, cid, shortcuts or {})
        layout = QVBoxLayout(self)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Type to find a command, Enter runs it")
        self.search.setClearButtonEnabled(True)
        layout.addWidget(self.search)
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["Command", "Shortcut", "Why not now"])
        self.list.setRootIsDecorated(False)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the typing stays in the search
        header = self.list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        for row in self.rows:
            why = sentence(row.reason) if row.reason else ""
            item = QTreeWidgetItem([row.text, row.shortcut, why])
            if not row.enabled:
                font = QFont(item.font(0))
                font.setItalic(True)
                item.setFont(0, font)
                item.setToolTip(0, why)
                item.setToolTip(2, why)
            self.list.addTopLevelItem(item)
        layout.addWidget(self.list, 1)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self.run_current)
        self.search.installEventFilter(self)
        self.list.itemDoubleClicked.connect(lambda _item, _col: self.run_current())
        self.resize(720, 480)
        self._filter("")

    # ------------------------------------------------------------------ public API

    def shown(self) -> list[Row]:
        """The rows the search leaves in view, in order."""
        return [r for i, r in enumerate(self.rows) if not self.list.topLevelItem(i).isHidden()]

    def current(self) -> Row | None:
        item = self.list.currentItem()
        if item is None or item.isHidden():
            return None
        return self.rows[self.list.indexOfTopLevelItem(item)]

    def run_current(self) -> bool:
        """Run the chosen command (the window's path); one that cannot run now says why
        and the palette stays open. True if it ran."""
        row = self.current()
        if row is None:
            self.status.setText("No command matches what is typed.")
            return False
        if not row.enabled:
            self.status.setText(f"{row.text}: {sentence(row.reason)}")
            return False
        self.accept()
        self._run(row.command, row.who)
        return True

    # ---------------------------------------------------------------------- search

    def _filter(self, query: str) -> None:
        first = None
        for i, row in enumerate(self.rows):
            item = self.list.topLevelItem(i)
            hide = not matches(row, query)
            item.setHidden(hide)
            if not hide and first is None:
                first = item
        current = self.list.currentItem()
        if current is None or current.isHidden():
            self.list.setCurrentItem(first)
        self.status.setText("" if first is not None else "No command matches what is typed.")

    def _step(self, delta: int) -> None:
        shown = [
            self.list.topLevelItem(i)
            for i in range(self.list.topLevelItemCount())
            if not self.list.topLevelItem(i).isHidden()
        ]
        if not shown:
            return
        current = self.list.currentItem()
        at = shown.index(current) if current in shown else -delta
        self.list.setCurrentItem(shown[max(0, min(len(shown) - 1, at + delta))])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.search
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in STEPS
        ):
            self._step(STEPS[event.key()])
            return True
        return super().eventFilter(watched, event)


def open_over(
    parent: QWidget,
    doc: EncounterDocument | None,
    run: Callable[[cmd.Command, str], object],
    bound: Iterable[tuple[QAction, cmd.Command]],
) -> CommandPalette | None:
    """Open the palette over ``parent`` (the window) for ``doc`` and its selection: the
    shortcuts are those of the window's ``bound`` actions, ``run`` is the window's own way
    of running a command (the menus' path)."""
    if doc is None:
        return None
    native = QKeySequence.SequenceFormat.NativeText
    keys = {c.id: a.shortcut().toString(native) for a, c in bound if not a.shortcut().isEmpty()}
    palette = CommandPalette(doc, doc.selected or "", run, keys, parent)
    palette.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    palette.open()
    palette.search.setFocus()
    return palette
