"""The dispute declares its decisions where the window's decisions bar reads them
(afdesk.encounter.pending): the fumble's +1 tension (P7, R6), a broken dispute's battle,
chase or end (P7) and closing at an exchange end (P8), with the same Ops."""

from __future__ import annotations

from afdesk.encounter.checks import CheckKind
from afdesk.encounter.contest.assembly import assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.dispute.ops import AddTension, CloseDispute
from afdesk.encounter.modes import current_mode
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.pending import pending_decisions
from afdesk.encounter.state import Mode
from afdesk.rules.dice import ScriptedSource
from afdesk.storage.samples import build_council
from tests.encounter.test_dispute import exchange_end
from tests.encounter.test_dispute_checks import playing


def _dispute(enc):
    return [d for d in pending_decisions(enc) if d.about == "dispute"]


def test_p7_the_fumbles_tension_waits_on_the_decisions_bar_until_added():
    enc = playing()
    assert _dispute(enc) == []
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.CONVINCE, ""))
    flow.add_gm_modifier("noise", -1)
    flow.roll_attack(ScriptedSource([1, 2, 1, 5]))  # no Win, an Interference Win: Fumble
    enc.apply(flow.op())
    [decision] = _dispute(enc)
    assert decision.kind == "tension" and "Huang fumbled" in decision.text
    assert [c.op for c in decision.choices] == [AddTension(1)]
    assert _dispute(enc) == current_mode(enc).decisions(enc)  # one source
    enc.apply(decision.choices[0].op)
    assert enc.dispute.tension == 1 and _dispute(enc) == []


def test_p7_a_broken_dispute_waits_on_the_bar_with_battle_chase_or_end():
    enc = playing()
    enc.apply(AddTension(4))
    [decision] = _dispute(enc)
    assert decision.kind == "broken"
    ops = {c.label: c.op for c in decision.choices}
    enc.apply(ops["Chase now"])
    assert enc.mode is Mode.CHASE and _dispute(enc) == []


def test_p8_closing_at_an_exchange_end_waits_on_the_bar():
    enc = build_council()
    exchange_end(enc)
    [decision] = _dispute(enc)
    assert decision.kind == "close"
    assert [c.op for c in decision.choices] == [CloseDispute()]


def test_a_battle_declares_no_dispute_decisions():
    enc = build_council()
    exchange_end(enc)
    enc.apply(ChangeMode(Mode.BATTLE))
    assert _dispute(enc) == []
