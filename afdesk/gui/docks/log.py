"""The Log dock: every Op in plain words with the dice of each check, filterable, and
exportable as text or HTML."""

from __future__ import annotations

import contextlib
import html
from pathlib import Path

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QRect,
    QSize,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.ops.check import ResolveContest
from afdesk.encounter.snapshot import LogEntry
from afdesk.gui.commands import CommandContext
from afdesk.gui.document import EncounterDocument, Links

ROLE_ENTRY = Qt.ItemDataRole.UserRole + 1


def entry_line(entry: LogEntry) -> str:
    where = f"E{entry.exchange} R{entry.round}" if entry.exchange else "Setup"
    return f"[{where}] {entry.text}"


def entry_people(entry: LogEntry) -> set[str]:
    """Ids of the characters an entry is about (for the filter)."""
    op = entry.op
    ids = set()
    for field in ("id", "attacker", "target"):
        value = getattr(op, field, None)
        if isinstance(value, str):
            ids.add(value)
    if isinstance(op, ResolveContest):
        r = op.record
        ids.update({r.attacker, r.target, *(d.defender for d in r.defenses)})
    combatant = getattr(op, "combatant", None)
    if combatant is not None:
        ids.add(combatant.id)
    ids.discard("")
    return ids


class LogModel(QAbstractListModel):
    """The encounter log, following appends and undos without rebuilding."""

    def __init__(self, doc: EncounterDocument) -> None:
        super().__init__()
        self.doc = doc
        self._count = len(doc.encounter.log)
        doc.logChanged.connect(self._sync)

    def detach(self) -> None:
        """Stop following the document (the panel shows another one)."""
        with contextlib.suppress(RuntimeError, TypeError):
            self.doc.logChanged.disconnect(self._sync)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's default argument
        return 0 if parent.isValid() else self._count

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= self._count:
            return None
        entry = self.doc.encounter.log[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return entry_line(entry)
        if role == Qt.ItemDataRole.ToolTipRole:
            return entry.text
        if role == ROLE_ENTRY:
            return entry
        return None

    def _sync(self) -> None:
        new = len(self.doc.encounter.log)
        old = self._count
        if new > old:
            self.beginInsertRows(QModelIndex(), old, new - 1)
            self._count = new
            self.endInsertRows()
        elif new < old:
            self.beginRemoveRows(QModelIndex(), new, old - 1)
            self._count = new
            self.endRemoveRows()
        else:
            self.dataChanged.emit(self.index(0), self.index(max(new - 1, 0)))


class LogFilter(QSortFilterProxyModel):
    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.person = ""
        self.checks_only = False

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:
        entry = self.sourceModel().data(self.sourceModel().index(row, 0, parent), ROLE_ENTRY)
        if entry is None:
            return False
        if self.checks_only and not isinstance(entry.op, ResolveContest):
            return False
        if self.person and self.person not in entry_people(entry):
            return False
        return not self.text or self.text.lower() in entry_line(entry).lower()

    def refilter(self) -> None:
        self.invalidateFilter()


class _WrapDelegate(QStyledItemDelegate):
    """Row heights for lines wrapped to the view's width (a tree view asks for a size
    without saying how wide the row is)."""

    def __init__(self, parent) -> None:
        super().__init__(parent)
        self._sizes: dict[tuple, tuple[int, int]] = {}
        """Sizes already measured, by line, width and font (a new line measures the rows in
        view again; a long one wraps anew each time otherwise)."""

    def sizeHint(self, option, index):
        view = self.parent()
        width = max(view.viewport().width(), 1)
        deco = option.decorationSize
        key = (index.data(), width, option.font.key(), deco.width(), deco.height())
        size = self._sizes.get(key)
        if size is None:
            opt = QStyleOptionViewItem(option)
            opt.rect = QRect(0, 0, width, 1)  # valid: the text wraps
            measured = super().sizeHint(opt, index)
            size = (measured.width(), measured.height())
            if len(self._sizes) > 4000:
                self._sizes.clear()
            self._sizes[key] = size
        return QSize(*size)


class LogView(QTreeView):
    """The log's lines, one column, wrapped to the width: it measures only the rows it
    shows, so a new line costs the same however long the log is (a QListView with wrapped
    lines lays every row out again on each insert)."""

    def __init__(self) -> None:
        super().__init__()
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setItemsExpandable(False)
        self.setUniformRowHeights(False)
        # Long lines wrap to the dock's width: no sideways scrolling.
        self.setWordWrap(True)
        self.header().setStretchLastSection(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setItemDelegate(_WrapDelegate(self))
        self._width = -1

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.viewport().width() != self._width:  # the lines wrap anew
            self._width = self.viewport().width()
            self.scheduleDelayedItemsLayout()


class LogPanel(QWidget):
    """The log, filtered by text, person and kind; an export failure goes to ``ctx``'s
    reporter."""

    def __init__(self, ctx: CommandContext | None = None) -> None:
        super().__init__()
        self.ctx = ctx or CommandContext(self)
        self.doc: EncounterDocument | None = None
        self._links = Links()
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter the log…")
        self.search.setClearButtonEnabled(True)
        self.person = QComboBox()
        self.kind = QComboBox()
        self.kind.addItems(["Everything", "Checks only"])
        self.export_button = QPushButton("E&xport…")
        row.addWidget(self.search, 2)
        row.addWidget(self.person, 1)
        row.addWidget(self.kind)
        row.addWidget(self.export_button)
        layout.addLayout(row)
        self.view = LogView()
        self.view.setAlternatingRowColors(True)
        layout.addWidget(self.view)
        self.filter = LogFilter()
        self.view.setModel(self.filter)
        self.search.textChanged.connect(self._filter_changed)
        self.person.currentIndexChanged.connect(self._filter_changed)
        self.kind.currentIndexChanged.connect(self._filter_changed)
        self.export_button.clicked.connect(self.export_dialog)

    def set_document(self, doc: EncounterDocument) -> None:
        self.doc = doc
        self._links.clear()
        old = getattr(self, "model", None)
        self.model = LogModel(doc)
        self.filter.setSourceModel(self.model)
        if old is not None:
            old.detach()
            old.deleteLater()
        self._links.connect(self.model.rowsInserted, self._scroll_to_end)
        self._links.connect(self.model.rowsRemoved, self._scroll_to_end)
        self._links.connect(doc.rosterChanged, self._fill_people)
        self._fill_people()
        self.view.scrollToBottom()
        # Once laid out, the newest lines are what shows (not the setup's first ones).
        QTimer.singleShot(0, self.view.scrollToBottom)

    def _fill_people(self) -> None:
        current = self.person.currentData()
        self.person.blockSignals(True)
        self.person.clear()
        self.person.addItem("Everyone", "")
        for c in self.doc.encounter.roster():
            self.person.addItem(c.name, c.id)
        i = self.person.findData(current)
        self.person.setCurrentIndex(max(i, 0))
        self.person.blockSignals(False)

    def _filter_changed(self) -> None:
        self.filter.text = self.search.text().strip()
        self.filter.person = self.person.currentData() or ""
        self.filter.checks_only = self.kind.currentIndex() == 1
        self.filter.refilter()
        self._scroll_to_end()

    def _scroll_to_end(self, *_args) -> None:
        """The newest entries are what the table cares about: keep them in view."""
        self.view.scrollToBottom()

    def visible_entries(self) -> list[LogEntry]:
        return [
            self.filter.data(self.filter.index(r, 0), ROLE_ENTRY)
            for r in range(self.filter.rowCount())
        ]

    def export_dialog(self) -> None:
        name, _chosen = QFileDialog.getSaveFileName(
            self,
            "Export the log",
            f"{self.doc.encounter.meta.name} log.html",
            "HTML (*.html);;Text (*.txt)",
        )
        if not name:
            return
        try:
            export_log(self.doc, Path(name), self.visible_entries())
        except OSError as exc:
            self.ctx.reporter.failed("Export failed", f"Could not write {name}: {exc}")


def export_log(doc: EncounterDocument, path: Path, entries: list[LogEntry]) -> None:
    """Write ``entries`` as text, or as HTML when ``path`` ends in .html/.htm."""
    name = doc.encounter.meta.name
    if path.suffix.lower() in (".html", ".htm"):
        rows = "\n".join(
            f"<tr><td class='w'>{html.escape(entry_line(e).split(']')[0][1:])}</td>"
            f"<td>{_html_text(e)}</td></tr>"
            for e in entries
        )
        text = (
            "<!doctype html><meta charset='utf-8'>"
            f"<title>{html.escape(name)} — log</title>"
            "<style>body{font-family:sans-serif} td{padding:2px 8px;vertical-align:top}"
            " .w{color:#777;white-space:nowrap} .d{font-family:monospace;"
            "background:#f2efe6;padding:0 3px}</style>"
            f"<h1>{html.escape(name)}</h1><table>{rows}</table>\n"
        )
    else:
        text = f"{name}\n\n" + "\n".join(entry_line(e) for e in entries) + "\n"
    path.write_text(text, encoding="utf-8")


def _html_text(entry: LogEntry) -> str:
    out = html.escape(entry.text)
    # Dice lists such as [5,4,2] become dice-styled spans.
    import re

    return re.sub(r"\[([0-9,]+)\]", r"<span class='d'>\1</span>", out)
