"""One way to follow a document (afdesk.gui.follow): every view that shows the window's
document asks once with ``follow``; it is handed the document shown now and every one shown
after, and its connections to one document are a ``Links`` dropped when the next comes."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

import afdesk.gui
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.state import Meta, Mode
from afdesk.gui.document import EncounterDocument
from afdesk.gui.follow import Links, follow
from afdesk.gui.main_window import MainWindow

GUI = Path(afdesk.gui.__file__).parent


def _window(qtbot, tmp_path) -> MainWindow:
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    return w


class Shows(QWidget):
    """A view as a new panel would be: it remembers what it was shown."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[object] = []
        self.links = Links()
        self.changes = 0

    def set_document(self, doc) -> None:
        self.shown.append(doc)
        self.links.clear()
        self.links.connect(doc.changed, self._changed)

    def _changed(self) -> None:
        self.changes += 1


def _doc(name: str) -> EncounterDocument:
    return EncounterDocument(Encounter(meta=Meta(name=name)), journal_factory=lambda d: None)


def test_a_view_gets_the_document_now_and_every_one_after(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path)
    w.set_document(doc)
    view, late = Shows(), Shows()
    follow(w, view.set_document)
    assert view.shown == [doc]  # made after the document opened: shown it at once
    follow(w, late.set_document, now=False)
    assert late.shown == []  # only what comes next
    other = _doc("Other")
    w.set_document(other)
    assert view.shown == [doc, other] and late.shown == [other]


def test_the_old_document_drives_no_view_of_the_new(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path)
    w.set_document(doc)
    view = Shows()
    follow(w, view.set_document)
    first = doc
    w.set_document(_doc("Other"))
    before = view.changes
    first.changed.emit()  # the old document, still alive here, says it changed
    assert view.changes == before


def test_a_destroyed_view_stops_following(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path)
    w.set_document(doc)
    view = Shows()
    follow(w, view.set_document)
    view.deleteLater()
    qtbot.waitUntil(lambda: not _alive(view))
    w.set_document(_doc("Other"))  # no error from a slot of a deleted view


def _alive(widget) -> bool:
    from shiboken6 import isValid

    return isValid(widget)


def test_every_view_follows_a_new_document_also_those_made_late(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path)
    w.set_document(doc)
    w.show_player_view()
    other = _doc("Other")
    assert other.push(ChangeMode(Mode.INFILTRATION)) == ""
    w.set_document(other)
    reserves = w.reserves_panel  # a dock behind a tab, made now
    views = {
        "map": w.map,
        "reflex": w.reflex_panel,
        "character": w.combatant_panel,
        "log": w.log_panel,
        "reserves": reserves,
        "decisions": w.decisions,
        "unplaced": w.unplaced,
        "mode views": w.mode_views,
        "infiltration dock": w.mode_views.extras[Mode.INFILTRATION].panel,
        "infiltration layer": w.mode_views.extras[Mode.INFILTRATION].layer,
        "players' map": w.player_window.view,
    }
    stale = [name for name, view in views.items() if view.doc is not other]
    assert stale == []


def test_closing_hands_every_view_an_empty_document(qtbot, tmp_path, doc):
    w = _window(qtbot, tmp_path)
    w.set_document(doc)
    views = (w.map, w.reflex_panel, w.combatant_panel, w.log_panel, w.decisions)
    assert w.close_encounter()
    assert w.doc is None
    for view in views:
        assert view.doc is not doc and view.doc is not None


def test_no_module_follows_a_document_any_other_way():
    """``documentChanged`` is connected only by follow(), no module hands a view the
    window's document itself (the old "made late: show it now" lines), and no view lets go
    of a document's signals by hand (a Links does)."""
    connects = re.compile(r"documentChanged\.connect\(")
    hands = re.compile(r"\.set_document\((?:self\.window|window)\.doc\)")
    unlinks = re.compile(r"\b_?doc\.\w+\.disconnect\(")
    found = []
    for path in sorted(GUI.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(GUI).as_posix()
        if rel != "follow.py" and connects.search(text):
            found.append(f"{rel}: connects documentChanged")
        if unlinks.search(text):
            found.append(f"{rel}: disconnects a document's signal by hand (use Links)")
        for m in hands.finditer(text):
            line = text[: m.start()].count("\n") + 1
            found.append(f"{rel}:{line}: hands a view the window's document")
    assert found == []
