"""One way the GUI changes an encounter (afdesk.gui.push): a refusal is said beside the
control used and in the status bar, and changes nothing; no widget pushes another way."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

import afdesk.gui
from afdesk.encounter.ops.meta import Rename
from afdesk.gui.main_window import MainWindow
from afdesk.gui.push import NO_ENCOUNTER, push

GUI = Path(afdesk.gui.__file__).parent


def test_a_refusal_is_said_beside_the_control_and_changes_nothing(qtbot, tmp_path, doc):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.maybe_save = lambda: True  # the document is changed: closing asks nothing
    qtbot.addWidget(w)
    w.set_document(doc)
    label = QLabel("old words")
    before = doc.encounter.state()
    assert not push(doc, Rename("   "), beside=label)
    assert label.text() == "An encounter needs a name."
    assert not w._refusal  # to whoever pushed, not to every view
    assert not w.ctx.push(Rename("   "), beside=label)  # the commands say it in the bar too
    assert w._refusal == "An encounter needs a name."
    assert doc.encounter.state() == before and not doc.undo_stack.canUndo()
    heard: list[str] = []
    assert push(doc, Rename("A new name"), beside=heard.append)
    assert heard == [""] and doc.encounter.meta.name == "A new name"
    assert push(doc, Rename("Again"), beside=label) and label.text() == ""


def test_no_encounter_open_is_said_too(qapp):
    label = QLabel()
    assert not push(None, Rename("x"), beside=label)
    assert label.text() == NO_ENCOUNTER


def test_no_widget_pushes_an_op_another_way():
    """Only afdesk/gui/push.py calls the document's push; the campaign's own document
    (campaign edits, not Ops) is another thing."""
    direct = []
    for path in GUI.rglob("*.py"):
        if path.name == "push.py" or path.parent.name == "campaign":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bdoc\.push(_many)?\(", line) and "``" not in line:
                direct.append(f"{path.relative_to(GUI)}:{n}")
    assert direct == []
