"""A scripted two-exchange battle on the sample encounter, read as a play report.

Every die is scripted; every step goes through an Op. At the end: undoing everything gives
back the sample exactly, and replaying the log's Ops on a fresh sample gives the same end.
"""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter import movement, persevere
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind, DefenseKind, Via, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.economy import Screen, TakeAction, UseSnap
from afdesk.encounter.ops.flow import ActHesitated, EndEncounter, NextTurn
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import DealHands, Play, PlayCards
from afdesk.encounter.ops.roster import AddState, AdjustCounter, PlaceCombatant
from afdesk.encounter.ops.zone import ExtendZone, TrimZone
from afdesk.encounter.reflex import FULL_DECK, Card, Suit, hand_specs, shuffled_deck
from afdesk.encounter.registry import decode_hook
from afdesk.encounter.snapshot import EncounterState
from afdesk.encounter.state import Phase
from afdesk.encounter.zone import Edge
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from afdesk.storage import samples as sample

HANDS = ["opponent:Bandits", "huang", "chen", "bao", "lan", "opponent:Archers"]


def s(rank: int) -> Card:
    return Card(rank, Suit.SPADES)


class Table:
    """The GM at the table: applies Ops and keeps every inverse."""

    def __init__(self) -> None:
        self.enc = sample.build()
        self.start = self.enc.state()
        self.inverses = []
        self.ops = []

    def do(self, op):
        self.inverses.append(self.enc.apply(op))
        self.ops.append(op)
        return self.enc.log[-1].text if op.logged else ""

    def refused(self, op, match: str) -> None:
        before = self.enc.state()
        with pytest.raises(IllegalOp, match=match):
            self.enc.apply(op)
        assert self.enc.state() == before

    def play(self, ranks: list[int]) -> None:
        """Type the cards the players hold: spades of these ranks, hand by hand."""
        self.do(PlayCards(tuple(Play(h, s(r)) for h, r in zip(HANDS, ranks, strict=True))))

    def play_free(self) -> None:
        """Type six cards not played yet this exchange, highest first in HANDS order."""
        used = {c for h in self.enc.reflex.hands for c in h.played}
        free = sorted((c for c in FULL_DECK if c not in used), reverse=True)
        self.do(PlayCards(tuple(Play(h, c) for h, c in zip(HANDS, free, strict=False))))

    def contest(self, attacker, action, target, attack, defenses=(), defense=None, **kw):
        plan = assemble(self.enc, attacker, action, target)
        flow = ContestFlow(self.enc, plan)
        for key in kw.get("off", ()):
            flow.set_enabled(key, False)
        flow.decoys = kw.get("decoys", ())
        flow.roll_attack(ScriptedSource(attack))
        if defenses:
            flow.choose_defense(*defenses)
            flow.roll_defense(ScriptedSource(defense))
        for side, kind, faces in kw.get("shifts", ()):
            if flow.shift_exchange.turn is not side:
                flow.pass_turn(flow.shift_exchange.turn)
            flow.spend(side, kind, source=ScriptedSource(faces))
        return plan, flow


def pick(plan, kind, via):
    return next(d for d in plan.defenses if d.kind is kind and d.via is via)


def test_two_exchanges_at_the_river_ford():
    t = Table()
    enc = t.enc

    # Setup: the GM stages the ambush. Gao's bandits have crossed the ford already.
    t.do(PlaceCombatant("gao", (8, 10), 180))
    t.do(PlaceCombatant("bandit-1", (7, 9), 180))
    t.do(PlaceCombatant("bandit-2", (9, 9), 200))

    # Exchange 1. Reflex: the players hold real cards; the GM types them in.
    specs = hand_specs(enc.roster(), physical=HANDS)
    assert [sp.id for sp in specs] == ["huang", "chen", "lan", "bao", *HANDS[:1], HANDS[-1]]
    assert "Exchange 1: reflex dealt" in t.do(DealHands(shuffled_deck(), tuple(specs)))

    # Round 1: the bandits' Ace beats everything; the Archers' 9 goes last.
    t.play([14, 13, 12, 11, 10, 9])
    assert enc.turn.order == (
        "gao",
        "bandit-1",
        "bandit-2",
        "huang",
        "chen",
        "bao",
        "lan",
        "archer",
    )
    assert enc.actor == "gao"

    # Gao hacks at Huang. Huang screens (out of turn) to have a defense now: she parries
    # with it and her guard's dodge cooperates (E4, R11).
    t.do(Screen("huang"))
    plan = assemble(enc, "gao", CheckKind.HACK, "huang")
    assert not plan.behind
    guard = pick(plan, DefenseKind.DODGE, Via.GUARD)
    parry = pick(plan, DefenseKind.PARRY, Via.DEFENSE)
    plan, flow = t.contest(
        "gao",
        CheckKind.HACK,
        "huang",
        attack=[6, 5, 3, 2, 4],
        defenses=(guard, parry),
        # dodge helper: 6,4,1,2 + 5 (explosion), Interference 3; parry: 6,2,1 + 6 + 2,
        # then one Fail retried (the helper's Gain 1) -> 3.
        defense=[6, 4, 1, 2, 5, 3, 6, 2, 1, 6, 2, 3],
    )
    assert flow.verdict_now().stopped  # 6x2 beats 6
    # The losing side spends first (R10): the referee buys Gao two dice, 6 and 4 -> 6x2,
    # equal Result and Gain, so the hack stands.
    assert flow.shift_exchange.turn is Role.ATTACKER
    assert flow.shift_choices(Role.ATTACKER)["add"].p_attack_lands > 0
    flow.spend(Role.ATTACKER, "add", source=ScriptedSource([6, 4]))
    assert not flow.verdict_now().stopped
    flow.pass_turn(Role.ATTACKER)
    flow.spend(Role.DEFENDER, "add", source=ScriptedSource([6, 1]))  # Huang: 6x3
    assert flow.verdict_now().stopped
    flow.pass_turn(Role.DEFENDER)
    flow.pass_turn(Role.ATTACKER)
    assert flow.shift_exchange.done
    assert flow.momentum(Role.ATTACKER) >= 1
    flow.use_momentum(Role.ATTACKER, "marker", "bandit-1", 2, "Gao bellows orders")
    text = t.do(flow.op())
    assert "Bandit Chief Gao hacks at Green-Jade Huang" in text and "stopped" in text
    assert enc.meta.referee_shifts == 2 and enc.combatants["huang"].shifts == 2
    assert enc.combatants["huang"].economy.guards == 0
    assert enc.combatants["bandit-1"].momentum[0].dice == 2

    # Bandit 1 wades in: entering Huang's area is an overlap, and the move ends there.
    t.do(NextTurn())
    reach = movement.reachable(enc, "bandit-1", movement.maneuver_ticks(enc.combatants["bandit-1"]))
    assert reach[(7, 11)].stops
    text = t.do(MoveCombatant("bandit-1", ((7, 9), (7, 10), (7, 11)), 270, maneuver=True))
    assert "into an overlap with Green-Jade Huang" in text

    # Bandit 2 hesitates: it keeps its action for after someone else's turn (E6).
    t.do(NextTurn())
    t.do(TakeAction("bandit-2", ActionKind.HESITATE))

    # Huang's turn: the Screen took her action (E7); she prepares with her snap.
    t.do(NextTurn())
    assert enc.actor == "huang"
    t.refused(TakeAction("huang", ActionKind.DEFEND), "the Screen took it")
    t.do(UseSnap("huang", SnapKind.PREPARE))

    # Bandit 2 acts now, after Huang's turn, at -2.
    assert "hesitated action now (-2, E6)" in t.do(ActHesitated("bandit-2"))
    t.do(MoveCombatant("bandit-2", ((9, 9), (9, 10)), 270, maneuver=True))

    # Chen attacks Bandit 1 from behind its flank: it faces west, Chen stands east of it.
    t.do(NextTurn())
    assert enc.actor == "chen"
    plan = assemble(enc, "chen", CheckKind.HACK, "bandit-1")
    assert plan.behind
    dodge = pick(plan, DefenseKind.DODGE, Via.GUARD)
    assert any(m.key == "flank" and m.dice == -2 for m in dodge.modifiers)
    assert not pick(plan, DefenseKind.PARRY, Via.GUARD).allowed
    # Bandit 1's +2 marker from Gao is used by its next check: the dodge.
    assert any(m.key == "momentum-0" for m in dodge.modifiers)
    plan, flow = t.contest(
        "chen",
        CheckKind.HACK,
        "bandit-1",
        attack=[5, 5, 2],
        defenses=(dodge,),
        defense=[4, 1, 3, 2, 5, 2],
    )
    v = flow.verdict_now()
    assert v.lands
    text = t.do(flow.op())
    assert "Bandit 1 dodges" in text and "against a failed defense, lands" in text
    assert enc.combatants["bandit-1"].momentum == ()  # the marker was used
    t.do(AdjustCounter("bandit-1", "hits", 2))
    t.do(AddState("bandit-1", StateKind.DOWN))

    # Bao defends; Lan gives up her action for a second snap and prepares.
    t.do(NextTurn())
    t.do(TakeAction("bao", ActionKind.DEFEND))
    t.do(NextTurn())
    t.do(TakeAction("lan", ActionKind.SECOND_SNAP))
    t.do(UseSnap("lan", SnapKind.PREPARE))

    # The Archer hides on the crest, two decoys beside it (E6).
    t.do(NextTurn())
    plan, flow = t.contest(
        "archer", CheckKind.HIDE, "", attack=[5, 4, 2], decoys=((11, 1), (13, 1))
    )
    t.do(flow.op())
    assert enc.combatants["archer"].hidden
    t.do(NextTurn())
    assert enc.turn.phase is Phase.CARDS and enc.turn.round == 1

    # Round 2: the Archer slips north off the map: the GM extends the zone instead of
    # letting it exit (E9). The drawn tiles are recorded in the Op.
    t.play_free()
    while enc.actor != "archer":
        t.do(NextTurn())
    assert "grows northwards" in t.do(ExtendZone(Edge.NORTH, ("meadow", "meadow", "meadow")))
    assert enc.zone.size() == (3, 4)
    t.do(MoveCombatant("archer", ((12, 0), (12, -1)), 0, maneuver=True))
    t.do(NextTurn())

    # Round 3: it comes back to the crest.
    t.play_free()
    while enc.actor != "archer":
        t.do(NextTurn())
    t.do(MoveCombatant("archer", ((12, -1), (12, 0)), 180, maneuver=True))
    t.do(NextTurn())

    # Rounds 4 and 5: everyone passes.
    for _ in range(2):
        t.play_free()
        while enc.turn.phase is Phase.TURNS:
            t.do(NextTurn())
    assert enc.turn.phase is Phase.EXCHANGE_END and enc.turn.exchanges_played == 1

    # End of exchange 1: the north row holds nobody, so afdesk proposes trimming it.
    occupied = [c.area for c in enc.roster() if c.on_map]
    assert enc.zone.trim_proposal(occupied) == [Edge.NORTH]
    t.do(TrimZone(Edge.NORTH))
    assert enc.zone.size() == (3, 3)

    # Exchange 2: a fresh deal (virtual hands this time), five quick rounds.
    t.do(DealHands(shuffled_deck(), tuple(hand_specs(enc.roster()))))
    assert enc.turn.exchange == 2
    for _ in range(5):
        plays = tuple(Play(h.id, max(h.cards)) for h in enc.reflex.hands)
        t.do(PlayCards(plays))
        while enc.turn.phase is Phase.TURNS:
            t.do(NextTurn())
    assert enc.turn.phase is Phase.EXCHANGE_END and enc.turn.exchanges_played == 2

    # The fight is over. Two exchanges: everybody perseveres (E15), not strenuous.
    t.do(EndEncounter())
    assert persevere.due(enc) and persevere.modifiers(enc) == ()
    plan = persevere.plan(enc)
    assert {p.id for p in plan} == set(enc.combatants)
    assert all(0 < p.p_pass < 1 for p in plan)
    chen = next(p for p in plan if p.id == "chen")
    assert chen.dice == 4
    faces = {
        "huang": [5, 1],
        "chen": [4, 1, 2, 3],
        "lan": [5, 5],
        "bao": [1, 2],
        "gao": [5, 5, 4],
        "bandit-1": [4, 2],
        "bandit-2": [5, 1],
        "archer": [2, 2],
    }
    script = [f for p in plan for f in faces[p.id]]
    text = t.do(persevere.roll(enc, ScriptedSource(script)))
    assert "Tenacious Chen perseveres" in text  # days since rest 0: any success passes
    assert "Brother Bao is exhausted" in text
    assert enc.combatants["bao"].has(StateKind.EXHAUSTED)

    report = [e.text for e in enc.log]
    assert len(report) == len(t.ops) + len(sample.build().log)

    # Undo everything: exactly the sample again. Replay the Ops: exactly the same end.
    end = enc.state()
    data = msgspec.json.encode(end)
    assert msgspec.json.decode(data, type=EncounterState, dec_hook=decode_hook) == end
    for inv in reversed(t.inverses):
        enc.apply(inv)
    assert enc.state() == t.start
    fresh = Encounter.from_state(t.start)
    for op in t.ops:
        fresh.apply(op)
    assert fresh.state() == end
