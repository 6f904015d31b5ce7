"""Power cuts under the crash journals (the promise in the README, "What a crash or a
power cut can cost"): what was written but not yet fsynced may be lost, and recovery then
gives a prefix of the changes, says so when it finds a line's remains, and never a wrong
state.

- Encounter journal (fsync on a thread of its own, like SQLite's ``synchronous=NORMAL``
  in WAL mode): a power cut costs at most the last change acknowledged.
- Campaign journal (fsync before each change is acknowledged, like ``FULL``): a power cut
  costs no acknowledged change; at most the one in flight.
"""

from __future__ import annotations

import os
import random

from afdesk.encounter.campaign.history import CampaignHistory
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import History
from afdesk.storage import atomic, save
from afdesk.storage import campaign as store
from afdesk.storage import campaign_journal as cj
from afdesk.storage.journal import Journal
from afdesk.storage.recovery import replay_journal
from afdesk.storage.samples import build
from tests.storage.builders import RandomGM
from tests.storage.power_cut import PowerCutDisk
from tests.storage.test_campaign_journal import _edits


def test_a_power_cut_costs_an_encounter_at_most_its_last_change(tmp_path, data_dir, monkeypatch):
    disk = PowerCutDisk(monkeypatch, gate="afdesk-journal-fsync")
    path = tmp_path / "river-ford.afenc"
    enc = build()
    save(path, enc.state())
    history = History(enc)
    journal = Journal.start("River ford", file=path, base=enc.state()).follow(history)
    rng, cut_rng = random.Random(13), random.Random(31)
    gm = RandomGM(enc, rng)
    states = [enc.state()]
    images = []
    for _ in range(80):
        r = rng.random()
        if r < 0.15 and history.can_undo():
            history.undo()
        elif r < 0.25 and history.can_redo():
            history.redo()
        else:
            for _ in range(50):
                try:
                    history.push(gm.propose())
                    break
                except IllegalOp:
                    continue
            else:
                continue  # nothing pushed: no line, no fsync to hold back
        states.append(enc.state())
        # Acknowledged; its fsync is held back: the worst moment for a power cut.
        images.append(disk.image(journal.path, cut_rng))
        disk.release()
    journal.close(clean=False)
    counts = {"whole": 0, "last lost, said": 0, "last lost, no trace": 0}
    for k, image in enumerate(images, 1):
        got = replay_journal(image, "the crash journal")
        if got.state == states[k]:
            counts["whole"] += 1
            continue
        assert got.state == states[k - 1], f"a wrong state after change {k}"
        if image.endswith(b"\n"):  # the line never reached the disk: nothing to find
            counts["last lost, no trace"] += 1
        else:
            assert got.dropped.endswith(
                "is cut short (afdesk stopped, or the power went): it is left out"
            )
            counts["last lost, said"] += 1
    assert all(counts.values()), counts  # every outcome was tried


class _Flow:
    """The campaign document's path of a change, without Qt: journal, marker, save
    (some fail: a full disk), restart; :attr:`acked` counts the changes acknowledged."""

    def __init__(self, folder, disk: PowerCutDisk, rng: random.Random):
        self.folder = folder
        camp = Campaign(name="The river")
        self.digest = store.save_campaign(folder, camp)
        self.history = CampaignHistory(camp)
        self.journal = cj.CampaignJournal.start(folder, camp, self.digest)
        self.journal.follow(self.history)
        self.states = [camp]
        self.acked = 0
        self.rng = rng

    def push(self, i: int) -> None:
        self.history.push(_edits(i))
        self.states.append(self.history.campaign)
        assert self.journal.problem == ""  # journaled and fsynced
        if self.rng.random() < 0.4:
            self.acked += 1  # the file could not be saved: only the journal holds it
            return
        self.digest = store.save_campaign(
            self.folder,
            self.history.campaign,
            expected_digest=self.digest,
            marking=self.journal.saving,
        )
        assert self.journal.rebase(self.history.campaign, self.digest)
        self.acked += 1


def test_a_power_cut_costs_a_campaign_no_acknowledged_change(tmp_path, monkeypatch):
    """A power cut at every write, fsync, truncate and rename of 20 changes (the
    journal's lines, save markers, the file's atomic save, the journal's restart)."""
    disk = PowerCutDisk(monkeypatch)
    disk.watch(monkeypatch, atomic, "write_all")
    for name in ("replace", "ftruncate"):
        disk.watch(monkeypatch, os, name)
    folder = tmp_path / "c"
    folder.mkdir()
    flow = _Flow(folder, disk, random.Random(5))
    cut_rng = random.Random(8)
    cuts: list[tuple[int, bytes, bytes]] = []
    disk.on_op = lambda _what: cuts.append(
        (
            flow.acked,
            disk.image(cj.journal_path(folder), cut_rng),
            disk.image(store.campaign_file(folder), cut_rng),
        )
    )
    for i in range(20):
        flow.push(i)
    disk.on_op = None
    flow.journal.close(clean=False)
    told = 0
    for n, (acked, journal, file) in enumerate(cuts):
        after = tmp_path / f"cut{n}"
        after.mkdir()
        (after / store.FILE_NAME).write_bytes(file)
        if journal:
            cj.journal_path(after).write_bytes(journal)
        got = cj.recover(after)
        campaign = store.load_campaign(after).campaign if got is None else got.campaign
        assert campaign in (flow.states[acked], flow.states[min(acked + 1, 20)]), f"cut {n}"
        told += bool(got and got.dropped)
    assert len(cuts) > 150 and told, (len(cuts), told)  # torn lines in flight were said
