"""The session recap, built without Qt: the log by exchange and round, the encounter at
the start of each round rebuilt by replaying the log's Ops from the starting encounter,
every check with its dice, modifiers and outcome (R1-R3, R9), who ended down (E17), out,
captured or escaped, and a players' copy without what only the GM sees (hidden characters,
reserves, fog, GM notes); bad cases say what is wrong."""

from __future__ import annotations

import base64
import html
import random
import re

import msgspec
import pytest

from afdesk.encounter.chase.state import ChaseState, Participant
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.reserve import HoldInReserve
from afdesk.encounter.ops.roster import AddState, AdjustCounter, ExitCombatant, PlaceCombatant
from afdesk.encounter.zone import Edge
from afdesk.storage import SaveError
from afdesk.storage import samples as sample
from afdesk.storage.recap import (
    RecapError,
    dice_text,
    fate,
    recap_html,
    round_starts,
    round_title,
    starting_state,
    write_recap,
)
from tests.storage.builders import RandomGM

PNG = b"\x89PNG\r\n\x1a\nnot really a picture"


def played(seed: int = 5, steps: int = 120):
    """The sample with a reserve, played by a seeded random GM, then an escape, one out
    and one down, through a History as the window would."""
    enc = sample.build()
    start = enc.state()
    history = History(enc)
    history.push(HoldInReserve(("archer",), "the ridge"))
    gm = RandomGM(enc, random.Random(seed))
    for _ in range(steps):
        gm.step()
    history.push(PlaceCombatant("chen", (7, 0)))
    history.push(ExitCombatant("chen", Edge.NORTH, "ran for the camp"))
    c = enc.combatant("bandit-1")
    history.push(AdjustCounter("bandit-1", "hits", c.grit - c.hits))
    history.push(DecideHarm("bandit-1", "out"))
    history.push(AddState("gao", StateKind.DOWN))
    return start, enc.state()


def text_of(page: str) -> str:
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_round_starts_are_rebuilt_by_replaying_the_log():
    start, now = played()
    moments, problem = round_starts(start, now.log)
    assert problem == ""
    assert moments[0].state == start and moments[0].first == len(start.log)
    keys = [(m.exchange, m.round) for m in moments]
    assert len(set(keys)) == len(keys) and keys == sorted(keys)
    for m in moments[1:]:
        assert m.state.log == now.log[: m.first]  # the encounter just before the round
        assert (now.log[m.first].exchange, now.log[m.first].round) == (m.exchange, m.round)
        before = now.log[m.first - 1]
        assert (before.exchange, before.round) != (m.exchange, m.round)
    assert any(m.exchange >= 1 and m.round >= 1 for m in moments)


def test_the_starting_encounter_is_the_undo_historys_first():
    enc = sample.build()
    start = enc.state()
    history = History(enc)
    history.push(PlaceCombatant("chen", (7, 0)))
    history.push(ExitCombatant("chen", Edge.NORTH))
    history.push(AddState("gao", StateKind.DOWN))
    assert starting_state(enc.state(), history.steps) == start
    assert enc.combatant("chen").exited  # the encounter itself is untouched


def test_the_page_is_self_contained_with_a_picture_per_round_and_every_check():
    start, now = played()
    moments, _ = round_starts(start, now.log)
    page = recap_html(now, moments, [PNG] * len(moments))
    srcs = re.findall(r'src="([^"]*)"', page)
    assert len(srcs) == len(moments)
    assert all(s.startswith("data:image/png;base64,") for s in srcs)
    assert base64.b64decode(srcs[0].split(",", 1)[1]) == PNG
    assert "href=" not in page and "<script" not in page and "<link" not in page
    text = text_of(page)
    for m in moments:
        assert round_title(m.exchange, m.round) in text
    checks = [e for e in now.log if isinstance(e.op, ResolveContest)]
    assert checks
    assert page.count('<table class="check">') == len(checks)
    first = checks[0].op.record
    assert dice_text(first.attack) in text
    assert "Outcome" in text and "Modifiers" in text
    at = 0
    for entry in now.log:  # every line of the log, in order
        at = page.index(html.escape(entry.text, quote=True), at)
    assert text.index("Before play") < text.index("Exchange 1")
    assert "GM notes:" in text and "Bandit Archer" in text


def test_the_end_says_who_is_down_out_captured_or_escaped():
    start, now = played()
    moments, _ = round_starts(start, now.log)
    text = text_of(recap_html(now, moments, []))
    assert "Out: Bandit 1" in text
    assert re.search(r"Down: [^:]*Bandit Chief Gao", text)
    assert re.search(r"Escaped: [^:]*Tenacious Chen", text)
    assert "escaped (ran for the camp)" in text
    chase = ChaseState(
        participants=(
            Participant("lan", result="captured by gao"),
            Participant("bao", result="escaped"),
        )
    )
    state = msgspec.structs.replace(now, chase=chase)
    enc = Encounter.from_state(state)
    assert fate(enc.combatant("lan"), state) == "captured"
    assert fate(enc.combatant("bao"), state) == "escaped"
    assert "Captured: Silent Lan" in text_of(recap_html(state, moments, []))


def test_the_players_copy_leaves_out_the_gms_things():
    start, now = played()
    moments, _ = round_starts(start, now.log)
    gm = text_of(recap_html(now, moments, []))
    players = text_of(recap_html(now, moments, [], players=True))
    assert "for the players" in players and "GM notes" not in players
    assert now.meta.notes[:30] not in players
    assert "the ridge" in gm and "the ridge" not in players  # the reserve
    assert "Bandit Archer" in gm and "Bandit Archer" not in players  # never seen by them
    assert len(players) < len(gm)


def test_an_empty_log_and_a_log_not_from_the_start_are_refused_clearly():
    enc = Encounter()
    with pytest.raises(RecapError, match="the encounter's log is empty"):
        recap_html(enc.state(), [], [])
    start, now = played()
    with pytest.raises(RecapError, match="not the beginning of this log"):
        round_starts(now, start.log)


def test_a_recap_that_cannot_be_written_says_where_and_leaves_the_file(tmp_path):
    target = tmp_path / "recap.html"
    write_recap(target, "<p>first</p>")
    folder = tmp_path / "a folder"
    folder.mkdir()
    with pytest.raises(SaveError, match="a folder"):
        write_recap(folder, "<p>second</p>")
    with pytest.raises(SaveError):
        write_recap(tmp_path / "missing" / "recap.html", "<p>x</p>")
    assert target.read_text() == "<p>first</p>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a folder", "recap.html"]
