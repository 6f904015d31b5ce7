"""The rows of snaps and states (afdesk.encounter.features): every snap and state has one, the
contest, the Ops and the log read them, and a row added at run time (a made-up snap) is
played like the rulebook's own (E5, E6, E7, E14, E17, P5, R12)."""

from __future__ import annotations

import re

import msgspec
import pytest

from afdesk.encounter import features
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import TakeAction, UseSnap
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import AddState
from afdesk.encounter.registry import decode_hook
from afdesk.rules.dice import ScriptedSource
from tests.encounter.conftest import band, foe, make, start_round

# A snap like the Brace of docs/architecture.md, made up for these tests only (not in the
# rules; named apart from Brace so that a developer trying that example meets no clash).
STEADIED = features.StateRow(
    "steadied",
    "Steadied",
    "E5",
    "STEADY",
    "#455a64",
    "+2 to the next parry until the next turn",
    features.Bonus(2, frozenset({"parry"}), "{name} steadied: +2 on the next parry", consumed=True),
)
STEADY = features.SnapRow(
    "steady",
    "Steady",
    "E5",
    "{who} steadies: +2 to the next parry until the next turn (E5)",
    grants="steadied",
)


def duel():
    enc = make(band("huang", (5, 5)), foe("gao", (5, 4)))
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def option(plan, kind, via=Via.GUARD):
    return next(d for d in plan.defenses if d.kind is kind and d.via is via)


def test_every_snap_and_state_has_one_row_citing_its_rule():
    assert {str(k) for k in SnapKind} <= set(features.SNAPS)
    assert set(features.STATES) == {str(k) for k in StateKind}  # files name every state
    rows = [*features.SNAPS.values(), *features.STATES.values()]
    assert all(re.fullmatch(r"[A-Z]\d+", r.rule) for r in rows)
    assert all(r.badge and r.colour.startswith("#") for r in features.STATES.values())
    for snap in features.SNAPS.values():  # what a snap grants is a state with a row
        assert not snap.grants or snap.grants in features.STATES


def test_every_action_has_one_row_and_take_action_does_what_it_says():
    """E6: Defend's state and extra guard, Recover's refusal and the states it ends, the log."""
    assert set(features.ACTIONS) == {str(k) for k in ActionKind}
    assert all(re.fullmatch(r"[A-Z]\d+", r.rule) for r in features.ACTIONS.values())
    enc = duel()
    with pytest.raises(IllegalOp, match="neither down nor stalled: nothing to recover"):
        enc.apply(TakeAction("huang", ActionKind.RECOVER))
    with pytest.raises(IllegalOp, match="Attack is a check: resolve it as a contest"):
        enc.apply(TakeAction("huang", ActionKind.ATTACK))
    enc.apply(TakeAction("huang", ActionKind.DEFEND, "shield up"))
    huang = enc.combatant("huang")
    assert huang.economy.guards == 2 and not huang.economy.action
    assert huang.state(StateKind.DEFENDING).until == huang.economy.turns + 1
    assert enc.log[-1].text == (
        "Huang defends: an extra guard and a defense against every check until the next "
        "turn (E6): shield up"
    )
    with pytest.raises(msgspec.ValidationError, match="there is no action 'parley' \\(E6\\)"):
        msgspec.json.decode(b'{"id": "huang", "action": "parley"}', type=TakeAction)


def test_fend_and_quip_give_their_defenses_from_their_rows():
    """E5, P5: Fend an extra parry, Quip an extra retort, until the next turn."""
    enc = duel()
    enc.apply(NextTurn())  # Gao's turn
    enc.apply(UseSnap("gao", SnapKind.FEND))
    gao = enc.combatant("gao")
    assert features.extra_defenses(gao) == [(DefenseKind.PARRY, Via.FEND)]
    plan = assemble(enc, "huang", CheckKind.HACK, "gao")
    assert option(plan, DefenseKind.PARRY, Via.FEND).allowed
    assert features.dock_text(gao.states[0]).startswith("Fending: an extra parry")
    assert features.badge_text(gao.states[0]) == "FEND"
    assert enc.log[-1].text == "Gao fends: an extra parry until the next turn (E5)"


def test_crouch_refusal_is_its_rows_reason():
    enc = make(band("huang", (4, 5)), foe("gao", (4, 6)))  # no cover next to (4, 5)
    start_round(enc, ["huang", "opponent:Foes"])
    with pytest.raises(IllegalOp, match=r"not next to cover: nothing to crouch behind \(E5\)"):
        enc.apply(UseSnap("huang", SnapKind.CROUCH))
    assert enc.combatant("huang").economy.snaps == 1  # refused: nothing changed


def test_a_made_up_snap_is_one_row_the_ops_the_contest_and_the_log_read():
    enc = duel()
    with features.registered(STEADIED, STEADY):
        enc.apply(NextTurn())  # Gao's turn: he steadies himself
        enc.apply(UseSnap("gao", "steady"))
        gao = enc.combatant("gao")
        st = gao.state("steadied")
        assert st is not None and st.until == gao.economy.turns + 1  # until the next turn
        assert gao.economy.snaps == 0
        assert enc.log[-1].text.endswith("steadies: +2 to the next parry until the next turn (E5)")
        enc.apply(NextTurn())  # the round ends; the next round starts with Huang's turn
        start_round(enc, ["huang", "opponent:Foes"], deal=False)
        plan = assemble(enc, "huang", CheckKind.HACK, "gao")
        parry = option(plan, DefenseKind.PARRY)
        m = next(m for m in parry.modifiers if m.key == "steadied")
        assert (m.dice, m.rule, m.reason) == (2, "E5", "Gao steadied: +2 on the next parry")
        assert m.one_shot and m.marker is None
        assert not any(x.key == "steadied" for x in option(plan, DefenseKind.DODGE).modifiers)
        assert not any(x.key == "steadied" for x in plan.modifiers)  # not on Huang's hack
        flow = ContestFlow(enc, plan)
        assert flow.attack_pools()[0] == 2
        flow.roll_attack(ScriptedSource([5, 4]))
        flow.choose_defense(parry)
        assert flow.defense_pools(0) == (2 + 2, 0)  # fight 2, steadied +2
        flow.roll_defense(ScriptedSource([6, 1, 3, 2, 2]))
        enc.apply(flow.op())
        assert not enc.combatant("gao").has("steadied")  # used up by the parry that counted it


def test_a_snap_without_a_row_is_refused_where_it_stands():
    with pytest.raises(msgspec.ValidationError, match="there is no snap 'steady' \\(E5\\)"):
        msgspec.json.decode(b'{"id": "huang", "snap": "steady"}', type=UseSnap)
    with features.registered(STEADY, STEADIED):
        assert UseSnap("huang", "steady").snap == "steady"
    assert "steady" not in features.SNAPS and "steadied" not in features.STATES  # taken away


def test_prepared_bonus_is_used_up_by_its_key_and_old_records_by_the_old_sentinel():
    """Files written before the rows held marker=-1 for Prepared (E5): still read so."""
    enc = duel()
    enc.apply(UseSnap("huang", SnapKind.PREPARE))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao"))
    flow.roll_attack(ScriptedSource([5, 4, 2, 1]))
    record = msgspec.to_builtins(flow.op())
    mods = record["record"]["modifiers"]
    assert [m.get("marker") for m in mods if m["key"] == "prepared"] == [None]
    for m in mods:
        if m["key"] == "prepared":
            m["marker"] = -1  # as an encounter file of schema v3 holds it
    old = msgspec.convert(record, ResolveContest, dec_hook=decode_hook)
    enc.apply(AddState("huang", StateKind.BLEEDING))
    enc.apply(old)
    assert not enc.combatant("huang").has(StateKind.PREPARED)
    assert enc.combatant("huang").has(StateKind.BLEEDING)  # nothing else taken


def test_every_defense_is_one_row():
    """E4, E5, E8, P5: name, verb, facet and rule of each defense in one table."""
    from afdesk.encounter.checks import DEFENSE_FACET, DEFENSES, GUARD_ONLY

    assert set(DEFENSES) == set(DefenseKind)
    assert all(re.fullmatch(r"[A-Z]\d+", r.rule) for r in DEFENSES.values())
    assert GUARD_ONLY == (DefenseKind.COUNTER, DefenseKind.DIVE, DefenseKind.RETORT)
    assert DefenseKind.RETORT.base is DefenseKind.INSIGHT and DefenseKind.DODGE.base is (
        DefenseKind.DODGE
    )
    assert DEFENSE_FACET[DefenseKind.PARRY] == "fight" and DefenseKind.INSIGHT.verb == (
        "uses insight"
    )
