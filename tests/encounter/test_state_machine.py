"""A GM at the table, as a hypothesis state machine.

The machine runs the sample encounter (or an empty one on a random 3 x 3 zone) with random
Ops the way a GM would: deal and play reflex, take turns, move along the paths the model
offers, snap, act, screen out of turn, resolve contests with seeded dice and Shifts, add
states and markers, grow and trim the zone, exit, end the encounter and persevere. Ops the
model should accept must be accepted; Ops it refuses must raise ``IllegalOp`` with a reason
and change nothing. After every Op the inverse is applied and the Op redone at once, and
at the end the whole history is undone, redone and replayed on a fresh copy (DESIGN: every
change is an Op that returns its exact inverse; the dice are in the Ops).
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from afdesk.encounter import features, movement, persevere
from afdesk.encounter.combatant import (
    MARKED_STATES,
    Combatant,
    Facet,
    Side,
    Speeds,
    StateKind,
    bleeding_hits,
    opposed,
)
from afdesk.encounter.contest.assembly import CheckKind, Via, assemble, combinable
from afdesk.encounter.contest.flow import ContestFlow, leave_overlap_flow
from afdesk.encounter.contest.ops import Persevere, ResolveContest
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area, distance, neighbours, normalise_facing
from afdesk.encounter.model import Encounter, Event, EventKind
from afdesk.encounter.op import Op
from afdesk.encounter.ops.economy import Screen, TakeAction, UseSnap
from afdesk.encounter.ops.flow import ActHesitated, EndEncounter, NextTurn
from afdesk.encounter.ops.meta import (
    AdjustRefereeShifts,
    ChangeMode,
    SetRuleset,
    SetSettings,
)
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import DealHands, PlayCards, active_hands, deal_hands, play_cards
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddMomentum,
    AddState,
    AdjustCounter,
    ExitCombatant,
    PlaceCombatant,
    RemoveCombatant,
    RemoveDecoy,
    RemoveMomentum,
    RemoveState,
    SetDecoys,
    SetFacing,
    SetMarkers,
    TickBleeding,
)
from afdesk.encounter.ops.zone import ExtendZone, TrimZone, draw_extension
from afdesk.encounter.reflex import FULL_DECK, HAND_SIZE, ROUNDS
from afdesk.encounter.registry import AnyOp, decode_hook
from afdesk.encounter.restore import Restore
from afdesk.encounter.snapshot import EncounterState
from afdesk.encounter.state import Mode, Phase, Settings
from afdesk.encounter.zone import Edge, grid_zone
from afdesk.rules import af254, classic, d20
from afdesk.rules.contest import Role
from afdesk.rules.dice import RandomSource
from afdesk.rules.rulesets import ruleset_named
from afdesk.storage import samples as sample
from afdesk.storage.tilesets import tileset

SEEDS = st.integers(0, 2**32 - 1)
FACINGS = st.one_of(
    st.sampled_from([0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0]),
    st.floats(-720.0, 720.0, allow_nan=False, allow_infinity=False),
)
MAX_TILES = 5
"""The machine grows the zone up to this many tiles a side (E9 starts at 3)."""
EXTRA_GROUPS = {
    Side.OPPONENT: ("Bandits", "Archers", "Reinforcements"),
    Side.DENIZEN: ("Herons",),
    Side.FOLLOWER: ("Porters",),
}
"""Groups new characters join: with at most 5 band members the virtual hands stay within
the 52-card deck (E2: 10 hands of 5)."""
MAX_BAND = 5
STATES = (
    StateKind.DOWN,
    StateKind.BLEEDING,
    StateKind.BURNING,
    StateKind.STALL,
    StateKind.SHAKEN,
    StateKind.PREPARED,
    StateKind.EXHAUSTED,
    StateKind.WOUNDED,
    StateKind.FLYING,
)
MAX_ROSTER = 14


# ----------------------------------------------------------------------------- helpers


def empty_encounter(ts: str, kinds: list[list[str]]) -> Encounter:
    return Encounter(zone=grid_zone(tileset(ts), kinds))


def zone_areas(enc: Encounter) -> list[Area]:
    return sorted(a for t in enc.zone.tiles for a in t.areas())


def action_refusal(c: Combatant, kind: str, exchange: int, round_no: int) -> str:
    """Why ``c`` cannot take an action of ``kind`` now (E3, E6, E7, E17), or ""."""
    e = c.economy
    if not e.action:
        return "no action"
    if c.has(StateKind.DOWN) and kind != ActionKind.RECOVER:
        return "down"
    if e.acted_round == (exchange, round_no) and not c.has(StateKind.HESITATING):
        return "already acted this round"
    return ""


def facing_in_range(f: float) -> bool:
    """E11 facings are folded into [0, 360) (normalise_facing)."""
    return 0 <= f < 360


def at_edges(enc: Encounter, area: Area) -> list[Edge]:
    c0, r0, c1, r1 = enc.zone.area_bounds()
    out = []
    if area[1] == r0:
        out.append(Edge.NORTH)
    if area[1] == r1:
        out.append(Edge.SOUTH)
    if area[0] == c0:
        out.append(Edge.WEST)
    if area[0] == c1:
        out.append(Edge.EAST)
    return out


def plain_roll(enc: Encounter, dice: int, seed: int):
    """(roll, d20) of a plain check under the encounter's ruleset."""
    source = RandomSource(seed)
    if enc.ruleset == d20.NAME:
        return None, d20.roll_d20(dice, 10, 0, source=source)
    if enc.ruleset == classic.NAME:
        return classic.roll_check(dice, 0, source=source), None
    return af254.roll_check(dice, 0, source=source), None


def events_expected(before: EncounterState, after: EncounterState) -> set[Event]:
    """The events a change from ``before`` to ``after`` must at least announce."""
    out: set[Event] = set()
    old = {c.id: c for c in before.combatants}
    new = {c.id: c for c in after.combatants}
    for cid in old.keys() | new.keys():
        if old.get(cid) != new.get(cid):
            out.add(Event(EventKind.COMBATANT, cid))
    if tuple(old) != tuple(new):
        out.add(Event(EventKind.ROSTER))
    for part, kind in (
        ("zone", EventKind.ZONE),
        ("reflex", EventKind.REFLEX),
        ("turn", EventKind.TURN),
        ("mode", EventKind.MODE),
        ("settings", EventKind.SETTINGS),
        ("meta", EventKind.META),
        ("log", EventKind.LOG),
    ):
        if getattr(before, part) != getattr(after, part):
            out.add(Event(kind))
    return out


# ------------------------------------------------------------------------------ machine


def _busy(self) -> bool:
    """Rules other than the ones that move play on run at most ``patience`` steps in a
    round (or before a deal), so that every example gets through rounds and exchanges."""
    enc = self.enc
    if enc is None:
        return False
    t = enc.turn
    stuck = (t.phase is Phase.CARDS and not active_hands(enc)) or (
        t.phase in (Phase.SETUP, Phase.EXCHANGE_END)
        and all(c.exited for c in enc.combatants.values())
    )
    return stuck or self.steps - self.progress_at < self.patience


busy = precondition(_busy)


class GameMaster(RuleBasedStateMachine):
    """One encounter, driven by random Ops; every applied Op and its inverse is kept."""

    def __init__(self) -> None:
        super().__init__()
        self.enc: Encounter | None = None
        self.done: list[tuple[Op, Op]] = []
        self.logged = 0
        self.events: list[Event] = []
        self.new_ids = 0
        self.persevered = False
        self.steps = 0
        self.progress_at = 0
        self.patience = 4
        # E1, E6: turns started and actions used in the current round
        self.round_key: tuple[int, int] | None = None
        self.round_turns: set[str] = set()
        self.round_excused: set[str] = set()
        self.actions_used: set[tuple[str, int, int]] = set()
        self.exchanges_begun: set[int] = set()

    # --------------------------------------------------------------------- plumbing

    @initialize(
        start=st.sampled_from(["sample", "sample", "sample", "empty"]),
        ruleset=st.sampled_from(["af-2.5.4", "af-2.5.4", "af-classic", "d20-degrees"]),
        ts=st.sampled_from(["wilderness", "town", "ruins"]),
        kinds=st.lists(st.integers(0, 6), min_size=9, max_size=9),
        patience=st.integers(2, 12),
    )
    def begin(self, start, ruleset, ts, kinds, patience):
        self.patience = patience
        if start == "sample":
            enc = sample.build()
        else:
            ids = [k.id for k in tileset(ts).kinds]
            enc = empty_encounter(
                ts, [[ids[k] for k in kinds[r * 3 : r * 3 + 3]] for r in range(3)]
            )
        if enc.ruleset != ruleset:
            enc.apply(SetRuleset(ruleset))
        self.enc = enc
        self.start = enc.state()
        self.log0 = len(enc.log)
        enc.subscribe(self._listen)

    def _listen(self, events: list[Event]) -> None:
        self.events.extend(events)

    def _apply(self, op: Op) -> tuple[Op | None, str]:
        """Apply ``op``; on IllegalOp check the reason and that nothing changed. An
        applied Op is undone and redone at once (exact inverse, DESIGN)."""
        enc = self.enc
        before = enc.state()
        occ_before = {a: list(ids) for a, ids in enc.occupancy.items()}
        self.events = []
        # the dry run that menus use: silent, changes nothing, agrees with apply
        dry = enc.refusal(op)
        assert enc.state() == before, f"refusal({op!r}) changed the encounter"
        assert enc.occupancy == occ_before and not self.events
        try:
            inverse = enc.apply(op)
        except IllegalOp as exc:
            assert dry == str(exc), f"refusal said {dry!r}, apply said {exc}"
            note(f"refused {type(op).__name__}: {exc}")
            assert str(exc).strip(), f"{op!r} was refused without a reason"
            assert enc.state() == before, f"the refused {op!r} changed the encounter"
            assert enc.occupancy == occ_before, f"the refused {op!r} changed the occupancy"
            assert not self.events, f"the refused {op!r} announced events"
            return None, str(exc)
        assert not dry, f"refusal said {dry!r} but {type(op).__name__} was accepted"
        after = enc.state()
        note(f"applied {type(op).__name__}: {after.log[-1].text if op.logged else ''}")
        missing = events_expected(before, after) - set(self.events)
        assert not missing, f"{op!r} changed {missing} without announcing it"
        # the journal and the log hold the Op: it survives JSON
        assert msgspec.json.decode(msgspec.json.encode(op), type=AnyOp, dec_hook=decode_hook) == op
        assert isinstance(inverse, Restore)
        assert (
            msgspec.json.decode(msgspec.json.encode(inverse), type=AnyOp, dec_hook=decode_hook)
            == inverse
        )
        # undo at once; redo through the undo's own inverse; undo that; redo the Op
        name = type(op).__name__
        redo = enc.apply(inverse)
        assert enc.state() == before, f"undoing {name} did not restore the state"
        undo = enc.apply(redo)
        assert enc.state() == after, f"redoing {name} through the undo's inverse failed"
        enc.apply(undo)
        assert enc.state() == before, f"undoing {name} a second time failed"
        again = enc.apply(op)
        assert enc.state() == after, f"redoing {name} gave another state"
        assert again == inverse, f"redoing {name} gave another inverse"
        self.done.append((op, inverse))
        if op.logged:
            self.logged += 1
        self._track(op, before, after)
        return inverse, ""

    def must(self, op: Op) -> Op:
        """An Op the rules allow: it must be accepted."""
        inverse, why = self._apply(op)
        assert inverse is not None, f"a legal {op!r} was refused: {why}"
        return inverse

    def refused(self, op: Op) -> str:
        """An Op the rules forbid: it must be refused, changing nothing."""
        inverse, why = self._apply(op)
        assert inverse is None, f"an illegal {op!r} was accepted"
        return why

    def expect(self, op: Op, legal: bool) -> Op | None:
        return self.must(op) if legal else (self.refused(op) and None)

    def attempt(self, op: Op) -> Op | None:
        """An Op that may or may not be legal: either outcome is fine."""
        return self._apply(op)[0]

    def _track(self, op: Op, before: EncounterState, after: EncounterState) -> None:
        """E1: everyone in a round's order gets a turn; E6: never two actions a round."""
        bt, at = before.turn, after.turn
        if isinstance(op, PlayCards):
            self.exchanges_begun.add(at.exchange)
        if isinstance(op, Persevere):
            self.persevered = True
        if isinstance(op, (PlayCards, EndEncounter, Persevere)) or (
            isinstance(op, DealHands) and bt.phase is not Phase.CARDS
        ):
            self.progress_at = self.steps
        old = {c.id: c for c in before.combatants}
        for c in after.combatants:
            if c.exited:
                self.round_excused.add(c.id)
            o = old.get(c.id)
            if (
                o is not None
                and o.economy.action
                and not c.economy.action
                and c.economy.action_used not in ("", "down")
            ):
                key = (c.id, *c.economy.acted_round)
                assert key not in self.actions_used, (
                    f"{c.name} took a second action in exchange {key[1]} round {key[2]} (E6)"
                )
                self.actions_used.add(key)
        if isinstance(op, NextTurn) and bt.phase is Phase.TURNS and at.phase is not Phase.TURNS:
            present = {c.id for c in after.combatants if not c.exited}
            skipped = [
                cid
                for cid in bt.order
                if cid in present and cid not in self.round_turns and cid not in self.round_excused
            ]
            assert not skipped, f"round {bt.round} ended without a turn for {skipped} (E1)"
        if at.phase is Phase.TURNS:
            key = (at.exchange, at.round)
            if key != self.round_key:
                self.round_key = key
                self.round_turns = set()
                self.round_excused = {c.id for c in after.combatants if c.exited}
            if not at.interjection and at.actor:
                self.round_turns.add(at.actor)

    # ------------------------------------------------------------------------ views

    def actor(self) -> Combatant | None:
        enc = self.enc
        if enc is None or enc.turn.phase is not Phase.TURNS or not enc.actor:
            return None
        return enc.combatants.get(enc.actor)

    def actor_on_map(self) -> Combatant | None:
        c = self.actor()
        return c if c is not None and c.on_map else None

    def phase(self) -> Phase | None:
        return None if self.enc is None else self.enc.turn.phase

    def draw_id(self, data, ids, label) -> str | None:
        """One of ``ids`` (None if there are none: the rule then does nothing)."""
        ids = sorted(ids)
        return data.draw(st.sampled_from(ids), label=label) if ids else None

    # --------------------------------------------------------------------------- GM

    @busy
    @precondition(lambda self: self.enc is not None)
    @rule(
        data=st.data(),
        what=st.sampled_from(
            [
                "add",
                "place",
                "place outside",
                "remove",
                "exit",
                "exit inside",
                "flee",
                "add state",
                "add state",
                "bleed",
                "momentum",
                "remove state",
                "count",
                "extend",
                "trim",
                "meta",
                "out of place",
                "out of place",
            ]
        ),
    )
    def gm(self, data, what):
        """The GM's bookkeeping: the roster (E1, E9), states and markers (E17, R12), the
        zone (E9), settings and mode (E15, E16), and Ops at the wrong moment."""
        if what in ("add", "place", "place outside", "remove", "exit", "exit inside", "flee"):
            self._roster(data, what)
        elif what in ("add state", "bleed", "momentum", "remove state", "count"):
            self._states(data, {"remove state": "remove"}.get(what, what))
        else:
            {
                "extend": self._extend,
                "trim": self._trim,
                "meta": self._meta,
                "out of place": self._out_of_place,
            }[what](data)

    # ---------------------------------------------------------------- GM: the roster

    def _roster(self, data, what):
        """The GM adds, places, removes characters; they exit over edges (E1, E9)."""
        {
            "add": self._add_character,
            "place": self._place,
            "place outside": self._place_outside,
            "remove": self._remove_character,
            "exit": self._exit_over_edge,
            "exit inside": self._exit_away_from_edge,
            "flee": self._flee,
        }[what](data)

    def _add_character(self, data):
        enc = self.enc
        if len(enc.combatants) >= MAX_ROSTER:
            return
        side = data.draw(st.sampled_from(list(Side)), label="side")
        if side is Side.BAND and sum(c.side is Side.BAND for c in enc.roster()) >= MAX_BAND:
            side = Side.OPPONENT
        group = ""
        if side in EXTRA_GROUPS:
            group = data.draw(st.sampled_from(EXTRA_GROUPS[side]), label="group")
        area = data.draw(st.none() | st.sampled_from(zone_areas(enc)), label="area")
        self.new_ids += 1
        cid = f"new-{self.new_ids}"
        scores = data.draw(st.lists(st.integers(0, 4), min_size=7, max_size=7), label="facets")
        names = ("fight", "move", "strength", "perform", "influence", "sneak", "study")
        run, climb, swim = data.draw(
            st.tuples(st.integers(1, 4), st.integers(0, 1), st.integers(0, 2)), label="speeds"
        )
        grit, shifts = data.draw(st.tuples(st.integers(0, 4), st.integers(0, 3)), label="grit")
        facing = data.draw(FACINGS, label="facing")
        c = Combatant(
            cid,
            f"Newcomer {self.new_ids}",
            side,
            group=group,
            area=area,
            facing=facing,
            facets=tuple(Facet(n, v) for n, v in zip(names, scores, strict=True)),
            speeds=Speeds(run=run, climb=climb, swim=swim),
            reach=data.draw(st.integers(1, 2), label="reach"),
            grit=grit,
            grit_max=max(grit, 1),
            shifts=shifts,
        )
        self.must(AddCombatant(c))
        added = enc.combatant(cid)
        assert added.area == area and facing_in_range(added.facing)
        if enc.reflex.hands and side is not Side.BAND:
            hand = enc.reflex.hand_of(cid)
            assert hand is None or hand.id == f"{side.value}:{group or side.value}"
        self.refused(AddCombatant(c))  # the id is taken now

    def _place(self, data):
        """The GM puts a character anywhere in the zone (setup, or an override)."""
        enc = self.enc
        cid = self.draw_id(data, enc.combatants, "who")
        if cid is None:
            return
        area = data.draw(st.sampled_from(zone_areas(enc)), label="area")
        facing = data.draw(st.none() | FACINGS, label="facing")
        self.must(PlaceCombatant(cid, area, facing))
        c = enc.combatant(cid)
        assert c.area == area and not c.exited

    def _place_outside(self, data):
        enc = self.enc
        cid = self.draw_id(data, enc.combatants, "who")
        area = data.draw(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), label="area")
        if cid is None or enc.zone.contains(area):
            return
        self.refused(PlaceCombatant(cid, area))

    def _remove_character(self, data):
        enc = self.enc
        if len(enc.combatants) <= 4:
            return
        t = enc.turn
        ids = list(enc.combatants)
        if t.phase is Phase.TURNS and data.draw(st.booleans(), label="from the round"):
            ids = [cid for cid in t.order if cid in enc.combatants]
        cid = self.draw_id(data, ids, "who")
        self.expect(RemoveCombatant(cid), legal=cid != enc.actor)
        if cid != enc.actor:
            assert cid not in enc.turn.order
            assert all(cid not in h.members for h in enc.reflex.hands)

    def _exit_over_edge(self, data):
        """A character at an edge that exits the encounter leaves over it (E9)."""
        enc = self.enc
        ready = [c.id for c in enc.roster() if c.on_map and at_edges(enc, c.area)]
        cid = self.draw_id(data, ready, "who")
        if cid is None:
            return
        c = enc.combatant(cid)
        edge = data.draw(st.sampled_from(at_edges(enc, c.area)), label="edge")
        override = False
        if not enc.zone.edge_rule(edge).exits:
            # E9: moving off this edge adds tiles; leaving is a GM override
            self.refused(ExitCombatant(cid, edge))
            override = data.draw(st.booleans(), label="override")
            if not override:
                return
        self.must(ExitCombatant(cid, edge, override=override))
        c = enc.combatant(cid)
        assert c.exited and c.area is None and not c.decoys and not c.on_map
        assert all(cid not in ids for ids in enc.occupancy.values())

    def _flee(self, data):
        """The GM moves a character to an edge that exits and lets it leave (E9)."""
        enc = self.enc
        cid = self.draw_id(data, [c.id for c in enc.roster() if c.on_map], "who")
        edges = [e for e in Edge if enc.zone.edge_rule(e).exits]
        if cid is None or not edges:
            return
        edge = data.draw(st.sampled_from(edges), label="edge")
        spots = sorted(
            enc.zone.line_areas(edge) & {a for a in zone_areas(enc) if edge in at_edges(enc, a)}
        )
        self.must(PlaceCombatant(cid, data.draw(st.sampled_from(spots), label="at")))
        self.must(ExitCombatant(cid, edge))
        assert enc.combatant(cid).exited

    def _exit_away_from_edge(self, data):
        enc = self.enc
        inner = [c.id for c in enc.roster() if c.on_map and not at_edges(enc, c.area)]
        cid = self.draw_id(data, inner, "who")
        if cid is None:
            return
        self.refused(ExitCombatant(cid, data.draw(st.sampled_from(list(Edge)), label="edge")))

    @busy
    @precondition(lambda self: self.actor() is not None)
    @rule(kind=st.sampled_from([StateKind.DOWN, StateKind.STALL]))
    def actor_goes_down(self, kind):
        """A blow knocks the actor down (or stalls it): E17 down takes the action until
        Recover (or a snap to stand), E14 stall gives -2 until recovered."""
        c = self.actor()
        self.must(AddState(c.id, kind))
        t = self.enc.turn
        if kind is StateKind.DOWN and c.economy.action and not c.exited:
            self.refused(TakeAction(c.id, ActionKind.DEFEND))
            self.refused(TakeAction(c.id, ActionKind.MANEUVER))
            assert movement.maneuver_ticks(self.enc.combatant(c.id)) == 0, "E17: speed 0"
            assert not action_refusal(
                self.enc.combatant(c.id), ActionKind.RECOVER, t.exchange, t.round
            )

    @busy
    @precondition(lambda self: self.actor_on_map() is not None)
    @rule(data=st.data(), facing=st.none() | FACINGS)
    def bring_foe_close(self, data, facing):
        """The GM puts someone next to (or onto) the actor: contests and overlaps."""
        enc = self.enc
        actor = self.actor_on_map()
        others = [c for c in enc.roster() if c.id != actor.id]
        foes = [c.id for c in others if opposed(c.side, actor.side)]
        cid = self.draw_id(data, foes or [c.id for c in others], "who")
        if cid is None:
            return
        if data.draw(st.booleans(), label="move the actor instead") and enc.combatant(cid).on_map:
            # the GM drops the actor onto (or next to) the other character
            there = enc.combatant(cid).area
            spots = [a for a in (there, *neighbours(there)) if enc.zone.contains(a)]
            cid = actor.id
        else:
            spots = [a for a in (actor.area, *neighbours(actor.area)) if enc.zone.contains(a)]
        self.must(PlaceCombatant(cid, data.draw(st.sampled_from(spots), label="area"), facing))

    # ------------------------------------------------------------------------ reflex

    @precondition(
        lambda self: (
            self.phase() in (Phase.SETUP, Phase.EXCHANGE_END)
            and not all(c.exited for c in self.enc.combatants.values())
        )
    )
    @rule(seed=SEEDS)
    def deal(self, seed):
        """E1, E2: deal 5 cards to every hand at setup and at each exchange's end (or
        deal again before the first card of an exchange is played)."""
        enc = self.enc
        t = enc.turn
        op = deal_hands(enc, random.Random(seed))
        can = t.phase in (Phase.SETUP, Phase.EXCHANGE_END) or (
            t.phase is Phase.CARDS and t.round == 0
        )
        present = [c for c in enc.roster() if not c.exited]
        self.expect(op, legal=can and bool(present))
        if can and present:
            t2 = enc.turn
            assert t2.phase is Phase.CARDS and t2.round == 0
            assert t2.exchange == (t.exchange if t.phase is Phase.CARDS else t.exchange + 1)
            held = list(enc.reflex.hands)
            assert all(len(h.cards) == HAND_SIZE and not h.played for h in held)
            members = sorted(m for h in held for m in h.members)
            assert members == sorted(c.id for c in present)

    @busy
    @precondition(lambda self: self.phase() is Phase.CARDS and self.enc.turn.round == 0)
    @rule(seed=SEEDS)
    def deal_again(self, seed):
        """E2: before the first card of an exchange the GM may deal again."""
        self.deal(seed)

    @precondition(lambda self: self.phase() is Phase.CARDS)
    @rule(seed=SEEDS)
    def play(self, seed):
        """E2: every active hand plays a card; the highest acts first."""
        enc = self.enc
        t = enc.turn
        hands = active_hands(enc)
        # E2: every round each hand plays a card; the GM can always go on to the next round
        op = play_cards(enc, rng=random.Random(seed))
        self.expect(op, legal=bool(hands) and t.round < ROUNDS)
        if not hands:
            return
        t2 = enc.turn
        assert t2.phase is Phase.TURNS and t2.round == t.round + 1 and t2.index == 0
        cards = {m: h.played[-1] for h in enc.reflex.hands for m in h.members if h.played}
        keys = [cards[cid].key for cid in t2.order]
        assert keys == sorted(keys, reverse=True), "the highest card acts first (E2)"
        first = enc.combatant(t2.order[0])
        assert first.economy.guards >= 1 and first.economy.snaps == 1

    @precondition(lambda self: self.phase() is Phase.TURNS)
    @rule()
    def next_turn(self):
        """E3: the turn ends, the next in reflex order starts; after the last turn the
        round ends, after round 5 the exchange (E1)."""
        enc = self.enc
        t = enc.turn
        self.must(NextTurn())
        t2 = enc.turn
        ended = enc.combatant(t.actor)
        assert ended.economy.snaps == 0 and ended.economy.movement == 0, "E5: snaps end"
        keeps = ended.has(StateKind.HESITATING) and not t.interjection
        assert ended.economy.action == (keeps and ended.economy.action), "E6: actions end"
        if t2.phase is Phase.TURNS:
            c = enc.combatant(t2.actor)
            assert t2.round == t.round and not c.exited
            assert c.economy.snaps == 1 and c.economy.guards == 1, "E3: guard and snap reset"
        elif t.round >= ROUNDS:
            assert t2.phase is Phase.EXCHANGE_END
            assert t2.exchanges_played == t.exchanges_played + 1
        else:
            assert t2.phase is Phase.CARDS and t2.round == t.round

    @precondition(lambda self: self.phase() is Phase.TURNS)
    @rule()
    def rest_of_round(self):
        """The GM clicks through the remaining turns of the round (E1)."""
        t = self.enc.turn
        for _ in range(len(t.order) + 1):
            if self.enc.turn.phase is not Phase.TURNS:
                break
            self.next_turn()
        assert self.enc.turn.phase is not Phase.TURNS

    @precondition(lambda self: self.phase() is Phase.EXCHANGE_END)
    @rule(data=st.data())
    def end_of_exchange(self, data):
        """E9, E16: at the exchange's end, trim the zone as proposed and maybe change mode."""
        enc = self.enc
        occupied = [c.area for c in enc.roster() if c.on_map]
        occupied += [d for c in enc.roster() for d in c.decoys]
        for edge in enc.zone.trim_proposal(occupied):
            self.must(TrimZone(edge))
        mode = data.draw(st.sampled_from(list(Mode)), label="mode")
        self.expect(ChangeMode(mode), legal=mode is not enc.mode)
        assert enc.mode is mode

    # -------------------------------------------------------------------- the actor

    @busy
    @precondition(lambda self: self.actor_on_map() is not None)
    @rule(data=st.data(), facing=FACINGS)
    def move(self, data, facing):
        """E14: the actor moves along a path ``reachable`` offers; with no movement left
        and the action free, the move starts with a Maneuver."""
        enc = self.enc
        c = self.actor_on_map()
        t = enc.turn
        assert all(distance(a, c.area) == 1 for a in c.economy.exit_to or ()), "E14"
        try:
            movement.exit_limits(enc, c)
        except IllegalOp:
            # in an overlap: leaving needs the move check first (E14)
            out = [a for a in neighbours(c.area) if enc.zone.contains(a)]
            step = data.draw(st.sampled_from(out), label="step")
            self.refused(MoveCombatant(c.id, (c.area, step), facing, c.economy.movement <= 0))
            return
        maneuver = c.economy.movement <= 0
        assert movement.available(c) == (
            (movement.maneuver_ticks(c), True) if maneuver else (c.economy.movement, False)
        )
        if maneuver:
            if action_refusal(c, ActionKind.MANEUVER, t.exchange, t.round):
                # no movement and no action: any move is refused
                out = [a for a in neighbours(c.area) if enc.zone.contains(a)]
                step = data.draw(st.sampled_from(out), label="step")
                self.refused(MoveCombatant(c.id, (c.area, step), facing, True))
                self.refused(MoveCombatant(c.id, (c.area, step), facing, False))
                return
            budget = movement.maneuver_ticks(c)
        else:
            budget = c.economy.movement
        steps = movement.reachable(enc, c.id, budget)
        dests = sorted(a for a in steps if a != c.area)
        if not dests:
            return
        dest = data.draw(st.sampled_from(dests), label="to")
        path = movement.path_to(steps, dest)
        assert path[0] == c.area and path[-1] == dest
        assert movement.path_cost(enc, c, path) == steps[dest].cost <= budget
        self.must(MoveCombatant(c.id, tuple(path), facing, maneuver))
        moved = enc.combatant(c.id)
        assert moved.area == dest
        if enc.opponents_in(dest, moved) or c.economy.exit_to is not None:
            assert moved.economy.movement == 0, "an overlap ends the move (E14)"
        else:
            assert moved.economy.movement == budget - steps[dest].cost
        if maneuver:
            assert moved.economy.action_used == ActionKind.MANEUVER
            assert not moved.economy.action

    @busy
    @precondition(lambda self: self.actor_on_map() is not None)
    @rule(data=st.data(), facing=FACINGS)
    def move_too_far(self, data, facing):
        """Any path to an area ``reachable`` does not offer is refused (E14)."""
        enc = self.enc
        c = self.actor_on_map()
        try:
            steps = movement.reachable(enc, c.id)
        except IllegalOp:
            return
        far = sorted(a for a in zone_areas(enc) if a not in steps)
        if not far:
            return
        dest = data.draw(st.sampled_from(far), label="to")
        path = [c.area]
        while path[-1] != dest:
            (x, y), (tx, ty) = path[-1], dest
            path.append((x + (tx > x) - (tx < x), y + (ty > y) - (ty < y)))
        self.refused(MoveCombatant(c.id, tuple(path), facing))

    @busy
    @precondition(lambda self: self.enc is not None and self.enc.combatants)
    @rule(data=st.data(), facing=FACINGS, override=st.booleans())
    def face(self, data, facing, override):
        """E11: the actor picks any facing; anyone else needs an override in turns."""
        enc = self.enc
        cid = self.draw_id(data, enc.combatants, "who")
        c = enc.combatant(cid)
        legal = c.on_map and (enc.turn.phase is not Phase.TURNS or override or cid == enc.actor)
        self.expect(SetFacing(cid, facing, override), legal)
        if legal:
            assert enc.combatant(cid).facing == normalise_facing(facing)

    @busy
    @precondition(lambda self: self.actor() is not None)
    @rule(
        # every snap that is not a contest, as its row declares it (E5, E17): a new row is
        # played here with no change to this test
        kind=st.sampled_from(
            [k for k, r in features.SNAPS.items() if r.check not in ("distract", "look")]
        ),
        seed=SEEDS,
    )
    def snap(self, kind, seed):
        """E5: one snap a turn (two after giving up the action)."""
        enc = self.enc
        c = self.actor()
        row = features.snap_row(kind)
        legal = c.economy.snaps >= 1 and not c.exited
        if legal and row.requires is not None:
            legal = not row.requires(enc, c)  # cover, down, hidden: the row's reason
        roll = d20_roll = None
        if row.check in ("hustle", "creep"):
            roll, d20_roll = plain_roll(enc, c.facet(CheckKind(row.check).spec.facet), seed)
        self.expect(UseSnap(c.id, kind, roll, d20_roll), legal)
        if not legal:
            return
        after = enc.combatant(c.id)
        assert after.economy.snaps == c.economy.snaps - 1
        if row.grants:
            st = after.state(row.grants)
            assert st is not None and st.until == c.economy.turns + row.lasts, "E5: the row"
        if kind == SnapKind.STAND:
            assert not after.has(StateKind.DOWN)
        if kind == SnapKind.HUSTLE:
            from afdesk.encounter.ops.economy import check_succeeded

            gain = after.economy.movement - c.economy.movement
            if check_succeeded(enc, roll, d20_roll) and not c.has(StateKind.DOWN):
                # E5: half the speed in areas, rounded down; at least 1 after a Maneuver
                areas = c.speeds.run // 2
                if c.economy.action_used == ActionKind.MANEUVER:
                    areas = max(areas, 1)
                assert movement.as_areas(c, gain) == areas, "E5: Hustle"
            else:
                assert gain == 0, "E5, E17: a failed Hustle, or down (speed 0)"

    @busy
    @precondition(lambda self: self.actor() is not None)
    @rule(
        # every action that is neither a check nor its own Op, as its row declares it (E6):
        # a new row is played here with no change to this test
        kind=st.sampled_from([k for k, r in features.ACTIONS.items() if not (r.check or r.own_op)])
    )
    def action(self, kind):
        """E6: one action a turn; down loses it until Recover (E17)."""
        enc = self.enc
        c = self.actor()
        t = enc.turn
        row = features.action_row(kind)
        legal = not action_refusal(c, kind, t.exchange, t.round) and not c.exited
        if legal and row.requires is not None:
            legal = not row.requires(enc, c)  # Recover needs down or stall; no re-hesitating
        self.expect(TakeAction(c.id, kind), legal)
        if not legal:
            return
        after = enc.combatant(c.id)
        if not row.spends:  # Hesitate keeps the action (E6)
            assert after.economy.action
        else:
            assert not after.economy.action
            assert after.economy.acted_round == (t.exchange, t.round)
        if row.grants:
            st = after.state(row.grants)
            until = None if row.lasts is None else after.economy.turns + row.lasts
            assert st is not None and st.until == until
        assert after.economy.guards == c.economy.guards + row.guards, "E6: Defend adds a guard"
        assert after.economy.snaps == c.economy.snaps + row.snaps, "E5: a second snap"
        assert not any(after.has(k) for k in row.removes), "E17: Recover"

    @busy
    @precondition(lambda self: self.actor() is not None)
    @rule(kind=st.sampled_from([k for k, r in features.ACTIONS.items() if r.check or r.own_op]))
    def action_needing_its_own_op(self, kind):
        """Attack and Hide are checks (ResolveContest), Screen is its own Op (E6, E7)."""
        self.refused(TakeAction(self.actor().id, kind))

    @busy
    @precondition(lambda self: self.phase() is Phase.TURNS)
    @rule(data=st.data())
    def screen(self, data):
        """E7: abort the next action for defenses now (on the own turn: this action)."""
        enc = self.enc
        cid = self.draw_id(data, enc.combatants, "who")
        c = enc.combatant(cid)
        t = enc.turn
        own = t.actor == cid and c.economy.action
        # E7: a held hesitated action is the next action it would take: Screen aborts it.
        held = not own and c.has(StateKind.HESITATING) and c.economy.action
        if c.has(StateKind.SCREENING) or c.exited:
            legal = False
        elif own or held:
            legal = not action_refusal(c, ActionKind.SCREEN, t.exchange, t.round)
        else:
            legal = not c.economy.lose_next_action
        self.expect(Screen(cid), legal)
        if legal:
            after = enc.combatant(cid)
            assert features.has_defenses(after)
            if held:
                assert not after.economy.action and not after.has(StateKind.HESITATING)
                assert not after.economy.lose_next_action
            else:
                assert own or after.economy.lose_next_action

    @busy
    @precondition(lambda self: self.phase() is Phase.TURNS)
    @rule(data=st.data())
    def act_hesitated(self, data):
        """E6: a hesitating character acts directly after another character's turn."""
        enc = self.enc
        cid = self.draw_id(data, enc.combatants, "who")
        c = enc.combatant(cid)
        t = enc.turn
        legal = (
            c.has(StateKind.HESITATING)
            and c.economy.action
            and not t.interjection
            and t.actor != cid
            and not c.exited
        )
        self.expect(ActHesitated(cid), legal)
        if legal:
            assert enc.actor == cid

    # ---------------------------------------------------------------------- contests

    def _run_flow(self, data, flow: ContestFlow, seed: int) -> None:
        """Choose, roll, defend, spend Shifts and Momentum, as the dialog would."""
        enc = self.enc
        plain = enc.ruleset == d20.NAME
        if data.draw(st.booleans(), label="GM modifier"):
            flow.add_gm_modifier("GM", data.draw(st.sampled_from([2, -2, 1, -1])), "test")
        if not plain and data.draw(st.booleans(), label="venture"):
            try:
                flow.set_ventures(data.draw(st.integers(0, 3), label="ventures"))
            except IllegalOp as exc:
                assert str(exc)
        flow.roll_attack(RandomSource(seed))
        usable = flow.plan.usable_defenses()
        if not plain and usable and flow.attack_succeeded():
            choices: list[tuple] = [()]
            choices += [(o,) for o in usable]
            choices += [
                (g, d)
                for g in usable
                for d in usable
                if g.via is Via.GUARD and d.via is not Via.GUARD and not combinable(g, d)
            ]
            pick = data.draw(st.sampled_from(choices), label="defense")
            if pick:
                flow.choose_defense(*pick)
                flow.roll_defense(RandomSource(seed + 1))
        if not plain:
            for i in range(data.draw(st.integers(0, 4), label="shift rounds")):
                if flow.shift_exchange.done:
                    break
                side = flow.shift_exchange.turn
                own = flow.attack if side is Role.ATTACKER else flow.defense_roll
                if own is not None and flow.shifts_left(side) > 0 and data.draw(st.booleans()):
                    kind = "will" if enc.ruleset == classic.NAME else None
                    kind = kind or data.draw(st.sampled_from(["add", "retry"]), label="shift")
                    try:
                        flow.spend(side, kind, source=RandomSource(seed + 2 + i))
                    except IllegalOp as exc:
                        assert str(exc)
                        flow.pass_turn(side)
                else:
                    flow.pass_turn(side)
        ids = sorted(enc.combatants)
        for side in (Role.ATTACKER, Role.DEFENDER):
            for _ in range(data.draw(st.integers(0, flow.momentum(side)), label="momentum")):
                target = data.draw(st.sampled_from(ids), label="marker on")
                n = ruleset_named(enc.ruleset).momentum_marker  # R12: 2; C3: 1
                flow.use_momentum(side, "marker", target, data.draw(st.sampled_from([n, -n])))

    def _check_contest(self, flow: ContestFlow, op: ResolveContest, before: EncounterState):
        """What a resolved contest must have paid (E4, R10)."""
        enc = self.enc
        old = {c.id: c for c in before.combatants}
        paid: dict[str, int] = {}
        for s in op.record.spends:
            paid[s.payer] = paid.get(s.payer, 0) + 1
        for payer, n in paid.items():
            if payer == "referee":
                assert enc.meta.referee_shifts == before.meta.referee_shifts - n
            elif enc.ruleset == classic.NAME:
                assert enc.combatant(payer).will == old[payer].will - n
            else:
                assert enc.combatant(payer).shifts == old[payer].shifts - n
        guards_used: dict[str, int] = {}
        for d in op.record.defenses:
            for use in (d, d.helper):
                if use is not None and use.via is Via.GUARD:
                    guards_used[use.defender] = guards_used.get(use.defender, 0) + 1
        for cid, n in guards_used.items():
            assert enc.combatant(cid).economy.guards == old[cid].economy.guards - n, "E4"
        a = enc.combatant(op.record.attacker)
        if op.record.uses == "action":
            t = enc.turn
            assert not a.economy.action and a.economy.acted_round == (t.exchange, t.round)
        elif op.record.uses == "snap":
            assert a.economy.snaps == old[a.id].economy.snaps - 1

    @busy
    @precondition(lambda self: self.actor_on_map() is not None)
    @rule(
        data=st.data(),
        action=st.sampled_from(
            [
                CheckKind.HACK,
                CheckKind.HACK,
                CheckKind.HACK,
                CheckKind.AIM,
                CheckKind.TAUNT,
                CheckKind.CONVINCE,
                CheckKind.DISTRACT,
                CheckKind.LOOK,
                CheckKind.HIDE,
            ]
        ),
        near=st.sampled_from([True, True, True, False]),
        seed=SEEDS,
    )
    def contest(self, data, action, near, seed):
        """E4-E8, E12, E13, R9-R12: the actor's check, contested through ContestFlow."""
        enc = self.enc
        c = self.actor_on_map()
        t = enc.turn
        target = ""
        if action is not CheckKind.HIDE:
            others = [o for o in enc.roster() if o.id != c.id and o.on_map]
            close = [
                o
                for o in others
                if opposed(o.side, c.side) and distance(o.area, c.area) <= max(c.reach, 1)
            ]
            foes = [o.id for o in enc.roster() if o.id != c.id and opposed(o.side, c.side)]
            if near and not close and foes:
                # the GM brings an opponent next to (or onto) the actor first
                foe = self.draw_id(data, foes, "opponent")
                spots = [a for a in (c.area, *neighbours(c.area)) if enc.zone.contains(a)]
                self.must(PlaceCombatant(foe, data.draw(st.sampled_from(spots), label="at")))
                c = enc.combatant(c.id)
                close = [enc.combatant(foe)]
            if action is CheckKind.LOOK:
                close = [o for o in others if o.hidden] or close
            pool = close if near and close else others
            target = self.draw_id(data, [o.id for o in pool], "target")
            if target is None:
                return
        plan = assemble(enc, c.id, action, target)
        if not plan.allowed:
            assert plan.reason
            with pytest.raises(IllegalOp, match=r"\w"):
                ContestFlow(enc, plan)
            return
        flow = ContestFlow(enc, plan)
        self._run_flow(data, flow, seed)
        if action is CheckKind.HIDE:
            spots = [a for a in neighbours(c.area) if enc.zone.contains(a)]
            n = min(2, len(spots))  # Hide places exactly two, fewer only if fewer fit (E6)
            flow.decoys = tuple(
                data.draw(
                    st.lists(st.sampled_from(spots), min_size=n, max_size=n, unique=True),
                    label="decoys",
                )
            )
        if action is CheckKind.LOOK:
            decoys = enc.combatant(target).decoys
            flow.decoy = (
                data.draw(st.none() | st.sampled_from(decoys), label="decoy") if (decoys) else None
            )
        op = flow.op()
        if op.record.uses == "action":
            legal = not action_refusal(c, str(action), t.exchange, t.round)
        else:
            legal = c.economy.snaps >= 1
        before = enc.state()
        self.expect(op, legal)
        if legal:
            self._check_contest(flow, op, before)
            v = op.record.verdict(enc.ruleset)
            if action is CheckKind.HIDE and v.lands:
                after = enc.combatant(c.id)
                assert after.hidden and len(after.decoys) == len(flow.decoys)

    @busy
    @precondition(lambda self: self.actor_on_map() is not None)
    @rule(data=st.data(), seed=SEEDS)
    def leave_overlap(self, data, seed):
        """E14: leaving an overlap needs a move check each opponent there may contest."""
        enc = self.enc
        c = self.actor_on_map()
        foes = enc.opponents_in(c.area, c)
        if not foes or c.economy.exit_free or c.economy.exit_to is not None:
            return
        foe = self.draw_id(data, [f.id for f in foes], "opponent")
        flow = leave_overlap_flow(enc, c.id, foe)
        self._run_flow(data, flow, seed)
        op = flow.op()
        before = enc.state()
        self.must(op)
        self._check_contest(flow, op, before)
        after = enc.combatant(c.id)
        v = op.record.verdict(enc.ruleset)
        if after.economy.exit_free:
            assert v.succeeds and not v.stopped
            assert movement.exit_limits(enc, after) is None
        else:
            limits = movement.exit_limits(enc, after)
            assert limits is not None and all(
                enc.zone.contains(a) and distance(a, c.area) == 1 for a in limits
            )

    # ------------------------------------------------------- GM: states, markers, zone

    def _states(self, data, what):
        cid = self.draw_id(data, self.enc.combatants, "who")
        if cid is None:
            return
        """States and markers on any character (E17, R12)."""
        {
            "add state": self._add_state,
            "bleed": self._tick_bleeding,
            "momentum": self._add_momentum,
            "remove": self._remove_state,
            "count": self._adjust_counter,
        }[what](data, cid)

    def _add_state(self, data, cid):
        """E17: a state again costs 1 grit, unless it takes markers."""
        enc = self.enc
        kind = data.draw(st.sampled_from(STATES), label="state")
        markers = data.draw(st.integers(0, 4), label="markers") if kind in MARKED_STATES else 0
        c = enc.combatant(cid)
        self.must(AddState(cid, kind, markers))
        after = enc.combatant(cid)
        assert after.has(kind)
        if kind in MARKED_STATES:
            old = c.state(kind).markers if c.has(kind) else 0
            assert after.state(kind).markers == old + max(markers, 1)
            assert after.grit == c.grit
        elif c.has(kind):
            assert after.grit == max(c.grit - 1, 0), "E17: the same state again costs 1 grit"
        else:
            assert after.grit == c.grit

    def _tick_bleeding(self, data, cid):
        """E17: suffer hits = half the markers rounded up, then remove one."""
        enc = self.enc
        c = enc.combatant(cid)
        st_ = c.state(StateKind.BLEEDING)
        legal = (
            st_ is not None
            and st_.markers > 0
            # once, on the character's own turn (E3)
            and (enc.turn.phase is not Phase.TURNS or enc.turn.actor == cid)
            and "bleeding" not in c.economy.resolved
        )
        self.expect(TickBleeding(cid), legal)
        if legal:
            after = enc.combatant(cid)
            assert after.hits == c.hits + bleeding_hits(st_.markers)
            left = after.state(StateKind.BLEEDING)
            assert (left.markers if left else 0) == st_.markers - 1

    def _add_momentum(self, data, cid):
        """R12: a +2/-2 marker on any character's next check (C3, af-classic: +1/-1)."""
        enc = self.enc
        n = len(enc.combatant(cid).momentum)
        size = ruleset_named(enc.ruleset).momentum_marker
        dice = data.draw(st.sampled_from([size, -size]), label="dice")
        self.must(AddMomentum(cid, dice, "a stunt"))
        assert len(enc.combatant(cid).momentum) == n + 1

    def _remove_state(self, data, cid):
        enc = self.enc
        kind = data.draw(st.sampled_from(list(StateKind)), label="state")
        self.expect(RemoveState(cid, kind), enc.combatant(cid).has(kind))
        assert not enc.combatant(cid).has(kind)

    def _adjust_counter(self, data, cid):
        enc = self.enc
        counter = data.draw(st.sampled_from(["grit", "hits", "shifts", "will"]), label="what")
        delta = data.draw(st.integers(-3, 3), label="delta")
        old = getattr(enc.combatant(cid), counter)
        self.expect(AdjustCounter(cid, counter, delta), legal=old + delta >= 0)

    def _extend(self, data):
        edge = data.draw(st.sampled_from(list(Edge)), label="edge")
        seed = data.draw(SEEDS, label="seed")
        """E9: a row or column of tiles from the same tile set."""
        enc = self.enc
        cols, rows = enc.zone.size()
        if (cols if edge in (Edge.EAST, Edge.WEST) else rows) >= MAX_TILES:
            return
        before = enc.zone
        self.must(draw_extension(enc, edge, random.Random(seed)))
        assert set(before.tiles) <= set(enc.zone.tiles)
        assert enc.zone.trimmed(edge) == before, "trimming what was added gives the zone back"

    def _trim(self, data):
        edge = data.draw(st.sampled_from(list(Edge)), label="edge")
        """E9: remove the outermost tiles at an edge; nobody may stand there."""
        enc = self.enc
        cols, rows = enc.zone.size()
        gone = enc.zone.line_areas(edge)
        big = (cols if edge in (Edge.EAST, Edge.WEST) else rows) > 1
        clear = all(
            not (c.on_map and c.area in gone) and not set(c.decoys) & gone for c in enc.roster()
        )
        self.expect(TrimZone(edge), legal=big and clear)

    def _meta(self, data):
        what = data.draw(st.sampled_from(["settings", "referee", "mode"]), label="what")
        days = data.draw(st.integers(-1, 3), label="days")
        low = data.draw(st.booleans(), label="low activity")
        delta = data.draw(st.integers(-3, 3), label="delta")
        mode = data.draw(st.sampled_from(list(Mode)), label="mode")
        """Settings (E15), the referee's Shifts (R10), a mode override (E16)."""
        enc = self.enc
        if what == "settings":
            op = SetSettings(Settings(days_since_rest=days, low_activity=low))
            self.expect(op, days >= 0)
        elif what == "referee":
            self.expect(AdjustRefereeShifts(delta), enc.meta.referee_shifts + delta >= 0)
        else:
            # E16: only before play or at an exchange's end, unless the GM overrides
            between = enc.turn.phase in (Phase.SETUP, Phase.EXCHANGE_END)
            override = delta > 0
            self.expect(ChangeMode(mode, override), (between or override) and mode is not enc.mode)

    # ----------------------------------------------------------- end and persevere

    @precondition(
        lambda self: (
            self.phase() in (Phase.CARDS, Phase.TURNS, Phase.EXCHANGE_END)
            and (self.enc.turn.exchange >= 3 or self.steps > 80)
        )
    )
    @rule()
    def end_encounter(self):
        self.must(EndEncounter())
        t2 = self.enc.turn
        assert t2.phase is Phase.ENDED and self.enc.actor is None
        assert t2.exchanges_played == len(self.exchanges_begun), "E15: exchanges played"
        self.refused(EndEncounter())

    @precondition(lambda self: self.phase() is Phase.ENDED and not self.persevered)
    @rule(seed=SEEDS)
    def persevere(self, seed):
        """E15: after more than one exchange everyone checks strength; the success margin
        must exceed the days since rest, or exhaustion (then grit loss)."""
        enc = self.enc
        op = persevere.roll(enc, RandomSource(seed))
        before = {c.id: c for c in enc.roster()}
        played = len(self.exchanges_begun)
        legal = played > 1 and bool(op.results)  # nobody left to check: nothing to roll
        strenuous = any(m.key == "strenuous" for m in persevere.modifiers(enc))
        assert strenuous == (played > 2), "E15: strenuous after more than two exchanges"
        self.expect(op, legal)
        self.persevered = self.persevered or legal
        if not legal:
            return
        self.refused(persevere.roll(enc, RandomSource(seed + 1)))  # once per encounter
        from afdesk.encounter.contest.ops import persevere_passed

        state = {c.id: c for c in enc.roster()}
        for res in op.results:
            c, after = before[res.id], state[res.id]
            passed, margin = persevere_passed(enc, res)
            if passed:
                assert after == c
            elif c.has(StateKind.EXHAUSTED):
                assert after.grit == max(c.grit - margin, 0)
            else:
                assert after.has(StateKind.EXHAUSTED) and after.grit == c.grit

    @precondition(lambda self: self.phase() is Phase.ENDED)
    @rule(data=st.data())
    def after_the_end(self, data):
        """Once the encounter is over, play stops: no deal, card, turn, move or action."""
        enc = self.enc
        cid = self.draw_id(data, enc.combatants, "who") or "nobody"
        op = data.draw(
            st.sampled_from(
                [
                    deal_hands(enc, random.Random(0)),
                    PlayCards(()),
                    NextTurn(),
                    EndEncounter(),
                    ActHesitated(cid),
                    Screen(cid),
                    TakeAction(cid, ActionKind.DEFEND),
                    UseSnap(cid, SnapKind.PREPARE),
                    MoveCombatant(cid, ((0, 0), (0, 1)), 0.0, True),
                ]
            ),
            label="op",
        )
        self.refused(op)

    def _out_of_place(self, data):
        """Ops at the wrong moment or with wrong arguments: whatever the model decides,
        a refusal is an IllegalOp with a reason that changes nothing."""
        enc = self.enc
        ids = [*sorted(enc.combatants), "nobody"]
        cid = data.draw(st.sampled_from(ids), label="who")
        area = data.draw(st.tuples(st.integers(-6, 20), st.integers(-6, 20)), label="area")
        ops = [
            NextTurn(),
            EndEncounter(),
            PlayCards(()),
            DealHands(tuple(FULL_DECK), ()),
            Persevere(()),
            ActHesitated(cid),
            Screen(cid),
            TakeAction(cid, data.draw(st.sampled_from(list(ActionKind)), label="action")),
            UseSnap(cid, data.draw(st.sampled_from(list(SnapKind)), label="snap")),
            MoveCombatant(cid, (area, area), 0.0),
            MoveCombatant(cid, (area,), 0.0, True),
            SetFacing(cid, 90.0),
            ExitCombatant(cid, data.draw(st.sampled_from(list(Edge)), label="edge")),
            TickBleeding(cid),
            RemoveDecoy(cid, area),
            SetDecoys(cid, (area,)),
            RemoveMomentum(cid, data.draw(st.integers(-1, 3), label="index")),
            SetMarkers(cid, StateKind.BLEEDING, data.draw(st.integers(-1, 3), label="n")),
            AddState(cid, StateKind.BLEEDING, -1),
            AddMomentum(cid, 0),
            ExtendZone(Edge.NORTH, ("no-such-kind",)),
            ChangeMode(enc.mode),
            RemoveCombatant(enc.actor or "nobody"),
        ]
        if cid != "nobody":
            plan_op = None
            try:
                plan = assemble(enc, cid, CheckKind.HACK, data.draw(st.sampled_from(ids)))
                flow = ContestFlow(enc, plan)
                flow.roll_attack(RandomSource(1))
                plan_op = flow.op()
            except IllegalOp as exc:
                assert str(exc)
            if plan_op is not None:
                ops.append(plan_op)
        self.attempt(data.draw(st.sampled_from(ops), label="op"))

    # -------------------------------------------------------------------- invariants

    @invariant()
    def count_steps(self):
        self.steps += 1

    @invariant()
    def occupancy_matches_the_roster(self):
        if self.enc is None:
            return
        occ: dict[Area, list[str]] = {}
        for c in self.enc.roster():
            if c.on_map:
                occ.setdefault(c.area, []).append(c.id)
        assert self.enc.occupancy == occ

    @invariant()
    def terrain_matches_the_zone(self):
        if self.enc is not None:
            assert self.enc.terrain == self.enc.zone.terrain()

    @invariant()
    def counters_are_never_negative(self):
        if self.enc is None:
            return
        for c in self.enc.roster():
            e = c.economy
            assert min(c.grit, c.hits, c.shifts, c.will, e.guards, e.snaps, e.movement) >= 0, c
            assert e.guards <= 2 and e.snaps <= 2, f"{c.name}: {e} (E4, E5)"
            assert all(s.markers >= 0 for s in c.states)
            assert len({s.kind for s in c.states}) == len(c.states)
        assert self.enc.meta.referee_shifts >= 0

    @invariant()
    def characters_stand_in_the_zone(self):
        if self.enc is None:
            return
        zone = self.enc.zone
        for c in self.enc.roster():
            if c.on_map:
                assert zone.contains(c.area), f"{c.name} at {c.area} is off the zone"
            assert all(zone.contains(d) for d in c.decoys)
            assert not (c.exited and c.area is not None)
            assert facing_in_range(c.facing), c

    @invariant()
    def the_turn_is_consistent(self):
        if self.enc is None:
            return
        enc = self.enc
        t = enc.turn
        assert t.exchange - t.exchanges_played in (0, 1), t
        assert all(cid in enc.combatants for cid in t.order), t
        if t.phase is Phase.TURNS:
            assert 1 <= t.round <= ROUNDS
            assert enc.actor is not None and enc.actor in t.order
            assert enc.actor in enc.combatants
            assert 0 <= t.index < len(t.order) or t.interjection, t
        else:
            assert enc.actor is None and not t.interjection
        if t.phase is Phase.CARDS:
            assert 0 <= t.round < ROUNDS
        if t.phase is Phase.EXCHANGE_END:
            assert t.round == ROUNDS

    @invariant()
    def cards_are_never_duplicated(self):
        if self.enc is None:
            return
        reflex = self.enc.reflex
        cards = [*reflex.deck]
        for h in reflex.hands:
            cards += [*h.cards, *(c for c in h.played if c is not None)]
            assert len(h.played) <= ROUNDS
            assert all(m in self.enc.combatants for m in h.members)
        assert len(cards) == len(set(cards))
        if reflex.hands:
            assert len(cards) == len(FULL_DECK)
            members = [m for h in reflex.hands for m in h.members]
            assert len(members) == len(set(members)), "one hand per character (E2)"

    @invariant()
    def the_log_holds_every_logged_op(self):
        if self.enc is not None:
            assert len(self.enc.log) == self.log0 + self.logged
            logged = [op for op, _ in self.done if op.logged]
            tail = self.enc.log[self.log0 :]
            assert [e.op for e in tail] == logged

    @invariant()
    def the_state_survives_json(self):
        if self.enc is None:
            return
        state = self.enc.state()
        data = msgspec.json.encode(state)
        back = msgspec.json.decode(data, type=EncounterState, dec_hook=decode_hook)
        assert back == state
        assert Encounter.from_state(back).state() == state

    def teardown(self):
        if self.enc is None or not self.done:
            return
        enc = self.enc
        end = enc.state()
        # (1) undo everything, in reverse order
        for _op, inverse in reversed(self.done):
            enc.apply(inverse)
        assert enc.state() == self.start, "undoing every Op did not give the start back"
        self.occupancy_matches_the_roster()
        # (3) redo after undo
        for op, inverse in self.done:
            assert enc.apply(op) == inverse
        assert enc.state() == end, "redoing every Op did not give the same end"
        # (2) replay the recorded Ops (dice included) on a fresh copy, through JSON as a
        # journal would hold them
        journal = msgspec.json.encode([op for op, _ in self.done])
        ops = msgspec.json.decode(journal, type=list[AnyOp], dec_hook=decode_hook)
        start = msgspec.json.decode(
            msgspec.json.encode(self.start), type=EncounterState, dec_hook=decode_hook
        )
        fresh = Encounter.from_state(start)
        for op in ops:
            fresh.apply(op)
        assert fresh.state() == end, "replaying the Ops on the start gave another end"


GameMaster.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_game_master = GameMaster.TestCase
