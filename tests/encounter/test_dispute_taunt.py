"""A Taunt with no weapon deals its success margin (R13) to grit in a dispute (P5, E6,
E17; the reading is in afdesk.encounter.damage.margin_damage), never a silent 0."""

from __future__ import annotations

from afdesk.encounter.checks import CheckKind
from afdesk.encounter.contest.assembly import assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.model import Encounter
from afdesk.rules.dice import ScriptedSource
from tests.encounter.test_dispute_checks import playing


def taunt(enc: Encounter, actor: str, target: str, *faces: int, **kw) -> ContestFlow:
    flow = ContestFlow(enc, assemble(enc, actor, CheckKind.TAUNT, target, **kw))
    flow.roll_attack(ScriptedSource(faces))
    return flow


def test_p5_a_taunt_with_no_weapon_takes_its_success_margin_off_grit():
    enc = playing()
    bao = enc.dispute.entry("bao")
    assert bao.grit == 2 and enc.combatant("huang").attacks == ()
    flow = taunt(enc, "huang", "bao", 5, 5, 1, 1)  # Result 5, Gain 2: margin 2 (R13)
    assert flow.hits_from_margin and flow.hits == 2
    enc.apply(flow.op())
    assert enc.dispute.entry("bao").grit == 0 and enc.combatant("bao").hits == 0
    assert "Elder Bao loses 2 grit in the dispute: 0 left (P5)" in enc.log[-1].text


def test_p5_the_damage_follows_the_margin_and_a_miss_deals_none():
    one = taunt(playing(), "huang", "bao", 4, 2, 1, 1)  # Result 4, Gain 1: margin 1
    assert one.hits == 1
    miss = taunt(playing(), "huang", "bao", 1, 2, 1, 1)  # no Win: it fails
    assert miss.hits == 0 and not miss.verdict_now().lands
    enc = playing()
    stopped = taunt(enc, "huang", "bao", 5, 5, 1, 1)
    insight = next(o for o in stopped.plan.usable_defenses() if o.kind.value == "insight")
    stopped.choose_defense(insight)
    stopped.roll_defense(ScriptedSource([6, 2, 4, 1]))  # Bao: 6 (+1), 2, 4: 6 stops it (R9)
    assert stopped.hits == 0
    enc.apply(stopped.op())
    assert enc.dispute.entry("bao").grit == 2


def test_p5_the_gms_number_still_decides():
    enc = playing()
    flow = taunt(enc, "huang", "bao", 5, 5, 1, 1)
    flow.hits = 1  # the GM types the damage (DESIGN: the GM may override)
    assert not flow.hits_from_margin
    enc.apply(flow.op())
    assert enc.dispute.entry("bao").grit == 1
