"""Facts the GM's menus, docks and dialogs show, owned by the model (item 10):
which checks are offered and why not, decoy spots for Hide, grit after an edit, marker
steps, Momentum markers, the reflex hand of a newcomer and the phase headline. No Qt."""

from __future__ import annotations

import itertools

import pytest

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.offers import (
    ATTACKS,
    MENU_CHECKS,
    can_target,
    check_refusal,
    is_offered,
    spends,
    target_refusal,
)
from afdesk.encounter.ops.economy import TakeAction
from afdesk.encounter.ops.flow import EndEncounter, NextTurn
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddMomentum,
    AddState,
    SetDecoys,
    decoy_spots,
    grit_after_edit,
    step_markers,
)
from afdesk.encounter.reflex import hand_key, hand_specs
from afdesk.encounter.summary import headline, whose_turn
from afdesk.rules.rulesets import ruleset_named
from tests.encounter.conftest import band, foe, make, start_round


def three():
    enc = make(band("huang", (5, 5)), band("chen", (6, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    return enc


# ------------------------------------------------------------------------- offers


def test_menu_checks_spend_an_action_then_a_snap_then_nothing():
    assert [a.value for a in MENU_CHECKS] == [
        "hack",
        "aim",
        "taunt",
        "convince",
        "hide",
        "distract",
        "look",
        "hustle",
        "creep",
        "check",
    ]
    assert [spends(a) for a in MENU_CHECKS] == ["action"] * 5 + ["snap"] * 4 + ["free"]
    assert ATTACKS == (CheckKind.HACK, CheckKind.AIM, CheckKind.TAUNT)


def test_creep_is_offered_only_while_hidden_and_leaving_only_in_an_overlap():
    enc = three()
    assert not is_offered(enc, "huang", CheckKind.CREEP)
    enc.apply(AddState("huang", StateKind.HIDDEN))
    assert is_offered(enc, "huang", CheckKind.CREEP)
    assert not is_offered(enc, "huang", CheckKind.LEAVE_OVERLAP)  # Gao is next to her, not with
    overlap = make(band("huang", (5, 5)), foe("gao", (5, 5)))
    assert is_offered(overlap, "huang", CheckKind.LEAVE_OVERLAP)
    assert not is_offered(overlap, "nobody", CheckKind.HACK)


def test_a_check_is_refused_for_what_it_would_spend():
    enc = three()  # Huang's turn (E3)
    assert check_refusal(enc, "huang", CheckKind.HACK) == ""
    assert "turn" in check_refusal(enc, "chen", CheckKind.HACK)
    enc.apply(TakeAction("huang", ActionKind.DEFEND))
    assert "already used the action" in check_refusal(enc, "huang", CheckKind.HACK)
    assert check_refusal(enc, "huang", CheckKind.DISTRACT) == ""  # the snap is still there
    assert check_refusal(enc, "chen", CheckKind.CHECK) == ""  # a plain check spends nothing


def test_attacks_are_offered_against_others_on_the_map_with_the_planned_reason():
    enc = three()
    assert can_target(enc, "huang", "gao")
    assert not can_target(enc, "huang", "huang")
    assert not can_target(enc, "", "gao")
    assert target_refusal(enc, "huang", CheckKind.HACK, "gao") == ""
    assert "themselves" in target_refusal(enc, "huang", CheckKind.HACK, "huang")
    enc.apply(NextTurn())  # Chen's turn: Huang may not attack now
    assert target_refusal(enc, "huang", CheckKind.HACK, "gao")


# ---------------------------------------------------------------------- decoys (E6)


def test_decoy_spots_are_the_adjacent_areas_inside_the_zone_and_all_accepted():
    enc = three()
    spots = decoy_spots(enc, enc.combatants["huang"])
    assert len(spots) == 8
    enc.apply(AddState("huang", StateKind.HIDDEN))
    for a, b in itertools.pairwise(spots):
        enc.apply(SetDecoys("huang", (a, b)))  # every pair of spots is a legal Hide
    corner = make(band("lan", (0, 0)))
    assert sorted(decoy_spots(corner, corner.combatants["lan"])) == [(0, 1), (1, 0), (1, 1)]
    off = make(band("bao", None))
    assert decoy_spots(off, off.combatants["bao"]) == []


# ------------------------------------------------------------- grit, markers, Momentum


def test_grit_after_an_edit_follows_the_new_maximum():
    c = band("huang", (1, 1), grit=5, grit_max=8)
    assert grit_after_edit(c, 3) == 3  # a lower maximum lowers what is left
    assert grit_after_edit(c, 10) == 5  # a higher one adds nothing
    fresh = band("chen", (1, 1), grit=0, grit_max=0)
    assert grit_after_edit(fresh, 6) == 6  # no grit track before: starts full


def test_marker_steps_never_go_below_none_and_none_ends_a_marked_state():
    enc = make(band("huang", (1, 1)))
    enc.apply(AddState("huang", StateKind.BLEEDING, markers=1))
    c = enc.combatants["huang"]
    assert step_markers(c, StateKind.BLEEDING, 1).markers == 2
    op = step_markers(c, StateKind.BLEEDING, -1)
    assert op.markers == 0
    enc.apply(op)
    assert not enc.combatants["huang"].has(StateKind.BLEEDING)
    assert step_markers(enc.combatants["huang"], StateKind.BLEEDING, -1).markers == 0


def test_momentum_markers_are_plus_or_minus_two_with_their_meaning():
    """R12: af-2.5.4's markers are +2 and -2, each with what it does."""
    markers = ruleset_named("af-2.5.4").momentum_markers
    assert set(markers) == {2, -2}
    assert all(markers.values())
    enc = make(band("huang", (1, 1)))
    for dice in markers:
        enc.apply(AddMomentum("huang", dice))
    with pytest.raises(IllegalOp, match="R12"):
        enc.apply(AddMomentum("huang", 1))


# ----------------------------------------------------------------------- reflex (E2)


def test_a_newcomer_joins_the_hand_hand_specs_names_for_its_group():
    enc = three()
    newcomer = foe("bandit", (1, 1))
    assert hand_key(newcomer) == "opponent:Foes"
    assert hand_key(newcomer) in {s.id for s in hand_specs(enc.roster())}
    enc.apply(AddCombatant(newcomer))
    assert "bandit" in enc.reflex.hand(hand_key(newcomer)).members


# ------------------------------------------------------------------------ headline


def test_the_headline_follows_the_phase_in_both_forms():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    assert headline(enc) == "Setup: place everyone, then deal reflex."
    assert headline(enc, brief=True) == "Setup"
    assert whose_turn(enc) == ""
    start_round(enc, ["huang", "opponent:Foes"])
    assert headline(enc) == "Exchange 1 · round 1 of 5"
    assert headline(enc, brief=True) == "Exchange 1 · Round 1"
    assert whose_turn(enc) == "Exchange 1 · Round 1 · Huang's turn"
    enc.apply(NextTurn())
    enc.apply(NextTurn())
    assert headline(enc) == "Exchange 1 · round 2 of 5: every hand plays a card."
    assert headline(enc, brief=True) == "Exchange 1 · reflex cards for round 2"
    for _ in range(4):
        start_round(enc, ["huang", "opponent:Foes"], deal=False)
        enc.apply(NextTurn())
        enc.apply(NextTurn())
    assert headline(enc) == "Exchange 1 is over."
    assert headline(enc, brief=True) == "End of exchange 1"
    enc.apply(EndEncounter())
    assert headline(enc) == "The encounter is over."
    assert headline(enc, brief=True) == "The encounter is over"
