"""One way a file becomes the shown document: every route (File > Open, a sample, a mode's
sample, a reload, a dropped file) goes through ``FileMenu.open_path`` and
``document_from_file``, with the same message and nothing changed when it cannot."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent

from afdesk import paths
from afdesk.encounter.state import Mode
from afdesk.gui import file_menu
from afdesk.gui.dialogs.file_changed import reload
from afdesk.gui.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    opened: list[tuple[str, bool]] = []
    real = file_menu.document_from_file

    def spy(path, *, copy=False):
        opened.append((path.name, copy))
        return real(path, copy=copy)

    monkeypatch.setattr(file_menu, "document_from_file", spy)
    w.opened = opened
    return w


def test_every_route_opens_through_the_one_function(window, tmp_path):
    own = tmp_path / "ford.afenc"
    shutil.copy(paths.sample_encounter(), own)
    window.open_sample()
    assert window.doc.path is None  # a copy, never saved over the bundled file
    window.mode_views.samples[Mode.CHASE].trigger()
    assert window.doc.encounter.mode is Mode.CHASE and window.doc.path is None
    assert window.open_path(own)
    assert window.doc.path == own
    assert reload(window, own)
    assert "Reloaded ford.afenc" in window.statusBar().currentMessage()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(own))])
    drop = QDropEvent(
        QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton, Qt.NoModifier
    )
    window.dropEvent(drop)
    assert window.opened == [
        ("river-ford.afenc", True),
        ("rooftop-chase.afenc", True),
        ("ford.afenc", False),
        ("ford.afenc", False),
        ("ford.afenc", False),
    ]


def test_a_file_that_cannot_be_read_changes_nothing_and_says_why(window, tmp_path):
    said: list[tuple[str, str]] = []
    window.reporter.failed = lambda title, error, *a, **k: said.append((title, str(error)))
    window.open_sample()
    shown = window.doc
    bad = tmp_path / "broken.afenc"
    bad.write_text("{ not json", encoding="utf-8")
    assert not window.open_path(bad)
    assert window.doc is shown
    assert not reload(window, bad)
    assert window.doc is shown
    assert [title for title, _ in said] == [
        "Cannot open the encounter",
        "Cannot reload the encounter",
    ]
    assert all("broken.afenc" in error for _, error in said), said
