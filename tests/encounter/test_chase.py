"""Chase mode in the model (E16, H1-H5): the part, the Ops, the pole, the
stages, vehicles, the exchange end; three exchanges played and undone to the exact start."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.chase.mode import ChaseMode
from afdesk.encounter.chase.ops import (
    AddVehicle,
    ChaseCheck,
    KnockOut,
    ResolveChase,
    RollPursuit,
    SetParticipant,
    SetStage,
    Special,
    SpecialAction,
)
from afdesk.encounter.chase.state import ChaseState, Vehicle, Way
from afdesk.encounter.combatant import Speeds, StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.modes import current_mode, mode_object
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import Play, PlayCards, deal_hands
from afdesk.encounter.reflex import hand_specs
from afdesk.encounter.state import Mode, Phase
from tests.encounter.conftest import CARDS, band, foe, make, start_round


def chase_of(*extra, speeds=None) -> Encounter:
    enc = make(
        band("huang", (0, 0)),
        band("chen", (1, 1), speeds=Speeds(run=3)),
        foe("thug", (5, 5)),
        *extra,
    )
    enc.apply(ChangeMode(Mode.CHASE))
    return enc


def test_the_chase_mode_object_owns_its_part():
    obj = mode_object(Mode.CHASE)
    assert isinstance(obj, ChaseMode) and obj.part is not None and obj.part.name == "chase"
    assert Encounter().chase == ChaseState()


def test_e16_switching_to_chase_makes_everyone_on_the_map_a_participant():
    enc = chase_of()
    assert current_mode(enc).mode is Mode.CHASE
    ps = {p.id: p for p in enc.chase.participants}
    assert set(ps) == {"huang", "chen", "thug"}
    assert all(p.total == 0 and p.way is Way.FOOT for p in ps.values())
    assert ps["chen"].speed == 3 and ps["huang"].speed == 2  # their run speeds
    enc.apply(SetParticipant("thug", total=3, way=Way.RIDING, speed=4))
    thug = enc.chase.participant("thug")
    assert (thug.total, thug.way.facet, thug.speed) == (3, "wilderness", 4)
    assert enc.log[-1].text == "Thug: total 3, riding (wilderness), speed 4"


def _turn(enc, pid, faces, success, margin, interference=False):
    assert enc.actor == pid or enc.actor in {
        x for v in enc.chase.vehicles if v.id == pid for x in (v.commander, v.helm, *v.crew)
    }
    enc.apply(RollPursuit(pid, faces))
    enc.apply(ChaseCheck(pid, success, margin, interference))
    enc.apply(NextTurn())


def test_h3_the_log_reads_like_a_play_report():
    enc = chase_of()
    enc.apply(SetParticipant("huang", total=5))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (2,)))
    assert enc.log[-1].text == "Huang: pursuit die green"
    enc.apply(ChaseCheck("huang", True, 2, facet="agility"))
    assert (
        enc.log[-1].text == "Huang: green, agility success by 2, +4 (speed 2 + margin 2), total 9"
    )
    huang = enc.chase.participant("huang")
    assert (huang.total, huang.score, huang.round_speed) == (9, 4, 2)


def test_h1_h3_reds_bad_colour_interference_and_out():
    enc = chase_of()
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    # Huang: red, red, blue -> 2 special actions, blue is bad: half speed 1, fails by 2: out
    enc.apply(RollPursuit("huang", (6, 6, 4)))
    assert enc.chase.participant("huang").special == 2
    enc.apply(ChaseCheck("huang", False, 2, interference=True))
    h = enc.chase.participant("huang")
    assert h.out and h.total == 0 and h.grit_lost == 2 and h.forced_bad
    assert enc.combatants["huang"].grit == 1
    assert "out of the chase" in enc.log[-1].text and "next pursuit die blue" in enc.log[-1].text
    with pytest.raises(IllegalOp, match="out of the chase"):
        enc.apply(ChaseCheck("huang", True, 1))
    # a special action: hide with two decoys
    with pytest.raises(IllegalOp, match="exactly 2 decoys"):
        enc.apply(SpecialAction("huang", Special.HIDE))
    enc.apply(SpecialAction("huang", Special.HIDE, decoys=((1, 0), (0, 1))))
    assert enc.chase.participant("huang").decoys == 2
    assert enc.combatants["huang"].hidden and enc.combatants["huang"].decoys == ((1, 0), (0, 1))
    enc.apply(NextTurn())
    # it is Chen's turn: Huang cannot roll
    with pytest.raises(IllegalOp, match="Chen's turn"):
        enc.apply(RollPursuit("huang", (1,)))
    with pytest.raises(IllegalOp, match="a red is followed by another pursuit die"):
        enc.apply(RollPursuit("chen", (6,)))
    enc.apply(RollPursuit("chen", (6, 1)))
    # cooperate only with the same or a lower total
    enc.apply(SetParticipant("thug", total=5))
    with pytest.raises(IllegalOp, match="same or lower"):
        enc.apply(SpecialAction("chen", Special.COOPERATE, "thug"))
    enc.apply(SpecialAction("chen", Special.GRANT, "thug"))
    assert enc.chase.participant("thug").extra_die


def test_h3_forced_bad_colour_rolls_nothing_next_round():
    enc = chase_of()
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    _turn(enc, "huang", (5,), False, 2, interference=True)  # blue, half 1 - 2: out
    enc.apply(KnockOut("huang", out=False))
    _turn(enc, "chen", (1,), True, 1)
    _turn(enc, "thug", (2,), True, 1)
    start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    with pytest.raises(IllegalOp, match="without rolling"):
        enc.apply(RollPursuit("huang", (1,)))
    enc.apply(RollPursuit("huang", ()))
    assert enc.chase.participant("huang").colours == ("blue",)


def test_h3_the_pole_and_its_stage():
    enc = chase_of()
    start_round(enc, ["chen", "huang", "opponent:Foes"])
    _turn(enc, "chen", (1,), True, 1)  # green: 3 + 1 = 4
    _turn(enc, "huang", (2,), True, 2)  # green: 2 + 2 = 4, tie: Chen's card is higher
    assert "pole: Chen" not in enc.log[-1].text
    enc.apply(RollPursuit("thug", (4,)))
    enc.apply(ChaseCheck("thug", False, 1))
    assert "pole: Chen (picks 1 stage properties" in NextTurn().describe(enc)
    enc.apply(NextTurn())
    chase = enc.chase
    assert (chase.pole, chase.pole_margin) == ("chen", 1)
    assert all(p.score is None and not p.colours for p in chase.participants)  # new round
    with pytest.raises(IllegalOp, match="picks 1 stage property"):
        enc.apply(SetStage(("steep", "flaming")))
    with pytest.raises(IllegalOp, match="no stage property 'lava'"):
        enc.apply(SetStage(("lava",)))
    enc.apply(SetStage(("treacherous",)))
    assert enc.log[-1].text == "Stage: Treacherous (picked by the pole, Chen)"


def test_h4_stage_effects_are_applied():
    enc = chase_of()
    enc.apply(SetStage(("dangerous", "flaming", "treacherous", "chasm"), override=True))
    enc.apply(SetParticipant("huang", total=6))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (4,)))  # blue: bad
    enc.apply(ChaseCheck("huang", False, 1))  # half speed 1 - 1 = 0: out, gains 0
    h = enc.chase.participant("huang")
    c = enc.combatants["huang"]
    assert h.total == 5  # Treacherous: -1
    assert c.hits == 1 and c.state(StateKind.BURNING).markers == 1  # Dangerous, Flaming
    assert h.teetering  # Chasm on the bad colour
    assert "teeters" in enc.log[-1].text


def test_h5_a_vehicle_moves_by_its_helm_and_its_crew_acts_on_the_commander():
    enc = chase_of(band("lan", (2, 2)))
    enc.apply(AddVehicle(Vehicle("cart", "The cart", commander="chen", helm="lan", speed=4)))
    ids = {p.id for p in enc.chase.participants}
    assert ids == {"huang", "thug", "cart"}
    assert enc.chase.participant("cart").way is Way.VEHICLE
    # H5: only the commander holds reflex; Lan at the helm is dealt no card
    start_round(enc, ["chen", "huang", "opponent:Foes"])
    assert "lan" not in enc.turn.order and enc.reflex.hand_of("lan") is None
    enc.apply(RollPursuit("cart", (1,)))  # Chen (commander) acts for the cart
    enc.apply(ChaseCheck("cart", True, 1))
    assert enc.chase.participant("cart").total == 5
    with pytest.raises(IllegalOp, match="already aboard"):
        enc.apply(AddVehicle(Vehicle("boat", "Boat", commander="lan", helm="lan")))


def test_h3_exchange_end_escape_and_capture():
    enc = chase_of()
    enc.apply(SetParticipant("huang", total=10))
    enc.apply(SetParticipant("chen", total=0))
    enc.apply(SetParticipant("thug", total=8))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    for rnd in range(5):
        if rnd:
            start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
        for pid in enc.turn.order:
            _turn(enc, pid, (1,), True, 1)
    assert enc.turn.phase is Phase.EXCHANGE_END
    with pytest.raises(IllegalOp, match="lower total"):
        enc.apply(ResolveChase((("chen", "thug"), ("huang", ""), ("thug", ""))))
    with pytest.raises(IllegalOp, match="only a participant of another side"):  # H3
        enc.apply(ResolveChase((("huang", "chen"), ("thug", ""))))
    enc.apply(ResolveChase((("huang", ""), ("thug", "chen"), ("chen", ""))))
    res = {p.id: p.result for p in enc.chase.participants}
    assert res == {"huang": "escaped", "thug": "captor", "chen": "captured by thug"}
    assert enc.log[-1].text == "Exchange end: Huang escaped; Thug captures Chen"
    enc.apply(ChangeMode(Mode.BATTLE))
    assert enc.combatants["huang"].area == (0, 0)  # everyone stays where they were


def _play_exchange(enc, inverses, order):
    def do(op):
        inverses.append(enc.apply(op))

    faces = [(1,), (4,), (6, 2), (5,), (3,)]
    k = 0
    for rnd in range(5):
        if rnd == 0:
            specs = hand_specs(enc.roster())
            do(deal_hands(enc, random.Random(k), physical=tuple(s.id for s in specs)))
        used = {c for h in enc.reflex.hands for c in h.played}
        free = [c for c in CARDS if c not in used]
        do(PlayCards(tuple(Play(h, free[i]) for i, h in enumerate(order))))
        while enc.turn.phase is Phase.TURNS:
            pid = enc.actor
            p = enc.chase.participant(pid)
            if p is not None and not p.out:
                f = () if p.forced_bad else faces[k % len(faces)]
                do(RollPursuit(pid, f))
                do(ChaseCheck(pid, k % 3 != 0, 1 + k % 2, interference=k % 5 == 0))
                if enc.chase.participant(pid).special:
                    do(SpecialAction(pid, Special.SCREEN))
            k += 1
            do(NextTurn())
        if rnd < 4 and enc.chase.pole:
            do(SetStage(("difficult",)))


def test_three_exchanges_play_and_undo_to_the_exact_start():
    enc = chase_of()
    start = enc.state()
    inverses = []
    order = ["huang", "chen", "opponent:Foes"]
    for _ in range(3):
        _play_exchange(enc, inverses, order)
        assert enc.turn.phase is Phase.EXCHANGE_END
        totals = {p.id: p.total for p in enc.chase.participants}
        assert any(totals.values())
        inverses.append(
            enc.apply(
                ResolveChase(
                    tuple((pid, "") for pid in [p.id for p in enc.chase.participants if not p.out])
                )
            )
        )
    kinds = {type(e.op).__name__ for e in enc.log}
    assert {"RollPursuit", "ChaseCheck", "SpecialAction", "SetStage", "ResolveChase"} <= kinds
    assert any(p.out for p in enc.chase.participants) or any("grit" in e.text for e in enc.log)
    assert len(enc.log) > 100
    for inv in reversed(inverses):
        enc.apply(inv)
    assert enc.state() == start


def test_h4_steep_uses_the_climb_speed():
    enc = chase_of()
    enc.apply(SetStage(("steep",), override=True))
    start_round(enc, ["chen", "huang", "opponent:Foes"])
    enc.apply(RollPursuit("chen", (1,)))
    enc.apply(ChaseCheck("chen", True, 1))  # climb 1 (not run 3) + margin 1
    assert enc.chase.participant("chen").total == 2
    assert "(speed 1 + margin 1)" in enc.log[-1].text


def test_h4_countdown_rows_fall_on_the_pursuit_die_once_a_round():
    """H4: "each round a pursuit die removes one row of areas on the good colour and two
    rows on the bad colour": one countdown die a round; a second roll before the round
    ends is refused with a sentence that says so, and changes nothing."""
    from afdesk.encounter.chase.ops import RollCountdown, SetCountdown
    from afdesk.encounter.chase.state import Countdown

    enc = chase_of()
    with pytest.raises(IllegalOp, match="no countdown"):
        enc.apply(RollCountdown((1,)))
    enc.apply(SetCountdown(Countdown(exchanges=2, target="the temple", rows=True)))
    assert "within 2 exchange(s)" in enc.log[-1].text
    with pytest.raises(IllegalOp, match="a red is followed"):
        enc.apply(RollCountdown((6,)))
    enc.apply(RollCountdown((2,)))  # green, the good colour: one row (before round 1)
    assert enc.chase.countdown.rows_removed == 1
    before = enc.state()
    with pytest.raises(IllegalOp) as refused:
        enc.apply(RollCountdown((6, 5)))
    text = str(refused.value)
    assert "already rolled this round" in text and "(H4" in text
    assert text[0].isupper() and text.endswith(".")
    assert enc.state() == before
    start_round(enc, ["chen", "huang", "opponent:Foes"])
    with pytest.raises(IllegalOp, match="already rolled this round"):
        enc.apply(RollCountdown((6, 5)))  # round 1 began: still the same roll's round
    for pid in ("chen", "huang", "thug"):
        _turn(enc, pid, (2,), True, 1)
    assert enc.turn.phase is not Phase.TURNS  # the round ended
    enc.apply(RollCountdown((6, 5)))  # red, then blue (bad): two rows
    assert enc.chase.countdown.rows_removed == 3
    assert enc.log[-1].text == "Countdown die red, blue: 2 row(s) of areas fall away (3 in all)"
    with pytest.raises(IllegalOp, match="already rolled this round"):
        enc.apply(RollCountdown((1,)))
