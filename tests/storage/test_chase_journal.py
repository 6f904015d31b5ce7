"""Every chase Op goes through the crash journal: a scripted chase on the rooftop
sample that uses each of them (rolled and typed checks, Shifts both ways, every special
action and what it starts, stage effects, crew checks, countdowns, the exchange end), with
undo and redo along the way, is recovered from its journal equal to the live encounter."""

from __future__ import annotations

import random

from afdesk.encounter.chase.ops import (
    AddVehicle,
    CatchDecoy,
    ChaseCheck,
    CrewCheck,
    EndSpecial,
    EndStageEffect,
    HazardAttack,
    KnockOut,
    LeaveVehicle,
    ResolveChase,
    RollCountdown,
    RollPursuit,
    SetCountdown,
    SetParticipant,
    SetStage,
    Special,
    SpecialAction,
)
from afdesk.encounter.chase.state import Countdown, Vehicle
from afdesk.encounter.contest.assembly import ShiftSpend
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import decoy_spots
from afdesk.encounter.registry import registered_ops
from afdesk.encounter.state import Phase
from afdesk.rules.contest import Role
from afdesk.rules.dice import RandomSource
from afdesk.rules.pursuit.checks import read_check
from afdesk.rules.rulesets import ruleset_named
from afdesk.storage import save
from afdesk.storage.journal import Journal, pending_journals, recover
from afdesk.storage.samples import build_chase
from tests.storage.test_journal import Live, _crash

CHASE_MODULES = ("chase", "chase_check", "chase_special", "chase_stage")


def chase_op_classes() -> set[str]:
    return {
        cls.__name__
        for cls in registered_ops()
        if cls.__module__.rsplit(".", 1)[-1] in CHASE_MODULES
    }


def _rolled(enc, pid, checker, seed, spend=False):
    """A chase check rolled under the encounter's ruleset, the character then the referee
    spending a Shift (R10)."""
    rules = ruleset_named(enc.ruleset)
    source = RandomSource(seed)
    c = enc.combatants[checker]
    roll = rules.roll_plain(c.facet("agility"), [], source)
    spends = []
    if spend and c.shifts:
        roll, used = rules.spend(roll, "add", (), source)
        spends.append(ShiftSpend(Role.ATTACKER, checker, "add", indices=used))
        wins = tuple(i for i, d in enumerate(roll.dice) if d.face >= 4 and d.retried_from is None)
        if wins and enc.meta.referee_shifts:
            roll, used = rules.spend(roll, "retry", wins, source)
            spends.append(ShiftSpend(Role.DEFENDER, "referee", "retry", indices=used))
    r = read_check(rules, roll)
    return ChaseCheck(pid, r.success, r.margin, r.interference, roll=roll, spends=tuple(spends))


def play_chase(live: Live) -> None:
    enc = live.enc
    rng = random.Random(14)
    live.do(SetParticipant("mei", total=4, speed=3))
    live.do(SetCountdown(Countdown(exchanges=2, target="the temple", rows=True)))
    live.do(RollCountdown((6, 4)))
    live.do(AddVehicle(Vehicle("rickshaw", "Rickshaw", "runner-1", "runner-2", speed=3)))
    live.undo()  # the runners stay on foot
    live.do(AddVehicle(Vehicle("rickshaw", "Rickshaw", "runner-1", "runner-2", speed=3)))
    live.do(LeaveVehicle("runner-1"))  # the commander gets off: both run on (H5)
    live.do(SetStage(("attacking", "chasm", "fluid", "occupied"), override=True))
    live.do(SetStage(("steep",), ahead=True))
    live.do(deal_hands(enc, rng))
    faces = [(6, 6, 6, 5), (6, 4), (4,), (2,), (5,), (1,), (6, 2), (3,)]
    k = 0
    specials = [Special.HIDE, Special.GRANT, Special.ATTACK, Special.COOPERATE, Special.SCREEN]
    specials += [Special.CONTEST]
    while enc.turn.phase is not Phase.EXCHANGE_END or enc.turn.exchange < 2:
        phase = enc.turn.phase
        if phase in (Phase.SETUP, Phase.EXCHANGE_END):
            live.do(ResolveChase(()))  # everyone escapes, then a new exchange
            live.do(deal_hands(enc, rng))
        if enc.turn.phase is Phase.CARDS:
            live.do(play_cards(enc, rng=rng))
        while enc.turn.phase is Phase.TURNS:
            actor = enc.actor
            pid = actor if enc.chase.participant(actor) else ""
            for v in enc.chase.vehicles:
                if actor in (v.commander, v.helm, *v.crew):
                    pid = v.id
            p = enc.chase.participant(pid)
            if p is not None and not p.out and not p.colours:
                f = faces[k % len(faces)]
                if p.forced_bad:
                    live.do(RollPursuit(pid))
                elif p.extra_die:
                    live.do(RollPursuit(pid, f, other=(6, 1), chosen=1))
                else:
                    live.do(RollPursuit(pid, f, typed=k % 2 == 0))
                checker = next((v.helm for v in enc.chase.vehicles if v.id == pid), pid)
                if k % 3 == 0:
                    live.do(ChaseCheck(pid, k % 2 == 0, 1 + k % 2))  # typed
                else:
                    live.do(_rolled(enc, pid, checker, k, spend=k % 3 == 1))
                if k % 4 == 1:
                    live.undo()
                    live.redo()
                p = enc.chase.participant(pid)
                for _ in range(p.special):
                    kind = specials.pop(0) if specials else Special.SCREEN
                    op = _special(enc, pid, kind)
                    if not live.try_do(op, SpecialAction(pid, Special.SCREEN)):
                        break
                if pid == "cart":
                    live.try_do(CrewCheck("cart", "boss", k % 2 == 0, 1))
                p = enc.chase.participant(pid)
                if p.started:
                    live.do(EndSpecial(pid))
                if p.decoys:
                    live.do(CatchDecoy(pid))
                if p.hazard:
                    live.do(HazardAttack(pid, 1))
                if p.drowning:
                    live.do(EndStageEffect(pid, "drowning"))
                if p.teetering:
                    live.do(EndStageEffect(pid, "teetering"))
                if p.out:
                    live.do(KnockOut(pid, out=False))
            k += 1
            live.do(NextTurn())
        if enc.turn.phase is Phase.CARDS and enc.chase.pole:
            live.try_do(SetStage(("difficult",)))
    live.do(ResolveChase((("mei", ""),)))


def _special(enc, pid, kind):
    if kind is Special.HIDE:
        c = enc.combatants.get(pid)
        spots = tuple(decoy_spots(enc, c)[:2]) if c is not None and c.area is not None else ()
        return SpecialAction(pid, kind, decoys=spots)
    if kind in (Special.SCREEN,):
        return SpecialAction(pid, kind)
    me = enc.chase.participant(pid)
    others = [q for q in enc.chase.participants if q.id != pid and not q.out and not q.decoys]
    lower = [q for q in others if q.total <= me.total] or others
    return SpecialAction(pid, kind, lower[0].id)


def test_every_chase_op_is_journaled_and_recovered_equal(tmp_path):
    path = tmp_path / "rooftop-chase.afenc"
    enc = build_chase()
    save(path, enc.state())
    live = Live(enc, Journal.start("Rooftop chase", file=path, base=enc.state()))
    play_chase(live)
    used = {type(e[1]).__name__ for e in live.session.events if e[0] == "do"}
    assert chase_op_classes() <= used, chase_op_classes() - used
    assert {"undo", "redo"} <= {e[0] for e in live.session.events}
    _crash(live.journal)
    (pending,) = pending_journals()
    assert pending.problem == ""
    assert recover(pending) == live.enc.state()
