"""Moving a character to an area, asked of the model without Qt (E5, E6, E9, E14): what a
drag means now, which Ops a drop becomes, and why a drop is refused."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter import drag
from afdesk.encounter.drag import DragKind, EdgeChoice
from afdesk.encounter.geometry import straight_path
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import ExitCombatant, PlaceCombatant
from afdesk.encounter.ops.zone import ExtendZone
from afdesk.encounter.zone import Edge
from afdesk.storage import samples as sample


def started(*placements):
    """The sample with these placements made in setup, then turns started (seeded): Bandit
    Chief Gao acts first, at (8, 3)."""
    enc = sample.build()
    for cid, area in placements:
        enc.apply(PlaceCombatant(cid, area))
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    assert enc.actor == "gao"
    return enc


def test_the_actor_moves_by_maneuver_within_reach():
    enc = started()
    plan = drag.plan_drag(enc, "gao")
    assert plan.kind is DragKind.MOVE and plan.maneuver and plan.start == (8, 3)
    labels = drag.reach_labels(enc, plan)
    assert labels[(8, 4)] == ("1", False) and labels[(8, 5)] == ("2", False)
    assert (8, 3) not in labels and (8, 6) not in labels  # the start; deep water
    out = drag.drop(enc, plan, (8, 5))
    [op] = out.ops
    assert isinstance(op, MoveCombatant) and op.maneuver and op.facing == 180.0
    assert tuple(op.path[0]) == (8, 3) and tuple(op.path[-1]) == (8, 5) and len(op.path) == 3
    assert out.text == "Move Bandit Chief Gao" and not out.reason
    enc.apply(op)
    assert enc.combatants["gao"].area == (8, 5)


def test_a_drop_where_it_started_is_nothing():
    enc = started()
    plan = drag.plan_drag(enc, "gao")
    out = drag.drop(enc, plan, (8, 3))
    assert not out.ops and not out.reason and out.edge is None


def test_out_of_reach_is_refused_with_the_models_reason():
    enc = started()
    plan = drag.plan_drag(enc, "gao")
    out = drag.drop(enc, plan, (8, 7))
    expected = enc.refusal(MoveCombatant("gao", tuple(straight_path((8, 3), (8, 7))), 180.0, True))
    assert not out.ops and out.reason == expected and "more" in out.reason
    pv = drag.preview(enc, plan, (8, 7))
    assert not pv.ok and pv.label == "out of reach"


def test_an_opponents_overlap_stops_the_move():
    enc = started(("huang", (8, 5)))
    plan = drag.plan_drag(enc, "gao")
    assert drag.reach_labels(enc, plan)[(8, 5)] == ("2", True)
    assert drag.preview(enc, plan, (8, 5)).label == "2, stops"
    (op,) = drag.drop(enc, plan, (8, 5)).ops
    enc.apply(op)
    assert enc.combatants["gao"].economy.movement == 0


def test_someone_else_is_refused_and_the_override_places():
    enc = started()
    plan = drag.plan_drag(enc, "huang")
    assert plan.kind is DragKind.REFUSED and "Gao's turn" in plan.reason
    assert drag.drop(enc, plan, (6, 10)).reason == plan.reason
    assert not drag.preview(enc, plan, (6, 10)).ok
    plan = drag.plan_drag(enc, "huang", override=True)
    assert plan.kind is DragKind.PLACE and plan.override
    assert drag.drop(enc, plan, (6, 10)).ops == [PlaceCombatant("huang", (6, 10))]
    assert drag.preview(enc, plan, (6, 10)).label == "GM override"


def test_setup_places():
    enc = sample.build()
    plan = drag.plan_drag(enc, "lan")
    assert plan.kind is DragKind.PLACE and not plan.override
    assert drag.drop(enc, plan, (4, 13)).ops == [PlaceCombatant("lan", (4, 13))]
    assert drag.preview(enc, plan, (4, 13)).label == "place"


def test_past_the_edge_asks_and_offers_the_edge_rules_choice_first():
    enc = started(("gao", (8, 1)))
    plan = drag.plan_drag(enc, "gao")
    out = drag.drop(enc, plan, (8, -1))
    assert out.edge is Edge.NORTH and not out.ops
    assert drag.preview(enc, plan, (8, -1)).label == "past the north edge"
    choices = [key for key, _words in drag.edge_choices(enc, Edge.NORTH)]
    assert choices == [EdgeChoice.EXIT, EdgeChoice.EXTEND]  # the north edge exits


def test_extend_is_the_extension_and_the_move():
    enc = started(("gao", (8, 1)))
    plan = drag.plan_drag(enc, "gao")
    out = drag.edge_drop(enc, plan, (8, -1), Edge.NORTH, "extend", random.Random(5))
    extend, move = out.ops
    assert isinstance(extend, ExtendZone) and extend.edge is Edge.NORTH
    assert isinstance(move, MoveCombatant) and tuple(move.path[-1]) == (8, -1)
    for op in out.ops:
        enc.apply(op)
    assert enc.zone.size() == (3, 4) and enc.combatants["gao"].area == (8, -1)


def test_exit_moves_to_the_edge_first():
    enc = started(("gao", (8, 1)))
    plan = drag.plan_drag(enc, "gao")
    move, leave = drag.edge_drop(enc, plan, (8, -2), Edge.NORTH, EdgeChoice.EXIT).ops
    assert isinstance(move, MoveCombatant) and tuple(move.path[-1]) == (8, 0)
    assert leave == ExitCombatant("gao", Edge.NORTH)


def test_extend_out_of_reach_is_refused():
    enc = started()
    plan = drag.plan_drag(enc, "gao")
    for choice in EdgeChoice:
        out = drag.edge_drop(enc, plan, (8, -1), Edge.NORTH, choice, random.Random(1))
        assert not out.ops and "more" in out.reason


def test_the_override_past_the_edge_extends_and_places():
    enc = started()
    plan = drag.plan_drag(enc, "lan", override=True)
    out = drag.edge_drop(enc, plan, (5, 16), Edge.SOUTH, EdgeChoice.EXTEND, random.Random(2))
    assert out.ops[1] == PlaceCombatant("lan", (5, 16))


@pytest.mark.parametrize(("value", "text"), [(1.5, "1.5"), (2, "2"), (0.25, "0.2")])
def test_areas_text(value, text):
    assert drag.areas_text(value) == text
