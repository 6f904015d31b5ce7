"""A campaign's title of its own (Rename: undoable, journaled, in the dock and the window
title), File > Open recent campaign (a missing one greyed with the reason) and File > Add
encounter to campaign (an .afenc made elsewhere, copied under a free name, listed as
prepared)."""

from __future__ import annotations

import os
import shutil

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QInputDialog

from afdesk import paths
from afdesk.encounter.campaign.state import Play
from afdesk.gui.main_window import MainWindow
from afdesk.storage import campaign as store


@pytest.fixture
def window(qtbot, monkeypatch, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings)
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    failures: list[str] = []
    monkeypatch.setattr(w.reporter, "failed", lambda t, e, **kw: failures.append(f"{t}: {e}"))
    w.failures = failures
    return w


def test_rename_is_an_undoable_journaled_edit_shown_in_dock_and_title(
    window, tmp_path, monkeypatch
):
    assert window.campaign.create(tmp_path / "jade-road")
    control = window.campaign
    assert control.doc.campaign.name == "jade-road", "a new campaign starts with its folder's name"
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **kw: ("The Jade Road", True))
    control.panel.buttons["rename"].click()
    assert control.doc.campaign.name == "The Jade Road"
    assert "The Jade Road" in control.panel.header.text()
    assert "campaign The Jade Road" in window.windowTitle()
    assert store.load_campaign(tmp_path / "jade-road").campaign.name == "The Jade Road", "saved"
    if os.environ.get("AFDESK_SHOTS"):
        window.grab().save(os.path.join(os.environ["AFDESK_SHOTS"], "renamed.png"))
    assert control.doc.history.undo_text() == "Rename the campaign to 'The Jade Road'"
    control.undo()
    assert control.doc.campaign.name == "jade-road"
    assert "campaign jade-road" in window.windowTitle()
    control.redo()
    assert control.rename("  ") == "a campaign needs a name"
    assert control.doc.campaign.name == "The Jade Road", "refused: nothing changed"
    assert window.failures == ["The campaign was not renamed: a campaign needs a name"]


def test_recent_campaigns_grey_out_the_missing_ones_with_the_reason(window, tmp_path):
    for name in ("one", "two", "three"):
        assert window.campaign.create(tmp_path / name)
    shutil.rmtree(tmp_path / "two")
    (tmp_path / "three" / store.FILE_NAME).unlink()
    window.campaign.close()
    window._fill_recent_campaigns()
    acts = window.recent_campaigns_menu.actions()
    shown = [(a.text(), a.isEnabled()) for a in acts]
    assert shown == [
        ("&1 three (no campaign.afcamp in the folder any more)", False),
        ("&2 two (the folder is gone)", False),
        ("&3 one", True),
    ]
    acts[2].trigger()
    assert window.campaign.doc.folder == tmp_path / "one"
    window._fill_recent_campaigns()
    assert window.recent_campaigns_menu.actions()[0].text() == "&1 one", "newest first"
    assert window.failures == []


def test_an_encounter_made_elsewhere_joins_as_prepared_under_a_free_name(window, tmp_path):
    made = tmp_path / "elsewhere" / "ambush.afenc"
    made.parent.mkdir()
    shutil.copyfile(paths.sample_encounter(), made)
    assert not window.add_encounter_to_campaign(made), "no campaign open yet"
    assert window.failures[0].startswith("No campaign is open")
    assert window.campaign.create(tmp_path / "jade", "The Jade Road")
    doc = window.campaign.doc
    first = window.add_encounter_to_campaign(made)
    second = window.add_encounter_to_campaign(made)
    assert first and second
    a, b = doc.campaign.encounters
    assert a.file != b.file and a.file.endswith(".afenc") and b.file.endswith("-2.afenc")
    assert (a.play, b.play) == (Play.PREPARED, Play.PREPARED)
    assert (tmp_path / "jade" / a.file).read_bytes() == made.read_bytes(), "a copy, as it was"
    assert doc.history.undo_text().startswith("Prepare ")
    (tmp_path / "broken.afenc").write_text("{")
    assert not window.add_encounter_to_campaign(tmp_path / "broken.afenc")
    assert "broken.afenc" in window.failures[-1]
    assert len(doc.campaign.encounters) == 2, "a bad file changes nothing"
    assert sorted(p.name for p in (tmp_path / "jade").glob("*.afenc")) == sorted([a.file, b.file])


def test_undo_goes_on_after_a_restart(window, tmp_path, monkeypatch):
    """A clean close keeps the undo steps beside the campaign file; the next opening gives
    them back (and none when the file changed in between)."""
    folder = tmp_path / "jade"
    assert window.campaign.create(folder, "The Jade Road")
    assert window.campaign.rename("The Jade Road, part 2") == ""
    window.campaign.close()
    messages: list[str] = []
    monkeypatch.setattr(window, "show_message", messages.append)
    assert window.open_campaign(folder)
    doc = window.campaign.doc
    assert doc.campaign.name == "The Jade Road, part 2"
    assert doc.history.undo_text() == "Rename the campaign to 'The Jade Road, part 2'"
    window.campaign.undo()
    assert store.load_campaign(folder).campaign.name == "The Jade Road", "undone and saved"
    window.campaign.redo()
    window.campaign.close()
    loaded = store.load_campaign(folder)
    store.save_campaign(folder, loaded.campaign.replace(session=2))  # changed elsewhere
    assert window.open_campaign(folder)
    assert not window.campaign.doc.history.can_undo()
    assert "changed since afdesk last closed it" in messages[-1]
    assert window.failures == []
