"""Recovery reads a journal's lines with a decoder built for the Ops registered now (the
Ops straight into their classes): it reads exactly what the journal's own line decoder
reads, refuses what that refuses, follows Ops registered later, and a long journal
replays to the encounter the session left."""

from __future__ import annotations

import random

import msgspec
import pytest

from afdesk.encounter.model import Encounter
from afdesk.encounter.ops import Op
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.storage import recovery
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
