"""The crash journal: file + replay = the encounter at the crash, at most the change in
flight lost; never-saved encounters too; a changed file is reported, not replayed onto."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import NEIGHBOURS
from afdesk.encounter.history import Step
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import Rename, SetSettings
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AddCombatant, AdjustCounter, PlaceCombatant
from afdesk.encounter.state import Phase, Settings
from afdesk.storage import LoadError, SaveError, atomic, load, save
from afdesk.storage import journal as journal_module
from afdesk.storage.journal import (
    Journal,
    discard,
    pending_journals,
    recover,
    recover_report,
)
from afdesk.storage.samples import build
from tests.storage.builders import RandomGM, Session


class Live:
    """The GUI in miniature: an encounter, its undo and redo stacks, and its journal.
    ``states[k]`` is the encounter after the first k journaled changes."""

    def __init__(self, enc: Encounter, journal: Journal | None) -> None:
        self.enc = enc
        self.session = Session(enc)
        self.journal = journal.follow(self.session.history) if journal else None
        self.states = [enc.state()]

    def follow(self, journal: Journal) -> None:
        self.journal = journal.follow(self.session.history)

    def do(self, op) -> None:
        self.session.do(op)  # raises IllegalOp (and changes nothing) if refused
        self.states.append(self.enc.state())

    def undo(self) -> None:
        self.session.undo()
        self.states.append(self.enc.state())

    def redo(self) -> None:
        self.session.redo()
        self.states.append(self.enc.state())

    def try_do(self, *ops) -> bool:
        for op in ops:
            try:
                self.do(op)
                return True
            except IllegalOp:
                continue
        return False


def play_script(live: Live) -> None:
    """A short evening: characters join and move, reflex is dealt and played, turns pass
    with moves and contests, and the GM undoes and redoes along the way."""
    enc = live.enc
    rng = random.Random(42)
    gm = RandomGM(enc, rng)
    live.do(AddCombatant(Combatant("mei", "Mei the Scout", Side.BAND, area=(6, 12))))
    live.do(PlaceCombatant("gao", (8, 5), 170.0))
    live.do(SetSettings(Settings("green", days_since_rest=1)))
    live.undo()
    live.redo()
    live.do(AdjustCounter("chen", "hits", 1))
    live.do(deal_hands(enc, rng))
    for _ in range(12):
        if enc.turn.phase is Phase.CARDS:
            live.do(play_cards(enc, rng=rng))
        actor = enc.combatants.get(enc.actor or "")
        if actor is not None and actor.area is not None:
            steps = [
                MoveCombatant(
                    actor.id,
                    (actor.area, (actor.area[0] + dc, actor.area[1] + dr)),
                    rng.uniform(0, 360),
                    maneuver=True,
                )
                for dc, dr in NEIGHBOURS
            ]
            live.try_do(*steps)
            for _ in range(5):
                if live.try_do(gm._contest(enc.combatants[actor.id])):
                    break
        live.do(NextTurn())
        if rng.random() < 0.3:
            live.undo()
            if rng.random() < 0.5:
                live.redo()
    live.undo()
    live.undo()
    live.redo()
    live.do(Rename("Ambush at the river ford, continued"))


def random_play(live: Live, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    gm = RandomGM(live.enc, rng)
    for _ in range(steps):
        r = rng.random()
        if r < 0.15 and live.session.undo_stack:
            live.undo()
        elif r < 0.25 and live.session.redo_stack:
            live.redo()
        else:
            for _ in range(50):
                try:
                    live.do(gm.propose())
                    break
                except IllegalOp:
                    continue


def _crash(journal: Journal) -> None:
    journal.close(clean=False)


def _saved_live(tmp_path: Path) -> tuple[Path, Live]:
    path = tmp_path / "river-ford.afenc"
    enc = build()
    save(path, enc.state())
    return path, Live(enc, Journal.start("River ford", file=path, base=enc.state()))


def _only_pending():
    pending = pending_journals()
    assert len(pending) == 1, pending
    return pending[0]


# ----------------------------------------------------------------------------- replay


def test_replaying_a_scripted_session_gives_the_live_state(tmp_path, data_dir):
    path, live = _saved_live(tmp_path)
    play_script(live)
    assert len(live.states) > 40
    kinds = {type(event[1]).__name__ for event in live.session.events if event[0] == "do"}
    assert {"DealHands", "PlayCards", "NextTurn", "ResolveContest", "MoveCombatant"} <= kinds
    _crash(live.journal)
    p = _only_pending()
    assert p.problem == ""
    assert p.name == "River ford"
    assert p.file == path.resolve()
    assert p.ops == len(live.states) - 1
    assert p.path.parent == data_dir / "journal"
    assert abs(p.modified - dt.datetime.now().astimezone()) < dt.timedelta(minutes=5)
    assert recover(p) == live.enc.state()
    assert load(path).state == live.states[0], "recovery changed the file"


@pytest.mark.parametrize("seed", range(6))
def test_replaying_random_sessions(tmp_path, seed):
    _path, live = _saved_live(tmp_path)
    random_play(live, seed, 150)
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()


def test_a_journal_cut_mid_line_recovers_everything_before_the_cut(tmp_path):
    _path, live = _saved_live(tmp_path)
    random_play(live, 7, 60)
    _crash(live.journal)
    p = _only_pending()
    data = p.path.read_bytes()
    header_end = data.index(b"\n") + 1
    ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    last_two = range(ends[-3], len(data) + 1)
    rng = random.Random(1)
    cuts = sorted(set(last_two) | {rng.randrange(header_end, len(data)) for _ in range(60)})
    for cut in cuts:
        p.path.write_bytes(data[:cut])
        complete = sum(1 for e in ends if e <= cut) - 1  # lines after the header
        assert recover(p) == live.states[complete], f"cut at {cut}"


def test_a_damaged_line_in_the_middle_recovers_the_intact_prefix(tmp_path):
    """One damaged line: every change before it, and the GM is told what was left out."""
    _path, live = _saved_live(tmp_path)
    random_play(live, 8, 20)
    _crash(live.journal)
    p = _only_pending()
    lines = p.path.read_bytes().split(b"\n")
    total = len(lines) - 2
    lines[3] = lines[3][: len(lines[3]) // 2]
    p.path.write_bytes(b"\n".join(lines))
    p = _only_pending()
    expected = f"step 3 of {total} is damaged: it and the {total - 3} after it are left out"
    assert p.dropped == expected
    assert p.ops == 2
    report = recover_report(p)
    assert report.state == live.states[2]
    assert report.dropped == expected


def test_one_changed_character_never_gives_a_wrong_state(tmp_path):
    """A change line altered by one character (a field name, a value) fails its seal:
    recovery keeps the changes before it, never a silently different encounter."""
    _path, live = _saved_live(tmp_path)
    random_play(live, 21, 40)
    _crash(live.journal)
    p = _only_pending()
    data = p.path.read_bytes()
    ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    rng = random.Random(5)
    for offset in sorted(rng.sample(range(ends[0], len(data) - 1), 150)):
        if data[offset] == ord("\n"):
            continue
        changed = data[:offset] + bytes([data[offset] ^ 0x01]) + data[offset + 1 :]
        p.path.write_bytes(changed)
        line = sum(1 for e in ends if e <= offset)  # the damaged line, 1 for the first
        report = recover_report(p)
        assert report.state == live.states[line - 1], f"offset {offset}"
        assert report.dropped.startswith(f"step {line} of {len(ends) - 1} is damaged")
    for offset in rng.sample(range(ends[0] - 1), 40):  # the header: refused, never wrong
        changed = data[:offset] + bytes([data[offset] ^ 0x01]) + data[offset + 1 :]
        p.path.write_bytes(changed)
        with pytest.raises(LoadError, match="damaged"):
            recover(p)


def test_unknown_fields_are_refused_even_unsealed(tmp_path, data_dir):
    """Strict decoding: a v1 line (no seal) with a field afdesk does not know is damage."""
    from afdesk.storage.journal_file import header_decoder, line_decoder

    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        line_decoder.decode(b'{"n":1,"undo":true,"facegs":1}')
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        header_decoder.decode(
            b'{"journal":"afdesk-journal","version":1,"schema_version":2,"name":"x","nmae":1}'
        )


def test_a_torn_header_is_kept_and_reported_never_deleted_unread(tmp_path):
    _path, live = _saved_live(tmp_path)
    random_play(live, 3, 5)
    _crash(live.journal)
    journal_path = live.journal.path
    journal_path.write_bytes(journal_path.read_bytes()[:40])
    (p,) = pending_journals()
    assert p.problem == "the journal is empty or cut short"
    assert journal_path.exists()
    journal_path.write_bytes(b'{"journal":"afd\n{"n":1}\n')
    (p,) = pending_journals()
    assert "damaged" in p.problem
    assert journal_path.exists()


# ---------------------------------------------------------------- never saved, rebase


def test_a_never_saved_encounter_is_recovered_from_its_journal(tmp_path):
    enc = build()
    live = Live(enc, Journal.start("New fight", base=enc.state()))
    random_play(live, 3, 80)
    _crash(live.journal)
    p = _only_pending()
    assert p.file is None
    assert p.name == "New fight"
    assert recover(p) == live.enc.state()


def test_after_a_save_the_journal_restarts_for_the_file(tmp_path):
    enc = build()
    live = Live(enc, Journal.start("New fight", base=enc.state()))
    random_play(live, 4, 40)
    path = tmp_path / "saved.afenc"
    save(path, enc.state())
    live.journal.rebase(file=path, name="Saved fight")
    assert live.journal.ops == 0
    assert b'"base":null' in live.journal.path.read_bytes()  # the file holds the base now
    random_play(live, 5, 40)
    _crash(live.journal)
    p = _only_pending()
    assert (p.name, p.file) == ("Saved fight", path.resolve())
    assert recover(p) == live.enc.state()


def test_a_crash_right_after_a_clean_save_opens_the_saved_file(tmp_path):
    """Nothing to replay, but the GM's own file is what opens next (it opened the
    bundled sample, and the GM had to find the file)."""
    path, live = _saved_live(tmp_path)
    random_play(live, 6, 30)
    save(path, live.enc.state())
    live.journal.rebase(file=path)
    _crash(live.journal)
    p = _only_pending()
    assert (p.in_file, p.problem, p.ops, p.file) == (True, "", 0, path.resolve())
    assert recover(p) == live.enc.state() == load(path).state


def test_a_journal_whose_file_changed_or_went_with_nothing_after_is_removed(tmp_path):
    """Nothing to replay and the file is no longer the one saved: nothing to offer."""
    for change in ("rewrite", "delete"):
        path, live = _saved_live(tmp_path)
        random_play(live, 6, 5)
        save(path, live.enc.state())
        live.journal.rebase(file=path)
        _crash(live.journal)
        if change == "rewrite":
            save(path, build().state())
        else:
            path.unlink()
        assert pending_journals() == []
        assert list(live.journal.path.parent.iterdir()) == []


def test_undo_and_redo_across_a_save(tmp_path):
    """Undoing changes made before the last save: the journal lines carry the Ops."""
    path, live = _saved_live(tmp_path)
    random_play(live, 9, 50)
    while len(live.session.undo_stack) < 8:
        random_play(live, 10, 5)
    live.undo()
    live.undo()
    save(path, live.enc.state())
    live.journal.rebase(file=path)
    live.redo()  # redoes a change undone before the save
    for _ in range(4):
        live.undo()
    live.redo()
    live.redo()
    live.undo()
    live.do(Rename("After the save"))
    live.undo()
    live.undo()
    live.redo()
    text = live.journal.path.read_bytes()
    assert b'"inverse":' in text, "no undo reached past the save"
    assert b'"redo":true,"op":' in text, "no redo of a change undone before the save"
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()


def test_a_clean_close_deletes_the_journal(tmp_path):
    _path, live = _saved_live(tmp_path)
    random_play(live, 11, 10)
    live.journal.close()
    assert not live.journal.path.exists()
    assert pending_journals() == []


def test_the_journal_of_an_upgraded_file_holds_its_base(tmp_path, monkeypatch):
    """A file of an older version does not hold the upgraded encounter byte for byte: the
    journal keeps the upgraded state itself."""
    from afdesk.storage import migrations as mig

    monkeypatch.setattr(mig, "CURRENT_VERSION", 2)
    monkeypatch.setattr(mig, "MIGRATIONS", {1: lambda doc: doc})
    path = Path(__file__).parent / "fixtures" / "v1.afenc"
    loaded = load(path)
    live = Live(Encounter.from_state(loaded.state), Journal.start("Old", file=path))
    random_play(live, 12, 30)
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()


# -------------------------------------------------------------------- changed file


def test_a_changed_file_is_reported_not_replayed(tmp_path):
    path, live = _saved_live(tmp_path)
    random_play(live, 13, 30)
    _crash(live.journal)
    other = build()
    other.apply(Rename("Saved by someone else"))
    save(path, other.state())
    p = _only_pending()
    assert "river-ford.afenc has changed since these changes were made" in p.problem
    with pytest.raises(LoadError) as info:
        recover(p)
    assert p.problem in str(info.value)


def test_a_missing_file_is_reported(tmp_path):
    path, live = _saved_live(tmp_path)
    random_play(live, 14, 10)
    _crash(live.journal)
    path.unlink()
    p = _only_pending()
    assert "river-ford.afenc, which the changes apply to, cannot be read" in p.problem
    with pytest.raises(LoadError, match="cannot be read"):
        recover(p)


def test_discard(tmp_path):
    _path, live = _saved_live(tmp_path)
    random_play(live, 15, 10)
    _crash(live.journal)
    p = _only_pending()
    discard(p)
    assert pending_journals() == []
    discard(p)  # already gone: fine


# ------------------------------------------------------------------ in use, crashes


def test_a_recovered_encounter_survives_a_crash_before_its_next_change(tmp_path, data_dir):
    """After a recovery the new journal holds the recovered encounter, which no file holds:
    a crash before the next change must offer it again, not delete the journal as empty."""
    path = tmp_path / "river-ford.afenc"
    save(path, build().state())
    recovered = build()
    recovered.apply(AdjustCounter("chen", "hits", 2))  # what the recovery gave back
    journal = Journal.start("River ford", file=path, base=recovered.state())
    _crash(journal)  # before any change
    (pending,) = pending_journals()
    assert pending.ops == 0
    assert recover(pending) == recovered.state()


def test_a_journal_of_the_saved_file_with_no_change_opens_the_file(tmp_path, data_dir):
    path = tmp_path / "river-ford.afenc"
    save(path, build().state())
    journal = Journal.start("River ford", file=path, base=load(path).state)
    _crash(journal)
    (p,) = pending_journals()
    assert (p.in_file, p.ops, p.file) == (True, 0, path.resolve())


def test_an_open_journal_is_not_offered_for_recovery(tmp_path):
    _path, live = _saved_live(tmp_path)
    random_play(live, 16, 10)
    assert pending_journals() == []  # this process holds it
    _crash(live.journal)
    assert len(pending_journals()) == 1


def test_sigkill_loses_at_most_the_change_in_flight(tmp_path, data_dir):
    """A child journals a deterministic session and is killed with SIGKILL once it has
    journaled a random number of changes (while it goes on writing); the recovery equals
    the session after exactly the changes whose lines were complete."""
    path = tmp_path / "river-ford.afenc"
    save(path, build().state())
    steps = 120
    expected = Live(build(), None)
    random_play(expected, 21, steps)
    total = len(expected.states) - 1
    rng = random.Random(5)
    recovered_counts = []
    # The child is a fresh interpreter, not a fork: forking a process that runs threads
    # (the journal's fsync thread, Qt's) may copy a held lock into the child and hang it.
    child = (
        "import sys, time\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})\n"
        "from afdesk.storage.journal import Journal\n"
        "from afdesk.storage.samples import build\n"
        "from tests.storage.test_journal import Live, random_play\n"
        "enc = build()\n"
        f"journal = Journal.start('Kill', file={str(path)!r}, base=enc.state())\n"
        f"random_play(Live(enc, journal), 21, {steps})\n"
        "time.sleep(60)\n"
    )
    for _ in range(15):
        target = rng.randrange(1, total)
        proc = subprocess.Popen([sys.executable, "-c", child])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            journals = list((data_dir / "journal").glob("*.afjournal"))
            if journals and journals[0].read_bytes().count(b"\n") - 1 >= target:
                break
            time.sleep(rng.uniform(0, 0.002))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        (p,) = pending_journals()
        assert p.ops >= target
        assert recover(p) == expected.states[p.ops]
        recovered_counts.append(p.ops)
        discard(p)
    assert len(set(recovered_counts)) >= 8, recovered_counts
    assert min(recovered_counts) < total, "every kill came after the session ended"


# -------------------------------------------------------------------- write failures


def test_disk_full_while_journaling(tmp_path, monkeypatch):
    """A failed append leaves no torn line, says so, and the journal starts afresh from
    the whole encounter once it can write again."""
    _path, live = _saved_live(tmp_path)
    random_play(live, 17, 20)
    before = live.journal.path.read_bytes()
    real = atomic.write_all

    def full(fd, data):
        os.write(fd, data[:5])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "write_all", full)
    with pytest.raises(SaveError, match="the disk is full"):
        live.do(Rename("While the disk is full"))
    assert live.journal.problem.startswith("the disk is full")
    assert live.journal.path.read_bytes() == before
    monkeypatch.setattr(atomic, "write_all", real)
    random_play(live, 18, 20)
    assert live.journal.problem == ""
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()


def test_disk_full_on_the_header_rewrite_keeps_the_journal_whole(tmp_path, monkeypatch):
    """The old hole: after a save the journal restarts; a full disk then must not
    tear it, and nothing of what the GM had is lost: the save holds the 20 changes, the
    journal (read, not deleted) says so."""
    path, live = _saved_live(tmp_path)
    random_play(live, 31, 20)
    before = live.journal.path.read_bytes()
    live.journal.saving(path)
    save(path, live.enc.state())
    saved = live.enc.state()
    marked = live.journal.path.read_bytes()
    assert marked.startswith(before) and b'"saved":' in marked[len(before) :]
    real = atomic.write_all

    def full(fd, data):
        os.write(fd, data[: min(len(data), 4096) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "write_all", full)
    with pytest.raises(SaveError, match="the disk is full"):
        live.journal.rebase(file=path)
    for k in range(10):
        with contextlib.suppress(SaveError):  # the GUI reports it and goes on
            live.do(Rename(f"While the disk is full {k}"))
    assert live.journal.problem.startswith("the disk is full")
    assert live.journal.path.read_bytes() == marked  # whole, never torn
    monkeypatch.setattr(atomic, "write_all", real)
    _crash(live.journal)
    assert [p.name for p in live.journal.path.parent.iterdir()] == [live.journal.path.name]
    p = _only_pending()
    assert p.in_file and p.file == path.resolve() and p.problem == ""
    assert recover(p) == saved == load(path).state


def test_a_kill_between_a_save_and_the_restart_recovers_from_the_saved_file(tmp_path):
    path, live = _saved_live(tmp_path)
    random_play(live, 32, 25)
    live.journal.saving(path)
    save(path, live.enc.state())
    _crash(live.journal)  # killed before rebase
    p = _only_pending()
    assert (p.in_file, p.problem, p.ops, p.file) == (True, "", 0, path.resolve())
    assert recover(p) == live.enc.state()


def test_a_failed_save_after_the_marker_replays_onto_the_old_file(tmp_path):
    """The marker is written before the save: if the save then fails, the file still
    holds the old bytes, the marker is ignored and the changes replay as before."""
    path, live = _saved_live(tmp_path)
    random_play(live, 33, 15)
    live.journal.saving(path)  # the save that follows fails: the file is unchanged
    random_play(live, 34, 10)
    _crash(live.journal)
    p = _only_pending()
    assert not p.in_file
    assert recover(p) == live.enc.state()


def test_a_change_behind_the_history_s_back_restarts_the_journal_from_the_whole(tmp_path):
    """A change that bypasses the history (a bug elsewhere) cannot be a journal line: the
    journal starts again from the whole encounter, so nothing is lost, even before a save."""
    _path, live = _saved_live(tmp_path)
    random_play(live, 22, 20)
    live.enc.apply(AddCombatant(Combatant("ghost", "Ghost", Side.DENIZEN)))
    assert live.journal.ops == 0
    assert b'"base":null' not in live.journal.path.read_bytes()  # the whole encounter
    live.do(PlaceCombatant("ghost", (2, 2)))
    live.do(Rename("Back on track"))
    live.undo()
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()


def test_an_undo_from_before_the_journal_began_is_journaled_with_its_ops(tmp_path):
    """The GUI could only start the journal after some changes (say the data folder was
    missing a moment): undoing those writes the Ops themselves, so recovery still follows."""
    path = tmp_path / "river-ford.afenc"
    enc = build()
    save(path, enc.state())
    live = Live(enc, None)
    live.do(Rename("Before the journal"))
    live.follow(Journal.start("River ford", file=path, base=enc.state()))
    live.do(Rename("Journaled"))
    live.undo()
    live.undo()  # made before the journal began
    assert live.journal.problem == ""
    assert b'"inverse":' in live.journal.path.read_bytes()
    live.redo()
    live.redo()
    live.undo()
    live.do(Rename("After all that"))
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()


def test_half_created_journals_are_cleaned_unless_in_use(data_dir):
    from afdesk.storage.journal_file import NEW_SUFFIX, lock

    folder = data_dir / "journal"
    folder.mkdir(parents=True)
    stale = folder / f"a{NEW_SUFFIX}"
    stale.write_bytes(b"{")
    busy = folder / f"b{NEW_SUFFIX}"
    busy.write_bytes(b"{")
    fd = os.open(busy, os.O_RDWR)
    try:
        assert lock(fd)
        assert pending_journals() == []
        assert not stale.exists()
        assert busy.exists()
    finally:
        os.close(fd)


def test_a_journal_cannot_start_without_a_writable_data_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("AFDESK_DATA_DIR", str(blocker))
    with pytest.raises(SaveError, match="crash journal"):
        Journal.start("New", base=build().state())


def test_data_folder_defaults_to_the_platform_one(monkeypatch):
    import platformdirs

    monkeypatch.delenv("AFDESK_DATA_DIR")
    assert journal_module.data_dir() == Path(platformdirs.user_data_dir("afdesk", appauthor=False))
    assert journal_module.journal_dir() == journal_module.data_dir() / "journal"


def test_journal_lines_are_one_json_object_each(tmp_path):
    import json

    path, live = _saved_live(tmp_path)
    random_play(live, 19, 30)
    lines = live.journal.path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    header = json.loads(lines[0])
    assert header["journal"] == "afdesk-journal"
    assert header["file"] == str(path.resolve())
    assert len(header["file_sha256"]) == 64
    assert header["base"] is None
    for n, line in enumerate(lines[1:-1], start=1):
        entry = json.loads(line)
        assert entry["n"] == n
        assert sum(k in entry for k in ("do", "undo", "redo")) == 1
    live.journal.close()


def test_a_journal_written_by_hand_in_the_v1_format_recovers(tmp_path, data_dir):
    """The line format did not change with the History: a journal as afdesk 1 wrote it
    (do, undo, redo, and an undo and a redo that carry their Ops) replays the same."""
    import json

    from afdesk.encounter.history import History
    from afdesk.storage import codec, migrations

    enc = build()
    base = enc.state()
    first = Rename("First")
    inverse = enc.apply(first)  # made before the journal began: undone with its Ops
    started = enc.state()
    history = History(Encounter.from_state(started))
    history.push(AdjustCounter("chen", "hits", 1))
    history.push(Rename("Second"))
    history.undo()
    history.redo()
    history.undo()
    history.undo()
    history.undo_unknown(Step(((first, inverse),), "Rename"))
    history.redo_unknown([first])
    expected = history.encounter.state()
    assert expected != base

    def op_json(op):
        return json.loads(msgspec.json.encode(op))

    header = {
        "journal": "afdesk-journal",
        "version": 1,
        "schema_version": migrations.CURRENT_VERSION,
        "name": "By hand",
        "file": None,
        "file_sha256": "",
        "file_size": -1,
        "created": "2025-03-01T20:15:04+01:00",
        "base": json.loads(codec.encode_compact(started)),
    }
    lines = [
        {"n": 1, "do": op_json(AdjustCounter("chen", "hits", 1))},
        {"n": 2, "do": op_json(Rename("Second"))},
        {"n": 3, "undo": True},
        {"n": 4, "redo": True},
        {"n": 5, "undo": True},
        {"n": 6, "undo": True},
        {"n": 7, "undo": True, "op": op_json(first), "inverse": op_json(inverse)},
        {"n": 8, "redo": True, "op": op_json(first)},
    ]
    folder = data_dir / "journal"
    folder.mkdir(parents=True)
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in [header, *lines]) + "\n"
    (folder / "20250301-201504-abcd1234.afjournal").write_text(text, encoding="utf-8")
    p = _only_pending()
    assert p.problem == "" and p.ops == 8
    assert recover(p) == expected
