"""The infiltration's last rule gaps in the model: one watch step per guardian per turn
(N3), a hidden character's fumble costing a decoy (N4d), Maneuver while hidden moving the
decoys (N5) and the target's perception against a surprise attack (N7)."""

from __future__ import annotations

import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.infiltration.ops import ConfirmWatch
from afdesk.encounter.infiltration.watch import watch_refusal, watch_steps
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.state import Phase
from afdesk.storage.samples import build_warehouse
from tests.encounter.conftest import start_round, turn_of

# ------------------------------------------------------------------ N3 once a turn


def test_n3_a_second_watch_step_in_the_same_turn_is_refused_and_changes_nothing():
    enc = build_warehouse()
    start_round(enc)
    turn_of(enc, "guard-1")
    steps = watch_steps(enc)
    assert {s.id for s in steps} == {"guard-1", "guard-2", "foreman"}
    enc.apply(ConfirmWatch(steps))  # Confirm all: each guardian one step
    assert watch_steps(enc) == ()  # nothing more is proposed this turn
    assert "Dock Guard 1 has already taken its watch step this turn" in watch_refusal(
        enc, "guard-1"
    )
    before = enc.state()
    again = ConfirmWatch((steps[0].__class__("guard-1", _beside(enc, "guard-1"), 0.0, (3, 2)),))
    with pytest.raises(IllegalOp, match=r"already taken its watch step this turn.*\(N3\)"):
        enc.apply(again)
    assert enc.state() == before
    # the guardian's next turn brings its next watch step (N3)
    while enc.turn.phase is Phase.TURNS:
        enc.apply(NextTurn())
    start_round(enc, deal=False)
    turn_of(enc, "guard-1")
    assert watch_refusal(enc, "guard-1") == ""
    assert "guard-1" in {s.id for s in watch_steps(enc)}


def _beside(enc, cid):
    a = enc.combatant(cid).area
    return (a[0], a[1] + 1)
