"""Recovery reads a journal's lines with a decoder built for the Ops registered now (the
Ops straight into their classes): it reads exactly what the journal's own line decoder
reads, refuses what that refuses, follows Ops registered later, and a long journal
replays to the encounter the session left."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from afdesk.encounter import limits
from afdesk.encounter.history import UNDO_LIMIT, History
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops import Op
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AdjustCounter, SetFacing
from afdesk.storage import codec, recovery
from afdesk.storage.journal import Journal
from afdesk.storage.journal_file import line_decoder, seal, unseal
from afdesk.storage.samples import build
from tests.benchmarks import long_session


def session(changes: int, seed: int = 5) -> tuple[Encounter, bytes]:
    """A seeded session of ``changes`` (undos and redos among them), journaled."""
    enc = build()
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    data = long_session.journaled(enc, changes, "Replay", seed=seed)
    return enc, data


@pytest.fixture(scope="module")
def long_journal():
    return session(600)


def test_a_long_journal_replays_to_the_encounter_the_session_left(long_journal):
    enc, data = long_journal
    got = recovery.replay_journal(data, "test")
    assert got.dropped == ""
    assert got.state == enc.state()


def test_every_line_reads_as_the_journals_own_decoder_reads_it(long_journal):
    _enc, data = long_journal
    raws = data.split(b"\n")[1:-1]
    parsed = recovery._parse(data, "test")
    assert parsed.lines == [line_decoder.decode(unseal(raw)) for raw in raws]
    assert {type(line.do) for line in parsed.lines if line.do} >= {
        type(op) for op in long_session.next_ops(_enc, random.Random(0))
    }


@pytest.mark.parametrize(
    "body",
    [
        b'{"n":1,"undo":true,"facegs":1}',  # an unknown field
        b'{"n":1,"do":{"op":"NoSuchOp"}}',  # an Op nobody registered
        b'{"n":1,"do":{"op":"SetFacing","id":"gao","facing":"north"}}',  # a wrong type
        b'{"n":"1","undo":true}',
    ],
)
def test_a_line_the_journals_decoder_refuses_is_damaged_for_recovery(body):
    with pytest.raises((msgspec.ValidationError, msgspec.DecodeError)):
        line_decoder.decode(body)
    decoder = recovery._fast_line_decoder()
    assert recovery._decode_line(seal(body), True, decoder) is None
    assert recovery._decode_line(body, False, decoder) is None


def test_an_op_registered_after_a_journal_was_read_is_read_too():
    _enc, data = session(20)
    recovery.replay_journal(data, "test")  # the decoder has done its work once already

    class Murmur(Op, frozen=True):
        words: str
        label = "Murmur"

        def execute(self, enc: Encounter) -> None:
            enc.set_meta(msgspec.structs.replace(enc.meta, description=self.words))

    body = b'{"n":1,"do":{"op":"Murmur","words":"psst"}}'
    line = recovery._decode_line(seal(body), True, recovery._fast_line_decoder())
    assert line is not None and line.do == Murmur("psst")


# ------------------------------------------------- Ops taken as checked, the end checked


def _journal(enc: Encounter, *ops: Op) -> list[bytes]:
    """The sealed lines of a journal of ``ops`` pushed onto ``enc``, one step each."""
    history = History(enc)
    journal = Journal.start("By hand", base=enc.state()).follow(history)
    for op in ops:
        history.push(op)
    journal.flush()
    data = journal.path.read_bytes()
    journal.close()
    return data.split(b"\n")[:-1]


def _by_hand(lines: list[bytes], n: int, **do) -> None:
    """Line ``n``'s Op changed as a hand would change it, and sealed again."""
    body = json.loads(unseal(lines[n]))
    body["do"].update(do)
    lines[n] = seal(json.dumps(body, separators=(",", ":")).encode())


def test_a_journal_afdesk_wrote_replays_without_checking_its_ops_again(long_journal, monkeypatch):
    """The model checked every Op when the journal was written: the replay takes them as
    checked (two fifths of a three-hour journal's replay), and the encounter it ends with is
    checked once, as a file's load checks it."""
    enc, data = long_journal
    asked = []
    real = limits.change_refusal
    monkeypatch.setattr(limits, "change_refusal", lambda *a: asked.append(a) or real(*a))
    got = recovery.replay_journal(data, "test")
    assert got.state == enc.state() and got.dropped == ""
    assert asked == []
    live = build()
    live.apply(AdjustCounter("huang", "grit", 1))
    assert len(asked) == len(live.log)  # the live model checks every Op


def test_a_journal_changed_by_hand_past_a_limit_replays_up_to_that_line(data_dir):
    """The encounter the Ops lead to breaks a limit (R10's Grit, 1,000,000 at most): the
    lines are replayed again with every Op checked, and the replay stops where the live
    model would have refused."""
    lines = _journal(
        build(),
        AdjustCounter("huang", "grit", 1),
        AdjustCounter("huang", "grit", 2),
        AdjustCounter("huang", "shifts", 1),
    )
    _by_hand(lines, 2, delta=2_000_000)
    got = recovery.replay_journal(b"\n".join(lines) + b"\n", "test")
    assert got.dropped.startswith("step 2 of 3 could not be replayed")
    assert "Grit" in got.dropped
    huang = next(c for c in got.state.combatants if c.id == "huang")
    assert (huang.grit, huang.shifts) == (5, build().combatant("huang").shifts)
    assert len(got.steps) == 1


def test_a_journal_changed_by_hand_past_a_limit_and_back_replays_up_to_that_line(data_dir):
    """Out of bounds in the middle and back at the end: the steps the document would keep
    hold the bad number (an undo would put it back), so the lines are replayed again with
    every Op checked, and the replay stops where the live model would have refused."""
    lines = _journal(
        build(),
        AdjustCounter("huang", "grit", 1),
        AdjustCounter("huang", "grit", 2),
        AdjustCounter("huang", "grit", -1),
    )
    _by_hand(lines, 2, delta=2_000_000)
    _by_hand(lines, 3, delta=-2_000_000)
    got = recovery.replay_journal(b"\n".join(lines) + b"\n", "test")
    assert got.dropped.startswith("step 2 of 3 could not be replayed")
    assert next(c for c in got.state.combatants if c.id == "huang").grit == 5
    assert len(got.steps) == 1


def test_a_number_past_its_limit_only_before_the_steps_kept_is_never_reached(data_dir, monkeypatch):
    """Changed by hand further back than a document's undo reaches: the encounter and every
    state its kept steps undo or redo to are within every limit, and that is what the
    replay checks (each state is made of the encounter's values and the kept inverses')."""
    monkeypatch.setattr(recovery, "UNDO_LIMIT", 1)
    lines = _journal(
        build(),
        AdjustCounter("huang", "grit", 1),
        AdjustCounter("huang", "grit", 2),
        AdjustCounter("huang", "grit", -1),
        AdjustCounter("huang", "shifts", 1),
    )
    _by_hand(lines, 2, delta=2_000_000)
    _by_hand(lines, 3, delta=-2_000_000)
    got = recovery.replay_journal(b"\n".join(lines) + b"\n", "test")
    assert got.dropped == "" and len(got.steps) == 1
    huang = next(c for c in got.state.combatants if c.id == "huang")
    assert huang.grit == 5 and limits.plain_problem(got.state) is None
    history = History(Encounter.from_state(got.state))
    history.adopt(got.steps)
    history.undo()
    history.redo()
    assert history.encounter.state() == got.state


def test_a_gm_undoing_more_ops_than_the_undo_limit_recovers_whole(data_dir):
    """The journal has a line per Op and the document a step per GM action: 600 actions of
    two Ops each, all undone (one click in the Undo history), undo 1,200 Ops back. The
    replay keeps every step until it ends, then the newest UNDO_LIMIT."""
    enc = build()
    history = History(enc, limit=UNDO_LIMIT)
    journal = Journal.start("Deep undo", base=enc.state()).follow(history)
    for i in range(600):
        history.push([AdjustCounter("huang", "grit", 1), SetFacing("huang", float(i % 360))])
    while history.can_undo():
        history.undo()
    journal.flush()
    data = journal.path.read_bytes()
    journal.close()
    got = recovery.replay_journal(data, "test")
    assert got.dropped == "" and got.state == enc.state() and got.steps == ()


# ------------------------------------------------------------ the log lines in the journal


def test_each_do_line_keeps_the_log_line_its_op_wrote(long_journal):
    enc, data = long_journal
    parsed = recovery._parse(data, "test")
    dos = [line for line in parsed.lines if line.do is not None]
    assert all(line.text for line in dos if line.do.logged)
    base = codec.decode(bytes(parsed.header.base))
    assert {e.text for e in enc.log[len(base.log) :]} <= {line.text for line in dos}


def test_the_replay_logs_the_journals_lines_instead_of_describing_again(long_journal):
    """The replay takes each line's log text as written (a third of the replay was
    describing the Ops again): a line changed by hand shows as changed."""
    enc, data = long_journal
    header, *lines = data.split(b"\n")[:-1]
    n = next(i for i, raw in enumerate(lines) if b'"text":' in raw)
    body = json.loads(unseal(lines[n]))
    body["text"] = "Written by hand"
    lines[n] = seal(json.dumps(body, separators=(",", ":")).encode())
    got = recovery.replay_journal(b"\n".join([header, *lines]) + b"\n", "test")
    assert got.dropped == ""
    assert "Written by hand" in [e.text for e in got.state.log]
    assert [e.op for e in got.state.log] == [e.op for e in enc.log]


def test_a_journal_without_log_lines_describes_its_ops_as_before(long_journal):
    """A version 2 journal (no ``text``) replays to the same encounter."""
    enc, data = long_journal
    header, *lines = data.split(b"\n")[:-1]
    head = json.loads(unseal(header))
    head["version"] = 2
    old = [seal(json.dumps(head, separators=(",", ":")).encode())]
    for raw in lines:
        body = json.loads(unseal(raw))
        body.pop("text", None)
        old.append(seal(json.dumps(body, separators=(",", ":")).encode()))
    assert all(b'"text"' not in raw for raw in old[1:])
    got = recovery.replay_journal(b"\n".join(old) + b"\n", "test")
    assert got.dropped == "" and got.state == enc.state()


def test_a_step_of_several_ops_keeps_each_ops_log_line(data_dir):
    enc = build()
    history = History(enc)
    journal = Journal.start("Group", base=enc.state()).follow(history)
    with history.group("Two at once"):
        history.push(AdjustCounter("huang", "grit", 1))
        history.push(SetFacing("huang", 90.0))
        history.push(AdjustCounter("huang", "shifts", 1))
    journal.flush()
    data = journal.path.read_bytes()
    journal.close()
    lines = recovery._parse(data, "test").lines
    assert [line.text for line in lines] == [e.text for e in enc.log[-3:]]
    assert len({line.text for line in lines}) == 3
    assert recovery.replay_journal(data, "test").state == enc.state()
