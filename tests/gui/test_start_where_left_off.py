"""Every start used to open the river-ford sample: now afdesk opens what the GM had open
last (QSettings holds it), shows a start page when that is gone or was closed (File >
Close), and opens the sample only on a fresh machine; ``afdesk FILE`` still opens FILE."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from afdesk.encounter.ops.roster import AdjustCounter
from afdesk.gui import app, start_page
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.paths import sample_encounter
from afdesk.storage import load
from afdesk.storage import samples as sample
from tests.gui.test_table import no_prompt, shown

SAMPLE_NAME = load(sample_encounter()).state.meta.name


def started(qtbot, file: str | None = None) -> MainWindow:
    """A start as ``afdesk [FILE]`` makes it, with this test's settings."""
    w = no_prompt(shown(qtbot, MainWindow(QSettings(), defer=True)))
    app.start(w, file)
    w.complete()
    return w


def saved_encounter(qtbot, tmp_path, name="ford.afenc"):
    w = no_prompt(shown(qtbot, MainWindow(QSettings())))
    w.set_document(EncounterDocument(sample.build()))
    path = tmp_path / name
    assert w._save_to(path)
    w.close()
    return path


def test_a_fresh_machine_opens_the_sample(qtbot):
    w = started(qtbot)
    assert w.doc is not None and w.doc.path is None
    assert w.doc.encounter.meta.name == SAMPLE_NAME
    assert getattr(w, "start_page", None) is None


def test_the_next_start_opens_the_last_encounter(qtbot, tmp_path):
    path = saved_encounter(qtbot, tmp_path)
    w = started(qtbot)
    assert w.doc.path == path and not w.doc.is_modified()


def test_a_file_given_is_opened_whatever_was_last(qtbot, tmp_path):
    saved_encounter(qtbot, tmp_path, "ford.afenc")
    other = saved_encounter(qtbot, tmp_path, "mill.afenc")
    saved_encounter(qtbot, tmp_path, "ford.afenc")  # the last one again
    w = started(qtbot, str(other))
    assert w.doc.path == other


def test_a_last_encounter_that_is_gone_shows_the_start_page_saying_so(qtbot, tmp_path):
    path = saved_encounter(qtbot, tmp_path)
    path.unlink()
    w = started(qtbot)
    assert w.doc is None
    page = w.start_page
    assert page.isVisible() and page.geometry() == w.map.rect()
    assert "is gone" in page.note.text() and str(path) in page.note.text()
    assert not w.act_save.isEnabled() and not w.act_undo.isEnabled()
    assert not w.act_deal.isEnabled(), "nothing to deal to on the start page"
    rows = [page.list.item(i).text() for i in range(page.list.count())]
    gone = next(i for i, r in enumerate(rows) if "ford.afenc" in r)  # listed, not offered
    assert rows[gone].endswith(": missing")
    assert not page.list.item(gone).flags() & Qt.ItemFlag.ItemIsEnabled
    assert page.list.currentRow() != gone
    assert any(r.startswith("Sample: River ford") for r in rows)
    sample_row = next(i for i, r in enumerate(rows) if r.startswith("Sample: River ford"))
    assert page.open_item(page.list.item(sample_row))
    assert not page.isVisible() and w.doc.encounter.meta.name == SAMPLE_NAME
    assert w.act_save.isEnabled() and w.act_close.isEnabled()


@pytest.mark.parametrize(
    ("answer", "closes"),
    [(QMessageBox.StandardButton.Cancel, False), (QMessageBox.StandardButton.Discard, True)],
)
def test_file_close_asks_then_closes_to_the_start_page(
    qtbot, tmp_path, monkeypatch, answer, closes
):
    path = saved_encounter(qtbot, tmp_path)
    w = started(qtbot)
    del w.maybe_save  # the real question
    doc = w.doc
    assert doc.push(AdjustCounter("huang", "hits", 1)) == ""
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or answer)
    w.act_close.trigger()
    assert len(asked) == 1 and "not saved" in asked[0][2]
    if not closes:
        assert w.doc is doc and doc.encounter.combatants["huang"].hits == 1
        no_prompt(w)
        return
    assert w.doc is None and w.start_page.isVisible()
    assert w.map.doc is not doc and w.combatant_panel.doc is not doc, "views let go of it"
    assert w.windowTitle() == "afdesk"
    w.close()
    again = started(qtbot)  # closed to the start page: the next start shows it too
    assert again.doc is None and again.start_page.isVisible()
    assert not again.start_page.note.isVisible()
    row = next(
        i
        for i in range(again.start_page.list.count())
        if again.start_page.list.item(i).text().startswith("Encounter: ford.afenc")
    )
    assert again.start_page.open_item(again.start_page.list.item(row))
    assert again.doc.path == path and not again.start_page.isVisible()


def settings_file_stamp() -> tuple[int, int]:
    """The settings file's inode and modification time, once what is pending is written:
    QSettings writes its whole file anew (another inode) for any value set."""
    import os

    settings = QSettings()
    settings.sync()
    stat = os.stat(settings.fileName())
    return stat.st_ino, stat.st_mtime_ns


def test_reopening_the_last_encounter_rewrites_no_settings(qtbot, tmp_path):
    """Opening the file the GM had open last sets nothing new: the settings file (rewritten
    whole and flushed to the disk for any value set) is left as it was."""
    path = saved_encounter(qtbot, tmp_path)
    before = settings_file_stamp()
    w = started(qtbot)
    assert w.doc.path == path
    assert settings_file_stamp() == before
    settings = QSettings()
    assert start_page.recent(settings) == [str(path.resolve())]
    assert start_page.last(settings) == ("encounter", path.resolve())


def test_closing_a_window_nothing_was_changed_in_rewrites_no_settings(qtbot, tmp_path):
    """The window's geometry, its docks and the workspace are set at every close; unchanged,
    the settings file (rewritten whole and flushed to the disk for any value set) is left
    as it was. A window moved since is kept."""
    path = saved_encounter(qtbot, tmp_path)
    first = started(qtbot)
    first.close()  # the first close of a started window keeps its geometry and docks
    before = settings_file_stamp()
    again = started(qtbot)
    assert again.doc.path == path
    again.close()
    assert settings_file_stamp() == before
    moved = started(qtbot)
    moved.resize(moved.width() - 40, moved.height() - 30)
    moved.close()
    assert settings_file_stamp() != before
    kept = QSettings().value("window/geometry")
    assert kept == moved.saveGeometry()
