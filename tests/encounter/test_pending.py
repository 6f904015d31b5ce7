"""The decisions waiting for the GM (afdesk.encounter.pending): harm at grit, the actor's
ongoing states (E3), reinforcements between exchanges (E1)."""

from __future__ import annotations

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.flow import EndExchangeEarly
from afdesk.encounter.ops.reserve import HoldInReserve
from afdesk.encounter.ops.roster import AddState, AdjustCounter, TickBleeding
from afdesk.encounter.pending import pending_decisions
from afdesk.encounter.state import Phase
from tests.encounter.conftest import band, foe, make, start_round


def three():
    enc = make(band("huang", (5, 5), grit=3), band("chen", (6, 5)), foe("gao", (5, 4), grit=2))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    return enc


def test_nothing_pending_in_a_quiet_turn():
    assert pending_decisions(three()) == []


def test_harm_at_grit_waits_whoever_is_acting_until_decided():
    enc = three()
    enc.apply(AdjustCounter("gao", "hits", 2))  # Gao is not the actor (Huang is)
    [d] = pending_decisions(enc)
    assert (d.kind, d.about) == ("harm", "gao")
    assert "hits 2 reach grit 2" in d.text
    assert [ch.label for ch in d.choices] == ["Down", "Out", "Nothing"]
    assert d.choices[0].op == DecideHarm("gao", "down")
    enc.apply(d.choices[2].op)  # "nothing": decided, so it goes
    assert pending_decisions(enc) == []
    enc.apply(AdjustCounter("gao", "hits", 1))  # hits rise again: asked again
    assert [d.about for d in pending_decisions(enc)] == ["gao"]


def test_the_actors_bleeding_waits_until_resolved_this_turn():
    enc = three()
    enc.apply(AddState("huang", StateKind.BLEEDING, markers=2))
    enc.apply(AddState("chen", StateKind.BLEEDING, markers=2))  # not its turn: not asked
    [d] = pending_decisions(enc)
    assert (d.kind, d.about) == ("state", "huang") and "bleeding 2" in d.text
    assert d.choices[0].op == TickBleeding("huang", StateKind.BLEEDING)
    enc.apply(d.choices[0].op)
    assert pending_decisions(enc) == []  # resolved once this turn (E3)


def test_burning_points_to_the_dock_for_the_fires_hits():
    enc = three()
    enc.apply(AddState("huang", StateKind.BURNING))
    [d] = pending_decisions(enc)
    assert d.choices[0].op is None and d.choices[0].label == "Show"


def test_reserve_groups_are_offered_between_exchanges_only():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)), foe("tiger", (9, 9), group="Tigers"))
    enc.apply(HoldInReserve(("tiger",), "Tigers"))
    assert pending_decisions(enc) == []  # setup: not due
    start_round(enc, ["huang", "opponent:Foes"])
    assert pending_decisions(enc) == []  # mid-exchange: not due (E1)
    enc.apply(EndExchangeEarly())
    assert enc.turn.phase is Phase.EXCHANGE_END
    [d] = pending_decisions(enc)
    assert (d.kind, d.about) == ("reinforcements", "Tigers")
    enc.apply(d.choices[0].op)
    assert pending_decisions(enc) == []
