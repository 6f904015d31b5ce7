"""Importing a bestiary never overwrites a same-name entry unasked: the conflicts dialog lists
each with what differs, and the GM updates, skips or keeps both, per entry; OK is one
undoable campaign step, Cancel changes nothing."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.campaign.edits import PutCharacter
from afdesk.encounter.campaign.merge import Choice
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.combatant import Side
from afdesk.gui.campaign.import_dialog import ImportConflictsDialog
from afdesk.gui.main_window import MainWindow
from afdesk.storage import campaign as store


def _beast(cid: str, name: str, grit: int) -> Character:
    return Character(
        id=cid, name=name, role=Role.TEMPLATE, side=Side.OPPONENT, grit=grit, grit_max=9
    )


@pytest.fixture
def roster(qtbot, tmp_path, monkeypatch):
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    failures: list[str] = []
    monkeypatch.setattr(w.reporter, "failed", lambda t, e, **kw: failures.append(str(e)))
    assert w.campaign.create(tmp_path / "jade", "The Jade Road")
    doc = w.campaign.doc
    assert doc.push([PutCharacter(_beast("bandit", "Bandit", 9))]) == ""
    assert doc.push([PutCharacter(_beast("wolf", "Wolf", 2))]) == ""
    file = [_beast("bandit", "Bandit", 7), _beast("wolf", "Wolf", 3), _beast("tiger", "Tiger", 5)]
    store.export_characters(tmp_path / "bestiary.afchars", file)
    w.campaign.panel.buttons["roster"].click()
    dlg = w.campaign.dialog
    dlg.path = tmp_path / "bestiary.afchars"
    yield dlg
    assert failures == []


def _bestiary(dlg) -> list[tuple[str, str, int]]:
    return [(c.id, c.name, c.grit) for c in dlg.doc.campaign.bestiary]


def test_the_conflicts_are_listed_and_nothing_changes_until_ok(roster, tmp_path):
    before = roster.doc.campaign
    assert roster.import_file(roster.path) == ""
    box = roster.conflicts_dialog
    assert isinstance(box, ImportConflictsDialog) and box.isVisible()
    assert roster.doc.campaign == before, "asked first: the local Bandit keeps grit 9"
    table = box.table
    rows = [(table.item(r, 0).text(), table.item(r, 1).text()) for r in range(table.rowCount())]
    assert rows == [
        ("Bandit (Bestiary)", "grit: 9 here, 7 in the file"),
        ("Wolf (Bestiary)", "grit: 2 here, 3 in the file"),
    ]
    assert box.choices() == {"Bandit": Choice.SKIP, "Wolf": Choice.SKIP}, "skip unless told"
    if os.environ.get("AFDESK_SHOTS"):
        roster.window().grab().save(os.path.join(os.environ["AFDESK_SHOTS"], "main.png"))
        box.grab().save(os.path.join(os.environ["AFDESK_SHOTS"], "import_conflicts.png"))
    box.reject()
    assert roster.doc.campaign == before, "Cancel imports nothing"


def test_per_entry_choices_are_one_undoable_step(roster):
    before = roster.doc.campaign
    roster.import_file(roster.path)
    box = roster.conflicts_dialog
    box.choose("Bandit", Choice.KEEP_BOTH)
    box.choose("Wolf", Choice.UPDATE)
    box.accept()
    assert _bestiary(roster) == [
        ("bandit", "Bandit", 9),
        ("wolf", "Wolf", 3),
        ("bandit-2", "Bandit 2", 7),
        ("tiger", "Tiger", 5),
    ]
    assert roster.doc.history.undo_text() == "Import 3 characters from bestiary.afchars"
    roster.doc.undo()
    assert roster.doc.campaign == before


def test_skip_keeps_the_local_entry_and_brings_the_new_ones(roster):
    roster.import_file(roster.path)
    roster.conflicts_dialog.accept()
    assert _bestiary(roster) == [
        ("bandit", "Bandit", 9),
        ("wolf", "Wolf", 2),
        ("tiger", "Tiger", 5),
    ]
