"""A short campaign played through the window ("Done when"): create it, a band of
four and a bestiary of three, prepare two encounters, run the first (someone loses grit and
becomes exhausted, E15), carry over, run the second and find the band as the first left
them; a new session (R10); reopening offers to resume; bad campaign files change nothing."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from afdesk.encounter.campaign.roster import Role
from afdesk.encounter.campaign.state import Play
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.flow import EndEncounter, NextTurn
from afdesk.encounter.ops.meta import AdjustRefereeShifts
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AdjustCounter
from afdesk.encounter.state import Phase
from afdesk.gui.campaign.carry_dialog import CarryOverDialog
from afdesk.gui.campaign.prepare_dialog import PrepareDialog
from afdesk.gui.campaign.roster_dialog import RosterDialog
from afdesk.gui.dialogs.persevere import PersevereDialog
from afdesk.gui.main_window import MainWindow
from afdesk.rules.dice import RandomSource
from afdesk.storage import campaign as store
from afdesk.storage import load

BAND = ("Huang", "Chen", "Mara", "Oskar")
BESTIARY = ("Bandit", "Bandit archer", "River serpent")


@pytest.fixture
def window(qtbot, monkeypatch):
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.rng = random.Random(7)
    qtbot.addWidget(w)
    w.show()
    failures = []
    monkeypatch.setattr(w.reporter, "failed", lambda title, err, **kw: failures.append(str(err)))
    w.failures = failures
    return w


def make_roster(window) -> dict[str, str]:
    """The band of four and a bestiary of three, typed into the roster editor."""
    window.campaign.panel.buttons["roster"].click()
    dlg = window.campaign.dialog
    assert isinstance(dlg, RosterDialog)
    ids = {}
    for role, names in ((Role.BAND, BAND), (Role.TEMPLATE, BESTIARY)):
        for name in names:
            cid = dlg.add(role, name)
            assert cid == name.lower().replace(" ", "-"), dlg.error.text()
            if name == "Huang":
                dlg.form.days.setValue(5)  # no rest for five days: persevere needs a margin of 6
            if name == "Bandit":
                dlg.form.grit_max.setValue(2)
                dlg.form.grit.setValue(2)
            assert dlg.apply(), dlg.error.text()
            ids[name] = cid
    dlg.accept()
    return ids


def prepare(window, title: str, links: list[str], counts: dict[str, int]) -> str:
    window.campaign.panel.buttons["prepare"].click()
    dlg = window.campaign.dialog
    assert isinstance(dlg, PrepareDialog)
    dlg.name.setText(title)
    dlg.picker.choose(links, counts)
    dlg.accept()
    assert not dlg.error.text()
    (e,) = [e for e in window.campaign.doc.campaign.encounters if e.title == title]
    return e.id


def fight_two_exchanges(doc) -> None:
    rng = random.Random(5)
    for _ in range(2):
        assert doc.push(deal_hands(doc.encounter, rng)) == ""
        while doc.encounter.turn.phase is not Phase.EXCHANGE_END:
            if doc.encounter.turn.phase is Phase.CARDS:
                assert doc.push(play_cards(doc.encounter, rng=rng)) == ""
            else:
                assert doc.push(NextTurn()) == ""
    assert doc.push(AdjustCounter("huang", "grit", -2), "A bandit's club") == ""
    assert doc.push(AdjustRefereeShifts(-2)) == "", "the bandits' Shifts (R10)"
    assert doc.push(EndEncounter()) == ""


def test_a_short_campaign_through_the_window(window, tmp_path, monkeypatch, qtbot):
    folder = tmp_path / "the-river"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    window.act_new_campaign.trigger()
    control = window.campaign
    assert control.doc is not None and (folder / "campaign.afcamp").exists()
    assert window.campaign.dock.isVisible()
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert "Campaign" in [a.text() for a in view.actions()]

    ids = make_roster(window)
    camp = control.doc.campaign
    assert [c.name for c in camp.band] == list(BAND)
    assert [c.name for c in camp.bestiary] == list(BESTIARY)
    band = [ids[n] for n in BAND]

    ford = prepare(window, "The ford", band, {ids["Bandit"]: 4})
    camp_id = prepare(window, "The camp", band, {ids["Bandit archer"]: 2, ids["River serpent"]: 1})
    assert control.panel.list.count() == 2
    prepared = {e.id: (folder / e.file).read_bytes() for e in control.doc.campaign.encounters}
    names = [c.name for c in load(folder / "the-ford.afenc").state.combatants]
    assert names == [*BAND, "Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]

    # Run the first: a fresh copy opens; the prepared file stays as it was. The GM is asked
    # about unsaved changes once, not again when the copy opens.
    control.panel.select(ford)
    questions = []
    window.maybe_save = lambda: questions.append(1) or True
    control.panel.buttons["run"].click()
    assert questions == [1]
    doc = window.doc
    assert doc.path == folder / "the-ford.run1.afenc"
    assert control.doc.campaign.encounter(ford).play is Play.RUNNING
    assert doc.encounter.combatant("huang").days_since_rest == 5
    fight_two_exchanges(doc)
    dlg = PersevereDialog(doc, window, source=RandomSource(1))
    dlg.roll()
    dlg.apply()
    huang = doc.encounter.combatant("huang")
    assert huang.grit == 1 and huang.has(StateKind.EXHAUSTED), "E15: margin 6 needed"

    # Carry over: the running copy is saved, the dialog lists what lasts.
    control.panel.buttons["carry"].click()
    assert not doc.is_modified()
    carry = control.dialog
    assert isinstance(carry, CarryOverDialog)
    said = {(ln.character, ln.field) for ln in carry.lines}
    assert {(ids["Huang"], "grit"), (ids["Huang"], "exhausted")} <= said
    assert not any(ln.field in ("down", "prepared", "crouched", "hidden") for ln in carry.lines)
    assert carry.referee is not None and carry.referee[1].value() == 1
    carry.accept()
    assert control.doc.campaign.referee_shifts == 1
    roster_huang = control.doc.campaign.character(ids["Huang"])
    assert roster_huang.grit == 1
    assert [s.kind for s in roster_huang.states] == [StateKind.EXHAUSTED]
    ford_entry = control.doc.campaign.encounter(ford)
    assert (ford_entry.play, ford_entry.carried) == (Play.FINISHED, True)

    # Run the second: the band as the first fight left them.
    control.panel.select(camp_id)
    control.panel.buttons["run"].click()
    second = window.doc
    assert second.path == folder / "the-camp.run1.afenc"
    for name in BAND:
        ours = second.encounter.combatant(name.lower())
        theirs = doc.encounter.combatant(name.lower())
        assert (ours.grit, ours.hits, ours.shifts) == (theirs.grit, theirs.hits, theirs.shifts)
    assert second.encounter.combatant("huang").has(StateKind.EXHAUSTED)
    assert second.encounter.meta.referee_shifts == 1, "the referee's pool lasts the session"
    assert {
        e: (folder / control.doc.campaign.encounter(e).file).read_bytes() for e in prepared
    } == (prepared), "prepared files stay clean"

    # The file on disk is the campaign; a new session gives the Shifts back (R10).
    assert store.load_campaign(folder).campaign == control.doc.campaign
    asked = []
    control.ask = lambda title, text: asked.append(text) or True
    control.panel.buttons["session"].click()
    assert asked == ["The camp is still running. Start a new session anyway?"]
    camp = control.doc.campaign
    assert camp.session == 2 and camp.referee_shifts == 3
    assert {c.shifts for c in camp.band} == {3}
    assert "Session 2 starts" in camp.log[-1].text
    control.panel.buttons["undo"].click()
    assert control.doc.campaign.session == 1
    assert control.panel.buttons["redo"].text().startswith("Redo Session 2 starts")
    control.panel.buttons["redo"].click()
    assert control.doc.campaign.session == 2
    assert store.load_campaign(folder).campaign.session == 2, "saved at once"

    # Reopening offers the encounter that was running.
    assert window.open_campaign(folder)
    assert any("The camp was running" in text for text in asked)
    assert window.doc.path == folder / "the-camp.run1.afenc"
    assert window.failures == []


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"format": "afdesk-campaign", "schema_version": 1, "characters": 3}',
        '{"format": "afdesk-campaign", "schema_version": 99}',
    ],
)
def test_a_bad_campaign_file_says_where_and_changes_nothing(window, tmp_path, text):
    good = tmp_path / "good"
    assert window.campaign.create(good, "Good")
    before = window.campaign.doc
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "campaign.afcamp").write_text(text)
    assert not window.open_campaign(bad)
    assert window.failures and window.failures[-1].startswith("campaign.afcamp: ")
    assert window.campaign.doc is before, "the open campaign stays"
    assert (bad / "campaign.afcamp").read_text() == text
    assert sorted(p.name for p in bad.iterdir()) == ["campaign.afcamp"]


def test_add_from_the_roster_into_the_open_encounter_is_one_undo_step(window, tmp_path):
    from afdesk.gui.campaign.prepare_dialog import AddFromRosterDialog

    assert window.campaign.create(tmp_path / "c", "C")
    ids = make_roster(window)
    window.open_sample()
    window.campaign.panel.buttons["add"].click()
    dlg = window.campaign.dialog
    assert isinstance(dlg, AddFromRosterDialog)
    before = len(window.doc.encounter.combatants)
    dlg.picker.choose([ids["Chen"]], {ids["Bandit archer"]: 2})
    dlg.accept()
    names = [c.name for c in window.doc.encounter.roster()][before:]
    assert names == ["Chen", "Bandit archer 1", "Bandit archer 2"]
    linked = [c for c in window.doc.encounter.roster() if c.link]
    assert [(c.id, c.link) for c in linked] == [("chen-2", ids["Chen"])], "the sample has a Chen"
    window.doc.undo()
    assert len(window.doc.encounter.combatants) == before


def test_the_bestiary_travels_to_another_campaign_as_a_file(window, tmp_path):
    assert window.campaign.create(tmp_path / "one", "One")
    ids = make_roster(window)
    window.campaign.panel.buttons["roster"].click()
    dlg = window.campaign.dialog
    dlg.select(ids["Bandit"])
    assert dlg.export_file(tmp_path / "bestiary.afchars", whole_bestiary=True) == ""
    first = window.campaign.doc.campaign.bestiary
    dlg.accept()
    assert window.campaign.create(tmp_path / "two", "Two")
    window.campaign.panel.buttons["roster"].click()
    dlg = window.campaign.dialog
    assert dlg.import_file(tmp_path / "bestiary.afchars") == ""
    assert window.campaign.doc.campaign.bestiary == first, "nothing lost on the round trip"
    assert dlg.import_file(tmp_path / "bestiary.afchars") == "", "merged by name: no copies"
    assert len(window.campaign.doc.campaign.bestiary) == 3
    (tmp_path / "junk.afchars").write_text('{"format": "afdesk-characters"}')
    problem = dlg.import_file(tmp_path / "junk.afchars")
    assert problem.startswith("junk.afchars: schema_version")
    assert "junk.afchars" in dlg.error.text()


def test_a_failed_campaign_save_loses_nothing(window, tmp_path, monkeypatch):
    """The disk refuses the campaign file: the GM is told, the change stays, and the journal
    gives it back when the campaign is opened again (after a crash)."""
    from afdesk.storage.errors import SaveError

    folder = tmp_path / "c"
    assert window.campaign.create(folder, "C")

    def full(path, campaign, **_kw):
        raise SaveError("campaign.afcamp", "the disk is full; the file on disk is unchanged")

    monkeypatch.setattr(store, "save_campaign", full)
    make_roster(window)
    assert len(window.failures) == 1, "told once, not at every change"
    assert "the disk is full" in window.failures[-1]
    assert "crash journal" in window.failures[-1]
    monkeypatch.undo()
    assert store.load_campaign(folder).campaign.characters == ()
    # afdesk dies: the journal is left behind (its lock goes with the process).
    doc = window.campaign.doc
    import os

    os.close(doc.journal._fd)
    doc.journal = None
    window.campaign.doc = None
    asked = []
    window.campaign.ask = lambda title, text: asked.append(text) or True
    assert window.open_campaign(folder)
    assert asked and "change(s) to C were saved" in asked[0]
    assert [c.name for c in window.campaign.doc.campaign.band] == list(BAND)
    assert len(store.load_campaign(folder).campaign.characters) == 7, "saved after recovery"


def test_a_campaign_open_in_another_afdesk_is_refused(window, tmp_path):
    from afdesk.storage import campaign_journal as cj

    folder = tmp_path / "c"
    folder.mkdir()
    digest = store.save_campaign(
        folder, store.decode_campaign(b'{"format": "afdesk-campaign", "schema_version": 1}')[0]
    )
    other = cj.CampaignJournal.start(folder, store.load_campaign(folder).campaign, digest)
    try:
        assert not window.open_campaign(folder)
        assert "open in another afdesk" in window.failures[-1]
        assert window.campaign.doc is None
    finally:
        other.close(clean=True)
    assert window.open_campaign(folder)
