"""Where a character out of the fight fell (the OUT token on the maps): the undo
history's inverses hold the area it left; undone, it is back on the map."""

from __future__ import annotations

from afdesk.encounter.fallen import fell_at, is_out
from afdesk.encounter.history import History
from afdesk.encounter.ops.damage import OUT_NOTE, DecideHarm
from afdesk.encounter.ops.roster import AdjustCounter, PlaceCombatant
from afdesk.storage import samples as sample


def _history():
    enc = sample.build()
    return History(enc), enc


def test_out_of_the_fight_keeps_the_area_it_fell_in():
    history, enc = _history()
    history.push(PlaceCombatant("bandit-1", (6, 5)))
    grit = enc.combatants["bandit-1"].grit
    history.push(AdjustCounter("bandit-1", "hits", grit))
    history.push(DecideHarm("bandit-1", "out"))
    c = enc.combatants["bandit-1"]
    assert c.area is None and is_out(c)
    assert fell_at(history.steps[: history.index])["bandit-1"] == (6, 5)
    history.push(AdjustCounter("bandit-1", "hits", 1))  # touched while out: still (6, 5)
    assert fell_at(history.steps[: history.index])["bandit-1"] == (6, 5)
    history.undo()
    history.undo()
    assert not is_out(enc.combatants["bandit-1"])
    assert enc.combatants["bandit-1"].area == (6, 5)


def test_leaving_over_an_edge_is_not_out():
    enc = sample.build()
    c = enc.combatants["huang"]
    assert not is_out(c)
    assert not is_out(c.replace(area=None, exited="over the north edge (E9)"))
    assert is_out(c.replace(area=None, exited=OUT_NOTE))


def test_a_history_without_outs_places_only_those_it_touched():
    history, _enc = _history()
    assert fell_at(history.steps) == {}
    history.push(PlaceCombatant("gao", (8, 5)))
    assert fell_at(history.steps[: history.index]) == {"gao": (8, 3)}
