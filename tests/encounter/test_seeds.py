"""The seed examples (kick, alley, door) play through the model and the flow to their
printed outcomes in every ruleset where they apply (R4, R8, R9, C2, C3)."""

from __future__ import annotations

import pytest

from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from tests.encounter import seeds


def _option(plan, kind, via=Via.GUARD):
    return next(d for d in plan.defenses if d.kind is kind and d.via is via)


@pytest.mark.parametrize("ruleset", seeds.DICE_RULESETS)
def test_R9_C2_the_kick(ruleset):
    """af-2.5.4: Chen's Result 6 beats Huang's 5, the dodge stops the kick (R9).
    af-classic: his 6 removes her 4, her 5 stands and the kick lands (C2)."""
    enc = seeds.kick(ruleset)
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "chen"))
    assert flow.attack_pools() == (3, 0)
    flow.hits = 2
    flow.roll_attack(ScriptedSource(seeds.KICK_ATTACK))
    flow.choose_defense(_option(flow.plan, DefenseKind.DODGE))
    assert flow.defense_pools() == (2, 0)
    flow.roll_defense(ScriptedSource(seeds.KICK_DODGE))
    v = flow.verdict_now()
    enc.apply(flow.op())
    chen = enc.combatants["chen"]
    if ruleset == "af-2.5.4":
        assert v.stopped and v.defense.result == 6 and v.attack.result == 5
        assert chen.hits == 0
    else:
        assert v.lands and v.attack.wins == (5,)
        assert chen.hits == 2
    assert chen.economy.guards == 0  # the dodge was his guard (E4)


@pytest.mark.parametrize("ruleset", seeds.DICE_RULESETS)
def test_R8_R4_the_alley_a_venture_on_the_guard(ruleset):
    """The thug's Result 4; Huang's guard with one Venture: af-2.5.4 Result 5, Gain 1, the
    lone 4 pairs with the Venture for 1 Momentum, her 5 beats his 4 (R7-R9);
    af-classic: her 4 removes his 4, her 5 stays and the token pairs with it (C2, C3). She
    keeps the Momentum for her next check."""
    enc = seeds.alley(ruleset)
    flow = ContestFlow(enc, assemble(enc, "thug", CheckKind.HACK, "huang"))
    flow.hits = 1
    flow.roll_attack(ScriptedSource(seeds.ALLEY_PUNCH))
    assert flow.verdict_now().attack.result == 4
    flow.choose_defense(_option(flow.plan, DefenseKind.DODGE))
    flow.set_defense_ventures(1)
    flow.roll_defense(ScriptedSource(seeds.ALLEY_GUARD[ruleset]))
    v = flow.verdict_now()
    assert v.stopped and v.defense.momentum == 1
    if ruleset == "af-2.5.4":
        assert (v.defense.result, v.defense.gain) == (5, 1)
        assert flow.defense_roll.interference_faces == (2, 3)
    else:
        assert v.defense.wins == (5,)
        assert flow.defense_roll.interference_faces == (3,)
    if ruleset == "af-2.5.4":
        flow.use_momentum(Role.DEFENDER, "marker", "huang", 2)
    enc.apply(flow.op())
    huang = enc.combatants["huang"]
    assert huang.hits == 0 and huang.economy.guards == 0
    if ruleset == "af-2.5.4":
        assert [m.dice for m in huang.momentum] == [2]


@pytest.mark.parametrize("ruleset", seeds.DICE_RULESETS)
def test_R4_C1_the_door(ruleset):
    """3 dice 1, 4, 5 with a -1 penalty's Interference 5: the 5 cancels the 4, the other 5
    succeeds and she slips under the door (R4, C1)."""
    enc = seeds.door(ruleset)
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.CHECK, facet="move"))
    flow.add_gm_modifier("The door falls fast", -1)
    assert flow.attack_pools() == (3, 1)
    flow.roll_attack(ScriptedSource(seeds.DOOR))
    v = flow.verdict_now()
    assert v.lands and v.attack.result == 5 and v.attack.wins == (5,)
    enc.apply(flow.op())
    assert "succeeds" in enc.log[-1].text


def test_R1_every_modifier_on_the_defense():
    """A GM modifier, Advantage and Disadvantage on the defense as on the attack (R1, R4)."""
    enc = seeds.alley("af-2.5.4")
    flow = ContestFlow(enc, assemble(enc, "thug", CheckKind.HACK, "huang"))
    flow.choose_defense(_option(flow.plan, DefenseKind.DODGE))
    flow.add_defense_gm_modifier("Wet cobbles", -1)
    assert flow.defense_pools() == (4, 1)
    flow.set_defense_advantage(True, False)
    spec = flow.defense_spec()
    assert spec.advantage and spec.interference == 1
    flow.roll_attack(ScriptedSource(seeds.ALLEY_PUNCH))
    # Huang 1, 2, 4, 5; Interference 6 (explodes: 1) is retried by Advantage: 2.
    flow.roll_defense(ScriptedSource([1, 2, 4, 5, 6, 1, 2]))
    assert flow.defense_roll.advantage and flow.defense_roll.interference_faces == (2, 1)
    record = flow.record()
    assert any(m.gm and m.dice == -1 for m in record.defenses[0].modifiers)
    enc.apply(flow.op())
