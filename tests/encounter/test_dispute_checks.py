"""A dispute's checks through the contest, as the check dialog makes them (P1, P2, P4, P5,
P7-P9): Convince against the audience and a personality, the platform's property dice,
Taunt to grit, checks without a zone, the fumble's tension, a broken dispute's change of
mode at once, closing at an exchange end."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter.checks import CheckKind
from afdesk.encounter.combatant import Combatant, Facet, Side
from afdesk.encounter.contest.assembly import assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.dispute import checks
from afdesk.encounter.dispute.ops import AddTension, CloseDispute, JoinDispute, SetDisputeStats
from afdesk.encounter.dispute.state import Entry
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.state import Mode, Phase
from afdesk.rules.dice import ScriptedSource
from afdesk.storage.samples import build_council
from tests.encounter.conftest import start_round, turn_of
from tests.encounter.test_dispute import exchange_end


def playing(actor: str = "huang") -> Encounter:
    enc = build_council()
    start_round(enc)
    turn_of(enc, actor)
    return enc


def resolve(enc: Encounter, actor: str, action: CheckKind, target: str, *faces: int, **kw):
    """Assemble, roll (scripted faces: the check's, then the defense's) and apply."""
    flow = ContestFlow(enc, assemble(enc, actor, action, target))
    source = ScriptedSource(faces)
    flow.roll_attack(source)
    defense = kw.get("defense")
    if defense and flow.attack_succeeded():
        flow.choose_defense(next(o for o in flow.plan.usable_defenses() if o.kind.value == defense))
        flow.roll_defense(source)
    op = flow.op(override=kw.get("override", False))
    enc.apply(op)
    return op


def test_p4a_a_convince_at_the_audience_needs_no_target_and_moves_the_margin():
    enc = playing()
    plan = assemble(enc, "huang", CheckKind.CONVINCE, "")
    assert plan.allowed and plan.defenses == ()  # the audience makes no defence (P4a)
    assert plan.dice == 3  # Huang's influence
    before = enc.dispute.support()["magistrate"]
    # 5, 5, 4: Result 5, Gain 2 -> success margin 2 (R13)
    resolve(enc, "huang", CheckKind.CONVINCE, "", 5, 5, 4)
    d = enc.dispute
    assert d.support()["magistrate"] == before + 2 and d.neutral() == 10
    assert not enc.combatant("huang").economy.action  # the action is spent (E6)
    assert "convinces 2 of the audience to join Send for the magistrate" in enc.log[-1].text


def test_p4a_undo_puts_everyone_back_exactly():
    enc = playing()
    before = enc.state()
    plan = assemble(enc, "huang", CheckKind.CONVINCE, "")
    flow = ContestFlow(enc, plan)
    flow.roll_attack(ScriptedSource([5, 5, 4]))
    inverse = enc.apply(flow.op())
    enc.apply(inverse)
    assert enc.state() == msgspec.structs.replace(before, log=enc.state().log)


def test_p2_a_platforms_property_dice_join_the_convince_pool():
    enc = playing("lan")
    plan = assemble(enc, "lan", CheckKind.CONVINCE, "")
    prop = [m for m in plan.modifiers if m.rule == "P2"]
    assert [(m.label, m.dice) for m in prop] == [("Grief in the room: +1 die", 1)]
    assert ContestFlow(enc, plan).attack_pools() == (plan.dice + 1, 0)


def test_p4b_refused_before_rolling_with_grit_and_sway_named():
    enc = playing()
    plan = assemble(enc, "huang", CheckKind.CONVINCE, "bao")
    assert not plan.allowed
    assert "Elder Bao still has grit 2 and sway 2" in plan.reason and "(P4b)" in plan.reason
    with pytest.raises(IllegalOp, match="grit 2 and sway 2"):
        ContestFlow(enc, plan)


def test_p4b_a_record_made_before_the_sway_came_back_is_refused_and_changes_nothing():
    enc = playing()
    enc.apply(SetDisputeStats("bao", sway=0))
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.CONVINCE, "bao"))
    flow.roll_attack(ScriptedSource([5, 5, 4]))
    op = flow.op()
    enc.apply(SetDisputeStats("bao", sway=1))
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"\(P4b\)"):
        enc.apply(op)
    assert enc.state() == before


def test_p4b_a_personality_with_no_sway_defends_with_insight_and_joins():
    enc = playing()
    enc.apply(SetDisputeStats("bao", sway=0))
    plan = assemble(enc, "huang", CheckKind.CONVINCE, "bao")
    kinds = {o.kind.value for o in plan.usable_defenses()}
    assert "insight" in kinds and "dodge" not in kinds and "parry" not in kinds  # E8, P1
    # Huang's 5, 5, 4 against Bao's insight 4, 2, 1: the Convince stands (R9)
    resolve(enc, "huang", CheckKind.CONVINCE, "bao", 5, 5, 4, 4, 2, 1, defense="insight")
    assert enc.dispute.entry("bao").side == "magistrate"
    assert "convinces Elder Bao to join Send for the magistrate (P4b)" in enc.log[-1].text


def test_p5_a_taunt_in_a_dispute_takes_grit_not_hits():
    enc = playing()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.TAUNT, "lan"))
    flow.hits = 1
    flow.roll_attack(ScriptedSource([5, 5, 1, 1]))  # cover on the line: -2 (E13)
    enc.apply(flow.op())
    assert enc.dispute.entry("lan").grit == 0
    assert enc.combatant("lan").hits == 0
    assert "Widow Lan loses 1 grit in the dispute: 0 left (P5)" in enc.log[-1].text
    # now Lan may be convinced (P4b)
    assert (
        checks.convince_refusal(
            enc.dispute, enc.dispute.entry("huang"), enc.dispute.entry("lan"), "Huang"
        )
        == ""
    )


def no_zone_dispute() -> Encounter:
    enc = Encounter()
    face = (Facet("influence", 3), Facet("perform", 2))
    enc.apply(AddCombatant(Combatant("a", "Ama", Side.BAND, facets=face)))
    enc.apply(AddCombatant(Combatant("b", "Bo", Side.DENIZEN, facets=face, facing=0.0)))
    enc.apply(ChangeMode(Mode.DISPUTE))
    enc.apply(JoinDispute(Entry("a", "Ama", character="a", grit=1)))
    enc.apply(JoinDispute(Entry("b", "Bo", character="b", grit=1)))
    return enc


def test_p1_without_a_zone_a_taunt_has_no_range_flank_or_cover():
    enc = no_zone_dispute()
    assert not enc.zone.tiles
    plan = assemble(enc, "a", CheckKind.TAUNT, "b")
    assert checks.NO_ZONE in plan.notes
    assert not {m.key for m in plan.modifiers} & {"cover", "range", "flank"}
    insight = [o for o in plan.defenses if o.kind.value == "insight"]
    assert insight and all(not {m.key for m in o.modifiers} & {"flank"} for o in insight)
    assert plan.reason == "" or "turn" in plan.reason  # only the turn economy may refuse


def test_p7_a_fumbled_social_check_proposes_one_tension_until_it_is_added():
    enc = playing()
    # 1, 2 and an Interference 5: no Win, an Interference Win unspent: a Fumble (R6)
    plan = assemble(enc, "huang", CheckKind.CONVINCE, "")
    flow = ContestFlow(enc, plan)
    flow.add_gm_modifier("noise", -1)
    flow.roll_attack(ScriptedSource([1, 2, 1, 5]))
    enc.apply(flow.op())
    assert "proposes +1 tension (P7, R6)" in enc.log[-1].text
    [decision] = checks.decisions(enc, enc.log)
    assert decision.kind == "tension" and "Huang fumbled" in decision.text
    [choice] = decision.choices
    assert choice.op == AddTension(1)
    enc.apply(choice.op)
    assert enc.dispute.tension == 1
    assert checks.decisions(enc, enc.log) == []


def test_p7_a_broken_dispute_offers_battle_or_chase_at_once():
    enc = playing()
    enc.apply(AddTension(4))
    assert enc.dispute.outcome.how == "broken" and enc.turn.phase is Phase.TURNS
    [decision] = checks.decisions(enc, enc.log)
    assert decision.kind == "broken"
    ops = {c.label: c.op for c in decision.choices}
    assert set(ops) == {"Battle now", "Chase now", "End the encounter"}
    enc.apply(ops["Battle now"])  # mid-round: allowed at once (P7, E16)
    assert enc.mode is Mode.BATTLE
    assert "at once: the dispute broke (P7)" in enc.log[-1].text


def test_e16_an_open_dispute_still_changes_mode_only_at_an_exchange_end():
    enc = playing()
    with pytest.raises(IllegalOp, match="change the mode"):
        enc.apply(ChangeMode(Mode.BATTLE))


def test_p8_at_an_exchange_end_the_board_offers_to_close_on_the_most_support():
    enc = build_council()
    exchange_end(enc)
    [decision] = checks.decisions(enc, enc.log)
    assert decision.kind == "close"
    # one each: tied, the conventional platform wins (P8)
    [choice] = decision.choices
    assert choice.label == "Close: Rebuild the mill" and choice.op == CloseDispute()
    enc.apply(choice.op)
    assert enc.dispute.outcome.winner == "mill"
