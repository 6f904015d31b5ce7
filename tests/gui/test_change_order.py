"""The path of a change, in the order docs/architecture.md ("The path of a change") says
is intended: for each Op of a step the views hear its signals and ``changed``; after the
step's last Op the crash journal writes one line per Op (fsynced on its own thread); then
the undo stack gets the step. The campaign journals first, then saves, then tells its
views. These tests fail if either order changes."""

from __future__ import annotations

import threading

from afdesk.encounter.campaign.edits import RenameCampaign, StartSession
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.ops.meta import AdjustRefereeShifts, Rename
from afdesk.gui.campaign.document import CampaignDocument
from afdesk.gui.document import EncounterDocument
from afdesk.storage import atomic, save
from afdesk.storage import campaign as store
from afdesk.storage.samples import build


def test_an_encounter_step_reaches_its_views_before_its_journal(tmp_path, monkeypatch):
    path = tmp_path / "river-ford.afenc"
    enc = build()
    save(path, enc.state())
    doc = EncounterDocument(enc, path)
    doc.start_journal()
    journal_path = doc._journal.path
    seen: list[str] = []
    real_write, real_fsync = atomic.write_all, atomic.os.fsync

    def write_all(fd, data):
        seen.append("journal writes")
        real_write(fd, data)

    def fsync(fd):
        thread = threading.current_thread().name
        real_fsync(fd)
        seen.append(f"journal fsyncs on {thread}")

    monkeypatch.setattr(atomic, "write_all", write_all)
    monkeypatch.setattr(atomic.os, "fsync", fsync)
    doc.changed.connect(lambda: seen.append("changed"))
    doc.metaChanged.connect(lambda: seen.append("metaChanged"))
    doc.undo_stack.indexChanged.connect(lambda _i: seen.append("undo stack"))
    assert doc.push_many([Rename("Ford"), AdjustRefereeShifts(-1)]) == ""
    doc._journal.flush()
    fsyncs = [s for s in seen if s.startswith("journal fsyncs")]
    order = [s for s in seen if not s.startswith("journal fsyncs")]
    assert order == [
        "metaChanged",
        "changed",
        "metaChanged",
        "changed",
        "journal writes",
        "journal writes",
        "undo stack",
    ]
    assert fsyncs == ["journal fsyncs on afdesk-journal-fsync"] * 2
    assert journal_path.read_bytes().count(b"\n") == 3  # the header and one line per Op
    doc.close(clean=True)


def test_a_campaign_step_is_journaled_then_saved_then_shown(tmp_path, monkeypatch, qapp):
    digest = store.save_campaign(tmp_path, Campaign(name="The river"))
    doc = CampaignDocument(Campaign(name="The river"), tmp_path, digest)
    seen: list[str] = []
    journal = doc.journal
    real_record, real_replace = journal.record, atomic.replace

    def record(event):
        seen.append("journaled")
        return real_record(event)

    def replace(target, data):
        seen.append(f"saved {target.name}")
        real_replace(target, data)

    monkeypatch.setattr(journal, "record", record)
    monkeypatch.setattr(atomic, "replace", replace)
    doc.changed.connect(lambda: seen.append("changed"))
    assert doc.push([RenameCampaign("The ford"), StartSession()]) == ""
    assert seen == ["journaled", "saved campaign.afcamp", "changed"]
    doc.close()
