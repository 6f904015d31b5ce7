"""The Log dock: every Op in plain words with the dice of each check, filterable, and
exportable as text or HTML."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QMetaObject, QRect, QSize, QStringListModel, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.snapshot import LogEntry
from afdesk.gui.commands import CommandContext
from afdesk.gui.document import EncounterDocument
from afdesk.gui.follow import Links
from afdesk.gui.style import EXPORT_PAGE
from afdesk.gui.text import escape


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


class LogModel(QStringListModel):
    """The log's lines that the filter lets through, following appends and undos without
    rebuilding. Qt holds the lines (a model in Python answered the view's layout, which
    visits every row on each new line, with two Python calls a row: 34 ms a line at
    20,000 lines); this keeps what each line was made from, and filters in one pass over
    lines lowered once (a Python ``filterAcceptsRow`` per row and key cost 40-55 ms a key
    at 10,500 lines).

    Qt holds the newest of those lines only, from :attr:`first` on: at most ``2 *
    WINDOW`` once lines are added, ``WINDOW`` after a filter (its view lays every row it
    holds out again on each new line, so a longer log would cost each line more);
    :meth:`show_earlier` brings back earlier ones when the GM scrolls to the top."""

    WINDOW = 1000

    def __init__(self, doc: EncounterDocument) -> None:
        super().__init__()
        self.doc = doc
        self.entries: list[LogEntry] = []
        """The log as last followed (its entries are immutable: an unchanged one is the
        same object)."""
        self._lines: list[str] = []
        self._lower: list[str] = []
        self._people: list[set[str] | None] = []
        self.rows: list[int] = []
        """The index in the log of each line the filter lets through, ascending."""
        self.first = 0
        """The first of :attr:`rows` that Qt holds (row 0 of this model)."""
        self.text = ""
        self.person = ""
        self.checks_only = False
        self._recent: dict[tuple[str, str, bool], list[int]] = {}
        """The lines recent filters let through, while the log is unchanged."""
        self.examined = 0
        """How many lines the filters looked through (a test counts the work)."""
        self._take(0)
        self.set_filter("", "", False)
        self._links = Links()
        self._links.connect(doc.logChanged, self._sync)

    def detach(self) -> None:
        """Stop following the document (the panel shows another one)."""
        self._links.clear()

    def entry(self, row: int) -> LogEntry | None:
        """The log entry shown at ``row`` (None outside the rows)."""
        at = self.first + row
        return self.entries[self.rows[at]] if row >= 0 and at < len(self.rows) else None

    def set_filter(self, text: str, person: str, checks_only: bool) -> None:
        """Show only the lines containing ``text`` (any case), about ``person`` (an id; ""
        for everyone), and only checks if ``checks_only``.

        A key typed or taken back costs the lines it can change, not the log: a longer
        text (the earlier one inside it) looks only through the lines the earlier one let
        through, and a filter of the last few, unchanged since (the log too), is taken as
        it was (:attr:`examined` counts the lines looked at)."""
        key = (text.lower(), person, checks_only)
        narrower = key[1:] == (self.person, self.checks_only) and self.text in key[0] != self.text
        self.text, self.person, self.checks_only = key
        rows = self._recent.get(key)
        if rows is None:
            within = self.rows if narrower else range(len(self.entries))
            self.examined += len(within)
            rows = self._accepted(within)
            if len(self._recent) >= 16:
                self._recent.clear()
            self._recent[key] = rows
        self.rows = list(rows)
        self._hold_newest()

    def _hold_newest(self) -> None:
        self.first = max(len(self.rows) - self.WINDOW, 0)
        self.setStringList([self._lines[i] for i in self.rows[self.first :]])

    def show_earlier(self) -> int:
        """Hold up to ``WINDOW`` earlier lines too (added at the top); how many."""
        count = min(self.WINDOW, self.first)
        if count:
            self.insertRows(0, count)
            self.first -= count
            for row in range(count):
                self.setData(self.index(row), self._lines[self.rows[self.first + row]])
        return count

    def _accepted(self, indices: Sequence[int]) -> list[int]:
        rows = list(indices)
        if self.checks_only:
            rows = [i for i in rows if isinstance(self.entries[i].op, ResolveContest)]
        if self.person:
            rows = [i for i in rows if self.person in self._people_of(i)]
        if self.text:
            text, lower = self.text, self._lower
            rows = [i for i in rows if text in lower[i]]
        return rows

    def _people_of(self, i: int) -> set[str]:
        people = self._people[i]
        if people is None:
            people = self._people[i] = entry_people(self.entries[i])
        return people

    def _take(self, keep: int) -> None:
        """Follow the log from its entry ``keep`` on (the rows are the caller's)."""
        for part in (self.entries, self._lines, self._lower, self._people):
            del part[keep:]
        added = self.doc.encounter.log[keep:]
        lines = [entry_line(e) for e in added]
        self.entries.extend(added)
        self._lines.extend(lines)
        self._lower.extend(line.lower() for line in lines)
        self._people.extend([None] * len(added))

    def _sync(self) -> None:
        """Follow the log, which changes at its end only: lines added, lines undone, or cut
        back and extended (a restore)."""
        log = self.doc.encounter.log
        old, new = self.entries, len(log)
        keep = min(len(old), new)
        if keep and old[keep - 1] is not log[keep - 1]:
            keep = next(i for i in range(keep) if old[i] is not log[i])
        if keep == len(old) == new:
            return
        self._recent.clear()  # their lines no longer cover the log
        cut = bisect.bisect_left(self.rows, keep)
        if cut < self.first:  # cut back beyond what Qt holds: hold the newest again
            del self.rows[cut:]
            self._take(keep)
            self.rows.extend(self._accepted(range(keep, new)))
            self._hold_newest()
            return
        if cut < len(self.rows):
            self.removeRows(cut - self.first, len(self.rows) - cut)
            del self.rows[cut:]
        self._take(keep)
        shown = self._accepted(range(keep, new))
        if shown:
            end = len(self.rows) - self.first
            self.rows.extend(shown)
            self.insertRows(end, len(shown))
            for k, i in enumerate(shown):
                self.setData(self.index(end + k), self._lines[i])
        held = len(self.rows) - self.first
        if held > 2 * self.WINDOW:  # the oldest held lines go (the view is at the end)
            self.removeRows(0, held - self.WINDOW)
            self.first = len(self.rows) - self.WINDOW


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

    def helpEvent(self, event, view, option, index) -> bool:
        """A line's tooltip is its entry's words (Qt holds only the lines)."""
        model = index.model()
        if event.type() == QEvent.Type.ToolTip and isinstance(model, LogModel):
            entry = model.entry(index.row())
            if entry is not None:
                QToolTip.showText(event.globalPos(), entry.text, view)
                return True
        return super().helpEvent(event, view, option, index)


class LogView(QTreeView):
    """The log's lines, one column, wrapped to the width: it measures only the rows it
    shows, so a new line costs the same however long the log is (a QListView with wrapped
    lines lays every row out again on each insert)."""

    def __init__(self) -> None:
        super().__init__()
        # A viewport made here, as the one Qt makes: PySide6 meeting Qt's own through
        # viewport() would first make Python classes for every widget class it knows.
        self.setViewport(QWidget())
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setItemsExpandable(False)
        self.setEditTriggers(QTreeView.EditTrigger.NoEditTriggers)  # the log is read-only
        self.setUniformRowHeights(False)
        # Long lines wrap to the dock's width: no sideways scrolling.
        self.setWordWrap(True)
        self.header().setStretchLastSection(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Kept here: setItemDelegate takes no ownership, and a delegate only Qt points
        # at was collected with its C++ object while the view still laid rows out with
        # it (a segfault in the log's sizeHint, whenever a collection ran first).
        self._delegate = _WrapDelegate(self)
        self.setItemDelegate(self._delegate)
        self._width = -1
        self.at_end_when_shown = False
        """Lines came while hidden: scroll to the newest when shown."""

    def scroll_to_end_soon(self) -> None:
        """Scroll to the newest line once the events waiting now are handled (laid out).

        Qt's own slot, queued: no Python callable waits for it. On Python 3.13 a
        ``QTimer.singleShot`` aimed at the view's ``scrollToBottom`` fired into a view
        whose panel the collector was taking apart, its model and delegate gone (a
        segfault in QTreeViewPrivate::itemHeight); a queued call goes with its view."""
        QMetaObject.invokeMethod(self, "scrollToBottom", Qt.ConnectionType.QueuedConnection)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.at_end_when_shown:
            self.at_end_when_shown = False
            self.scroll_to_end_soon()

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
        self.view.verticalScrollBar().valueChanged.connect(self._scrolled)
        layout.addWidget(self.view)
        self.model: LogModel | None = None
        self.search.textChanged.connect(self._filter_changed)
        self.person.currentIndexChanged.connect(self._filter_changed)
        self.kind.currentIndexChanged.connect(self._filter_changed)
        self.export_button.clicked.connect(self.export_dialog)

    def set_document(self, doc: EncounterDocument) -> None:
        self.doc = doc
        self._links.clear()
        self._fill_people()
        old = self.model
        self.model = LogModel(doc)
        self._apply_filter()
        self.view.setModel(self.model)
        if old is not None:
            old.detach()
            old.deleteLater()
        self._links.connect(self.model.rowsInserted, self._lines_added)
        self._links.connect(self.model.rowsRemoved, self._scroll_to_end)
        self._links.connect(doc.rosterChanged, self._fill_people)
        self.view.scrollToBottom()
        # Once laid out, the newest lines are what shows (not the setup's first ones).
        self.view.scroll_to_end_soon()

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
        if i < 0 and current:  # the one chosen left the roster: everyone's lines again
            self._filter_changed()

    def _filter_changed(self) -> None:
        if self.model is not None:
            self._apply_filter()
            self._scroll_to_end()

    def _apply_filter(self) -> None:
        assert self.model is not None
        self.model.set_filter(
            self.search.text().strip(),
            self.person.currentData() or "",
            self.kind.currentIndex() == 1,
        )

    def _lines_added(self, _parent, first: int, _last: int) -> None:
        if first > 0:  # new lines at the end (earlier ones come at the top)
            self._scroll_to_end()

    def _scroll_to_end(self, *_args) -> None:
        """The newest entries are what the table cares about: keep them in view (a view
        nobody sees scrolls when it shows)."""
        if self.view.isVisible():
            self.view.scrollToBottom()
        else:
            self.view.at_end_when_shown = True

    def _scrolled(self, value: int) -> None:
        if value == self.view.verticalScrollBar().minimum() and self.view.isVisible():
            QTimer.singleShot(0, self, self._earlier)  # if still there (not a reset)

    def _earlier(self) -> None:
        """At the top of what Qt holds: the earlier lines come, the GM's place kept."""
        bar = self.view.verticalScrollBar()
        if self.model is None or bar.value() != bar.minimum() or not self.view.isVisible():
            return
        added = self.model.show_earlier()
        if added:
            self.view.scrollTo(self.model.index(added), QTreeView.ScrollHint.PositionAtTop)

    def visible_entries(self) -> list[LogEntry]:
        """The entries the filter lets through, oldest first."""
        if self.model is None:
            return []
        return [self.model.entries[i] for i in self.model.rows]

    def export_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # made when first used

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
            f"<tr><td class='w'>{escape(entry_line(e).split(']')[0][1:])}</td>"
            f"<td>{_html_text(e)}</td></tr>"
            for e in entries
        )
        text = (
            "<!doctype html><meta charset='utf-8'>"
            f"<title>{escape(name)} — log</title>"
            "<style>body{font-family:sans-serif} td{padding:2px 8px;vertical-align:top}"
            f" .w{{color:{EXPORT_PAGE['hint']};white-space:nowrap}} .d{{font-family:monospace;"
            f"background:{EXPORT_PAGE['dice']};padding:0 3px}}</style>"
            f"<h1>{escape(name)}</h1><table>{rows}</table>\n"
        )
    else:
        text = f"{name}\n\n" + "\n".join(entry_line(e) for e in entries) + "\n"
    path.write_text(text, encoding="utf-8")


def _html_text(entry: LogEntry) -> str:
    out = escape(entry.text)
    # Dice lists such as [5,4,2] become dice-styled spans.
    import re

    return re.sub(r"\[([0-9,]+)\]", r"<span class='d'>\1</span>", out)
