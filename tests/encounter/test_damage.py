"""Damage a GM can see: attacks on the sheet with damage, reach and range
(E6, E12), Momentum damage (R12), and the GM's decision when hits reach grit."""

from __future__ import annotations

import pytest

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.damage import default_attack, hits_reach_grit, landed_hits
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.roster import AddCombatant, AdjustCounter
from afdesk.encounter.weapons import Attack
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from afdesk.storage import decode, encode
from tests.encounter.conftest import band, foe, make, start_round

SPEAR = Attack("spear", damage=2, reach=2)
BOW = Attack("bow", damage=1, range=4)
KNIFE = Attack("knife", damage=1)


def duel(gao_at=(5, 4), **kw):
    kw.setdefault("attacks", (KNIFE, SPEAR, BOW))
    enc = make(band("huang", (5, 5), **kw), foe("gao", gao_at, facing=180.0, grit=3))
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def test_the_chosen_attack_gives_reach_and_range_e12():
    enc = duel(gao_at=(5, 3))  # two areas north, in front of Huang (facing 0 = north)
    assert not assemble(enc, "huang", CheckKind.HACK, "gao", weapon="knife").allowed
    plan = assemble(enc, "huang", CheckKind.HACK, "gao", weapon="spear")
    assert plan.allowed and plan.weapon == "spear"
    far = duel(gao_at=(5, 0))  # five areas: the bow's range is 4, up to double with -2
    plan = assemble(far, "huang", CheckKind.AIM, "gao", weapon="bow")
    assert plan.allowed and any(m.key == "range" and m.rule == "E12" for m in plan.modifiers)
    knife = assemble(far, "huang", CheckKind.AIM, "gao", weapon="knife")
    assert not knife.allowed and "knife is not ranged" in knife.reason
    with pytest.raises(IllegalOp, match="no attack named 'axe'"):
        assemble(enc, "huang", CheckKind.HACK, "gao", weapon="axe")


def test_default_attack_fits_the_action():
    huang = duel().combatant("huang")
    assert default_attack(huang, ranged=True) == BOW
    assert default_attack(huang, ranged=False) == KNIFE


def test_a_landed_attack_deals_the_weapons_damage_plus_momentum_r12():
    enc = duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao", weapon="spear"))
    assert flow.hits == 2  # the spear's damage, not a field that defaults to 0
    flow.set_ventures(1)
    flow.roll_attack(ScriptedSource([5, 4, 1, 1]))  # 1 Momentum (R7)
    flow.use_momentum(Role.ATTACKER, "damage", dice=1)
    enc.apply(flow.op())
    assert enc.combatant("gao").hits == 3
    text = enc.log[-1].text
    assert "with the spear" in text and "takes 3 hits (2 damage, Momentum +1, R12)" in text
    assert text.endswith(": hits 3 reach grit 3, the GM decides")
    assert hits_reach_grit(enc.combatant("gao"))


def test_landed_hits_never_below_zero_and_refuse_negative_damage():
    class Use:
        kind, dice = "damage", -1

    assert landed_hits(0, [Use()]) == 0
    assert landed_hits(2, [Use()]) == 1
    with pytest.raises(IllegalOp, match="negative"):
        landed_hits(-1, [])


def test_an_unknown_weapon_in_a_record_is_refused():
    enc = duel()
    flow = ContestFlow(enc, assemble(enc, "huang", CheckKind.HACK, "gao", weapon="spear"))
    flow.roll_attack(ScriptedSource([5, 1]))
    op = flow.op()
    import msgspec

    bad = msgspec.structs.replace(op, record=msgspec.structs.replace(op.record, weapon="axe"))
    with pytest.raises(IllegalOp, match="no attack named 'axe'"):
        enc.apply(bad)


def test_hits_reaching_grit_flag_and_the_gm_decides_with_an_undoable_op():
    enc = duel()
    h = History(enc)
    assert not hits_reach_grit(enc.combatant("gao"))
    with pytest.raises(IllegalOp, match="nothing to decide"):
        enc.apply(DecideHarm("gao", "down"))
    h.push(AdjustCounter("gao", "hits", 3))
    assert hits_reach_grit(enc.combatant("gao"))
    with pytest.raises(IllegalOp, match="not a choice"):
        enc.apply(DecideHarm("gao", "dead"))
    h.push(DecideHarm("gao", "down"))
    gao = enc.combatant("gao")
    assert gao.has(StateKind.DOWN) and not hits_reach_grit(gao)
    assert enc.log[-1].text == "GM decides: Gao is down (E17) (hits 3, grit 3)"
    h.undo()
    assert hits_reach_grit(enc.combatant("gao")) and not enc.combatant("gao").has(StateKind.DOWN)
    h.push(DecideHarm("gao", "nothing"))
    assert not hits_reach_grit(enc.combatant("gao"))
    h.push(AdjustCounter("gao", "hits", 1))  # more hits: the flag is back
    assert hits_reach_grit(enc.combatant("gao"))
    h.push(DecideHarm("gao", "out"))
    gao = enc.combatant("gao")
    assert gao.exited and gao.area is None and not hits_reach_grit(gao)
    h.undo()
    assert enc.combatant("gao").area == (5, 4)


def test_attacks_and_the_decision_survive_a_file_round_trip():
    enc = duel()
    enc.apply(AdjustCounter("gao", "hits", 3))
    enc.apply(DecideHarm("gao", "nothing"))
    again = Encounter.from_state(decode(encode(enc.state())))
    assert again.combatant("huang").attacks == (KNIFE, SPEAR, BOW)
    assert again.combatant("gao").harm_call == 3


def test_an_attack_without_a_name_or_with_negative_damage_is_refused():
    enc = make()
    with pytest.raises(IllegalOp, match="needs a name"):
        enc.apply(AddCombatant(band("a", (1, 1), attacks=(Attack(" "),))))
    with pytest.raises(IllegalOp, match="damage cannot be negative"):
        enc.apply(AddCombatant(band("a", (1, 1), attacks=(Attack("x", damage=-1),))))
    with pytest.raises(IllegalOp, match="two attacks with the same name"):
        enc.apply(AddCombatant(band("a", (1, 1), attacks=(KNIFE, KNIFE))))


def test_attacks_typed_in_the_form_parse_with_defaults_and_clear_errors():
    from afdesk.encounter.weapons import format_attacks, parse_attacks

    assert parse_attacks("spear, 2, 2\n\nbow, 1, 1, 5\nknife, 1") == (
        Attack("spear", 2, 2),
        Attack("bow", 1, 1, 5),
        Attack("knife", 1),
    )
    assert parse_attacks(format_attacks((SPEAR, BOW))) == (SPEAR, BOW)
    with pytest.raises(IllegalOp, match=r"attack line 1 .* should be: name, damage"):
        parse_attacks("spear")
    with pytest.raises(IllegalOp, match="attack line 2: the reach '-1' is not a whole number"):
        parse_attacks("knife, 1\nspear, 2, -1")
    with pytest.raises(IllegalOp, match="attack line 1: an attack needs a name"):
        parse_attacks(", 2")
