"""An unexpected error inside a slot writes the journal, saves a
crash report with the traceback, tells the GM (with "copy details") and the window lives."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from afdesk.gui.crash import install, reports_dir
from afdesk.gui.main_window import MainWindow
from afdesk.storage.journal import pending_journals, recover
from tests.gui.test_table import fresh_doc, no_prompt


class Boom(RuntimeError):
    pass


@pytest.mark.qt_no_exception_capture
def test_an_error_in_a_slot_is_reported_and_the_session_goes_on(qtbot):
    window = no_prompt(MainWindow(QSettings()))
    qtbot.addWidget(window)
    window.show()
    window.set_document(fresh_doc())
    window.act_deal.trigger()
    state = window.doc.encounter.state()
    handler = install(window)
    try:
        bad = QAction("bug", window)

        def slot():
            raise Boom("a bug we have not found")

        bad.triggered.connect(slot)
        bad.trigger()
        assert len(handler.reports) == 1
        report = handler.reports[0]
        assert report.parent == reports_dir()
        text = report.read_text("utf-8")
        assert "Traceback (most recent call last)" in text
        assert "Boom: a bug we have not found" in text and "in slot" in text
        assert "Crash journal: written" in text
        box = handler.box
        assert box is not None and box.isVisible()
        assert "unexpected error" in box.windowTitle()
        copy = next(b for b in box.buttons() if "Copy details" in b.text())
        copy.click()
        assert "Boom: a bug we have not found" in QApplication.clipboard().text()
        assert box.isVisible()  # copying keeps the message open
        box.close()
        # The window is alive and still works.
        assert window.isVisible() and window.doc is not None
        assert window.doc.encounter.state() == state
        window.act_deal.trigger()
        journal = window.doc._journal
        journal.close(clean=False)  # as if afdesk died now
        window.doc._journal = None
        (p,) = pending_journals()
        assert recover(p) == window.doc.encounter.state()
    finally:
        handler.uninstall()
