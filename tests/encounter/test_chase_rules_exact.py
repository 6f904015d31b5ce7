"""The chase rules as docs/rules.md now words them, through the Ops: vehicles (H5: only the
commander holds reflex, the helm's die moves the vehicle, every participating crew member
checks; crew stay crew across mode changes), the stage (H4: a teeter lasts until the stage
changes, Steep and Fluid take the lower of climb and swim, Obscured gives every attack -2)
and capture only across sides (H3)."""

from __future__ import annotations

import math
import random

import pytest

from afdesk.encounter.chase.ops import (
    AddVehicle,
    ChaseCheck,
    CrewCheck,
    LeaveVehicle,
    ResolveChase,
    RollPursuit,
    SetParticipant,
    SetStage,
    Special,
    SpecialAction,
)
from afdesk.encounter.chase.order import reflex_order
from afdesk.encounter.chase.state import Vehicle
from afdesk.encounter.checks import CheckKind
from afdesk.encounter.combatant import Speeds, StateKind
from afdesk.encounter.contest.assembly import assemble
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import Play, PlayCards, active_hands, deal_hands
from afdesk.encounter.reflex import Card, Suit
from afdesk.encounter.state import Mode, Phase
from afdesk.rules import RulesError, pursuit
from afdesk.rules.dice import RandomSource
from afdesk.rules.pursuit.checks import chase_turn_odds, read_check
from afdesk.rules.rulesets import ruleset_named
from tests.encounter.conftest import band, foe, make, start_round


def crewed() -> Encounter:
    """Chen commands the cart, Lan is at its helm, Mei is its crew; Huang runs on foot; the
    thug chases. Chen, Lan and Mei are band members: in a battle each holds a hand."""
    enc = make(
        band("huang", (0, 0), speeds=Speeds(run=3, climb=2, swim=1)),
        band("chen", (1, 1)),
        band("lan", (2, 2)),
        band("mei", (3, 3)),
        foe("thug", (6, 6)),
    )
    enc.apply(ChangeMode(Mode.CHASE))
    enc.apply(AddVehicle(Vehicle("cart", "The cart", "chen", "lan", ("mei",), speed=4)))
    return enc


def physical_deal(enc: Encounter) -> None:
    op = deal_hands(enc, None, physical=("huang", "chen", "lan", "mei", "opponent:Foes"))
    enc.apply(op)


def test_h5_only_the_commander_is_dealt_reflex():
    enc = crewed()
    op = deal_hands(enc)
    members = {m for h in op.hands for m in h.members}
    assert "chen" in members and not {"lan", "mei"} & members
    physical_deal(enc)
    assert enc.reflex.hand_of("lan") is None and enc.reflex.hand_of("mei") is None
    # the card dialog asks a card of every active hand: not of the helm or the crew
    assert {h.id for h in active_hands(enc)} == {"huang", "chen", "opponent:Foes"}


def test_h5_a_crew_member_plays_no_card_and_the_vehicle_moves_on_its_commanders():
    enc = crewed()
    physical_deal(enc)
    plays = (
        Play("chen", Card(2, Suit.SPADES)),
        Play("huang", Card(13, Suit.HEARTS)),
        Play("opponent:Foes", Card(12, Suit.SPADES)),
    )
    with pytest.raises(IllegalOp, match=r"Mei .* holds no reflex.*\(H5\)"):
        enc.apply(PlayCards((*plays, Play("mei", Card(14, Suit.DIAMONDS)))))
    assert enc.turn.phase is Phase.CARDS  # refused: nothing changed
    enc.apply(PlayCards(plays))
    assert enc.turn.order == ("huang", "thug", "chen")  # no turns of their own (H5)
    assert reflex_order(enc, enc.chase) == ["huang", "thug", "cart"]
    with pytest.raises(IllegalOp, match="it is Huang's turn"):
        enc.apply(RollPursuit("cart", (1,)))
    with pytest.raises(IllegalOp, match=r"Lan is at the helm of The cart, which is the part"):
        enc.apply(RollPursuit("lan", (1,)))
    enc.apply(NextTurn())
    enc.apply(NextTurn())
    assert enc.actor == "chen"  # the commander's card: the cart's turn
    enc.apply(RollPursuit("cart", (2,)))
    enc.apply(ChaseCheck("cart", True, 1))
    assert enc.chase.participant("cart").total == 5


def test_h5_on_the_commanders_card_every_crew_member_checks_and_suffers_the_stage():
    enc = crewed()
    enc.apply(SetStage(("dangerous",)))
    start_round(enc, ["chen", "huang", "opponent:Foes"])
    assert enc.actor == "chen"
    with pytest.raises(IllegalOp, match="rolls the pursuit die before checking"):
        enc.apply(CrewCheck("cart", "mei", True, 1))
    enc.apply(RollPursuit("cart", (5,)))  # blue: the bad colour for the helm and the crew
    # any order: the crew before the helm
    enc.apply(CrewCheck("cart", "mei", False, 2))
    enc.apply(CrewCheck("cart", "chen", False, 1))
    with pytest.raises(IllegalOp, match="the helm's check moves it"):
        enc.apply(CrewCheck("cart", "lan", True, 1))
    enc.apply(ChaseCheck("cart", False, 1))
    c = enc.combatants
    assert (c["mei"].hits, c["chen"].hits, c["lan"].hits) == (2, 1, 1)  # Dangerous (H4)
    assert c["mei"].grit == c["huang"].grit - 2
    assert enc.chase.participant("cart").total == 1  # half of 4 - 1 (H3)
    assert enc.chase.participant("cart").crew_checked == ("mei", "chen")


def test_h5_crew_stay_crew_across_battle_and_back():
    enc = crewed()
    enc.apply(SetParticipant("cart", total=4))
    enc.apply(ChangeMode(Mode.BATTLE))
    # in a battle there are no vehicles' turns: everyone holds a hand
    assert {"lan", "mei"} <= {m for h in deal_hands(enc).hands for m in h.members}
    enc.apply(ChangeMode(Mode.CHASE))
    ids = [p.id for p in enc.chase.participants]
    assert sorted(ids) == ["cart", "huang", "thug"]  # nobody races on foot and aboard
    assert enc.chase.participant("cart").total == 4
    assert enc.chase.vehicles[0].crew == ("mei",)
    assert not {"lan", "mei"} & {m for h in deal_hands(enc).hands for m in h.members}


def _round_of_huang(enc: Encounter, face: int, first: bool) -> None:
    start_round(enc, ["huang", "chen", "opponent:Foes"], deal=first)
    enc.apply(RollPursuit("huang", (face,)))
    enc.apply(ChaseCheck("huang", True, 1))
    while enc.turn.phase is Phase.TURNS:
        enc.apply(NextTurn())


def test_h4_a_teeter_lasts_until_the_stage_changes_blue_green_blue_falls():
    enc = crewed()
    enc.apply(SetStage(("chasm",)))
    _round_of_huang(enc, 4, True)  # blue: teeters
    assert enc.chase.participant("huang").teetering
    _round_of_huang(enc, 1, False)  # green: no teeter, still teetering on this stage
    assert enc.chase.participant("huang").teetering
    _round_of_huang(enc, 5, False)  # blue again: the second teeter falls
    total = enc.chase.participant("huang").total
    falling = enc.combatants["huang"].state(StateKind.FALLING)
    assert falling is not None and falling.markers == total
    assert not enc.chase.participant("huang").teetering
    assert any(f"falls {total} area(s)" in e.text for e in enc.log[-6:])


def test_h4_a_new_stage_ends_the_teeter_the_same_stage_keeps_it():
    enc = crewed()
    enc.apply(SetStage(("chasm",)))
    enc.apply(SetStage(("chasm",), ahead=True))  # the same stage again next round
    enc.apply(SetStage(("steep",), ahead=True))  # then a new one
    _round_of_huang(enc, 4, True)
    assert enc.chase.participant("huang").teetering  # the prepared chasm: same stage
    assert enc.chase.stage == (pursuit.StageProperty.CHASM,)
    _round_of_huang(enc, 1, False)
    assert enc.chase.stage == (pursuit.StageProperty.STEEP,)
    assert not enc.chase.participant("huang").teetering  # the stage changed
    enc.apply(SetStage(("chasm",)))
    _round_of_huang(enc, 4, False)
    assert enc.chase.participant("huang").teetering
    enc.apply(SetStage(("chasm", "dangerous"), override=True))
    assert not enc.chase.participant("huang").teetering


@pytest.mark.parametrize(
    ("stage", "speed"),
    [((), 3), (("steep",), 2), (("fluid",), 1), (("steep", "fluid"), 1)],
)
def test_h4_steep_and_fluid_take_the_lower_of_climb_and_swim(stage, speed):
    enc = crewed()
    if stage:
        enc.apply(SetStage(stage, override=True))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    enc.apply(RollPursuit("huang", (1,)))  # green
    enc.apply(ChaseCheck("huang", True, 1))
    assert enc.chase.participant("huang").round_speed == speed
    assert enc.chase.participant("huang").total == speed + 1


def test_h4_obscured_gives_every_attack_an_extra_minus_two():
    enc = make(
        band("huang", (0, 0), weapon_range=2),
        foe("thug", (4, 0)),
    )
    enc.apply(ChangeMode(Mode.CHASE))

    def mods(kind):
        return {m.key: (m.dice, m.rule) for m in assemble(enc, "huang", kind, "thug").modifiers}

    assert "obscured" not in mods(CheckKind.AIM)
    enc.apply(SetStage(("obscured",)))
    aim = mods(CheckKind.AIM)
    assert aim["obscured"] == (-2, "H4") and aim["range"][0] == -2  # both, not range only
    assert mods(CheckKind.HACK)["obscured"] == (-2, "H4")
    assert "obscured" not in mods(CheckKind.DISTRACT)  # not an attack
    battle = make(band("huang", (0, 0), weapon_range=2), foe("thug", (4, 0)))
    assert "obscured" not in {m.key for m in assemble(battle, "huang", "aim", "thug").modifiers}


def test_h3_capture_takes_only_a_participant_of_another_side():
    with pytest.raises(RulesError, match="another side"):
        pursuit.resolve_exchange_end(
            {"a": 9, "b": 5}, ["a", "b"], {"a": "b", "b": None}, {"a": "band", "b": "band"}
        )
    got = pursuit.resolve_exchange_end(
        {"a": 9, "b": 5}, ["a", "b"], {"a": "b"}, {"a": "band", "b": "opponent"}
    )
    assert got == {"a": "captor", "b": "captured by a"}
    enc = crewed()
    enc.apply(SetParticipant("huang", total=9))
    enc.apply(SetParticipant("cart", total=5))
    enc.apply(SetParticipant("thug", total=2))
    start_round(enc, ["huang", "chen", "opponent:Foes"])
    for _ in range(5):
        while enc.turn.phase is Phase.TURNS:
            enc.apply(NextTurn())
        if enc.turn.phase is Phase.CARDS:
            start_round(enc, ["huang", "chen", "opponent:Foes"], deal=False)
    assert enc.turn.phase is Phase.EXCHANGE_END
    # the cart is the band's (its commander's side, H5): Huang cannot capture it
    with pytest.raises(IllegalOp, match="Huang cannot capture The cart: both are on the band"):
        enc.apply(ResolveChase((("huang", "cart"), ("cart", ""), ("thug", ""))))
    enc.apply(ResolveChase((("huang", ""), ("cart", "thug"))))
    assert enc.chase.participant("thug").result == "captured by cart"


def _round_of_the_cart(enc: Encounter, face: int, first: bool, mei_succeeds: bool) -> None:
    start_round(enc, ["chen", "huang", "opponent:Foes"], deal=first)
    assert enc.actor == "chen"
    enc.apply(RollPursuit("cart", (face,)))
    enc.apply(CrewCheck("cart", "mei", mei_succeeds, 1))
    enc.apply(ChaseCheck("cart", True, 1))
    while enc.turn.phase is Phase.TURNS:
        enc.apply(NextTurn())


def test_h4_h5_a_crew_member_teeters_on_its_own_until_the_stage_changes():
    enc = crewed()
    enc.apply(SetStage(("chasm",)))
    _round_of_the_cart(enc, 4, True, True)  # blue: Mei teeters (the bad colour, H4)
    assert enc.combatants["mei"].has(StateKind.TEETER)
    assert any(e.text.startswith("Mei (The cart's crew) succeeds, teeters") for e in enc.log)
    _round_of_the_cart(enc, 1, False, False)  # green, no Interference: no teeter
    assert enc.combatants["mei"].has(StateKind.TEETER)
    total = enc.chase.participant("cart").total  # before the round: the crew checks first
    _round_of_the_cart(enc, 5, False, True)  # blue again: Mei falls the cart's total
    falling = enc.combatants["mei"].state(StateKind.FALLING)
    assert falling is not None and falling.markers == total > 0
    assert not enc.combatants["mei"].has(StateKind.TEETER)
    _round_of_the_cart(enc, 4, False, True)
    assert enc.combatants["mei"].has(StateKind.TEETER)
    enc.apply(SetStage(("steep",)))  # a new stage ends the teeter (H4)
    assert not enc.combatants["mei"].has(StateKind.TEETER)


def test_h5_crew_are_crew_until_the_gm_takes_them_off_the_vehicle():
    enc = crewed()
    enc.apply(SetParticipant("cart", total=4))
    with pytest.raises(IllegalOp, match="Huang is aboard no vehicle"):
        enc.apply(LeaveVehicle("huang"))
    before = enc.state()
    enc.apply(enc.apply(LeaveVehicle("mei")))  # undone exactly
    assert enc.state().chase == before.chase and enc.state().combatants == before.combatants
    enc.apply(LeaveVehicle("mei"))
    assert enc.log[-1].text == "Mei leaves The cart and runs on (H5)"
    mei = enc.chase.participant("mei")
    assert (mei.total, mei.way.value, mei.speed) == (4, "foot", 2)
    assert enc.chase.vehicles[0].crew == ()
    assert "mei" in {m for h in deal_hands(enc).hands for m in h.members}  # she holds reflex
    enc.apply(ChangeMode(Mode.BATTLE))
    enc.apply(ChangeMode(Mode.CHASE))
    assert enc.chase.participant("mei") is not None  # a runner now, across modes too
    assert "lan" not in {p.id for p in enc.chase.participants}
    enc.apply(LeaveVehicle("lan"))  # the helm: the cart is out, everyone aboard runs on
    assert enc.chase.vehicles == () and enc.chase.participant("cart") is None
    assert enc.chase.participant("lan").total == enc.chase.participant("chen").total == 4


def test_h1_h4_the_odds_shown_are_what_the_ops_do_a_seeded_monte_carlo():
    """An extra pursuit die (a Grant: roll both, keep the better, H1) on a Treacherous stage
    (H4), played through RollPursuit and ChaseCheck and undone each time: the mean change
    of the total and the share of bad colours kept are chase_turn_odds' within 3 SE."""
    enc = crewed()
    enc.apply(SetStage(("treacherous",)))
    enc.apply(SetParticipant("thug", total=3))
    start_round(enc, ["huang", "opponent:Foes", "chen"])
    enc.apply(RollPursuit("huang", (6, 1)))  # a red: one special action
    enc.apply(SpecialAction("huang", Special.GRANT, "thug"))
    enc.apply(NextTurn())
    assert enc.actor == "thug" and enc.chase.participant("thug").extra_die
    rules = ruleset_named(enc.ruleset)
    thug = enc.combatants["thug"]
    score = thug.facet("agility")
    want = chase_turn_odds(rules, 2, score, (), extra_die=True, stage=enc.chase.stage, total=3)
    rng = random.Random(2024)

    def run():
        faces = [rng.randint(1, 6)]
        while faces[-1] == 6:
            faces.append(rng.randint(1, 6))
        return tuple(faces)

    gains, bads = [], []
    for i in range(1500):
        a, b = run(), run()
        good = [pursuit.colour(r[-1]) != "blue" for r in (a, b)]
        chosen = 1 if good[1] and not good[0] else 0
        inv = [enc.apply(RollPursuit("thug", a, other=b, chosen=chosen))]
        bad = enc.chase.participant("thug").colours[-1] == "blue"
        roll = rules.roll_plain(score, (-2,) if bad else (), RandomSource(i))
        r = read_check(rules, roll)
        inv.append(enc.apply(ChaseCheck("thug", r.success, r.margin, r.interference, roll=roll)))
        gains.append(enc.chase.participant("thug").total - 3)
        bads.append(float(bad))
        for op in reversed(inv):
            enc.apply(op)
    for samples, exact in ((gains, want.expected_added), (bads, want.p_bad)):
        mean = math.fsum(samples) / len(samples)
        var = math.fsum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
        assert abs(mean - exact) <= 3 * math.sqrt(var / len(samples)), (mean, exact)
