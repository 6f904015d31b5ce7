"""A dispute's checks through the contest (P1, P2, P4, P5, P7): how a Convince, a Taunt or
any check without a zone is assembled, what a resolved check does to the dispute, and
what waits for the GM's decision (the fumble's tension, a broken dispute, closing).

The check dialog and scripted play go through :func:`afdesk.encounter.contest.assembly.
assemble` and one ``ResolveContest`` Op as in battle; the dispute's mode object
(:mod:`.mode`) hands them to the functions here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from afdesk.encounter import features
from afdesk.encounter.actor import spend_refusal
from afdesk.encounter.checks import DEFENSE_FACET, CheckKind, DefenseKind, Via
from afdesk.encounter.contest.assembly import (
    DefenseOption,
    Modifier,
    Plan,
    _defenses,
    _guard_used,
    _state_mods,
    assemble_on_map,
)
from afdesk.encounter.damage import landed_hits, margin_damage
from afdesk.encounter.dispute.convince import DisputeConvince
from afdesk.encounter.dispute.ops import side_name
from afdesk.encounter.dispute.state import AUDIENCE, DisputeState, Entry, dispute_of
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import in_front
from afdesk.encounter.state import Phase
from afdesk.rules import dispute as rules

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.contest.assembly import ContestRecord
    from afdesk.encounter.interface import Encounter
    from afdesk.encounter.pending import Decision
    from afdesk.rules.verdict import Verdict

NO_ZONE = "no zone: range, flank and cover do not apply (P1)"


def entry_of(d: DisputeState, cid: str) -> Entry | None:
    """The dispute's entry of character ``cid`` (or the entry with that id)."""
    return next((e for e in d.entries if e.character == cid), None) or d.entry(cid)


def property_modifiers(d: DisputeState, side: str) -> list[Modifier]:
    """The dice a platform's properties give the Convince checks made for it (P2, R1)."""
    p = d.platform(side)
    if p is None:
        return []
    return [
        Modifier(f"platform-{i}", prop.text, prop.dice, f"a property of {p.name}", "P2")
        for i, prop in enumerate(p.properties)
        if prop.dice
    ]


def convince_refusal(d: DisputeState, actor: Entry | None, target: Entry | None, who: str) -> str:
    """Why this Convince cannot be made (P3, P4, P9), or "": ``actor`` the convincer's
    entry, ``target`` the personality's (None: the neutral audience, P4a)."""
    if d.over:
        won = side_name(d, d.outcome.winner) if d.outcome.winner else "nobody"
        return f"the dispute is over ({won} won, P9)"
    if actor is None:
        return f"{who} takes no part in the dispute (P3)"
    if actor.side == AUDIENCE:
        return (
            f"{actor.name} stands in the neutral audience: only someone on a platform "
            "convinces others to join it (P4)"
        )
    if target is None:
        if not any(e.side == AUDIENCE and not e.player for e in d.entries):
            return "nobody in the neutral audience is left to convince (P4a)"
        return ""
    if target.side == actor.side:
        return f"{target.name} already stands on {side_name(d, actor.side)}"
    if target.group:
        return (
            f"{target.name} is a group of {target.count}: a group is convinced as part of "
            "the neutral audience (P4a)"
        )
    if not rules.may_convince(target.grit, target.sway):
        return (
            f"{target.name} still has grit {target.grit} and sway {target.sway}: a "
            "personality can be convinced only with no grit or no sway (P4b)"
        )
    return ""


def _off_map(
    enc: Encounter, attacker_id: str, action: CheckKind, target_id: str, facet: str, weapon: str
) -> Plan:
    """A check with no zone or someone off the map: no range, flank or cover (P1)."""
    spec = action.spec
    attacker = enc.combatant(attacker_id)
    facet = facet or spec.facet
    if not facet:
        raise IllegalOp("a plain check needs a facet")
    mods = _state_mods(attacker, enc, "attack", ("check", str(action)))
    spend = spend_refusal(enc, attacker.id, spec.uses, spec.label.lower())
    defenses: list[DefenseOption] = []
    if target_id:
        target = enc.combatant(target_id)
        if target.id == attacker.id:
            raise IllegalOp(f"{attacker.name} cannot {spec.label.lower()} themselves")
        defenses = _defenses(enc, attacker, target, action, 0, False, False, False)
    elif spec.defenses and action is not CheckKind.CONVINCE:
        raise IllegalOp(f"{spec.label} needs a target")
    return Plan(
        attacker.id,
        action,
        facet,
        attacker.facet(facet),
        target_id,
        tuple(mods),
        tuple(defenses),
        allowed=not spend,
        reason=spend,
        notes=(NO_ZONE,),
        weapon=weapon if spec.attack else "",
    )


def dispute_plan(
    enc: Encounter, attacker_id: str, action: CheckKind, target_id: str, facet: str, weapon: str
) -> Plan | None:
    """The dispute's assembly (P1, P2, P4): a Convince against the neutral audience (no
    target, no defence, P4a) or a personality (P4b, insight); the platform's property dice
    on a Convince (P2); any check without a zone without range, flank or cover (P1). None:
    the usual assembly on the map."""
    attacker = enc.combatant(attacker_id)
    target = enc.combatant(target_id) if target_id else None
    on_map = bool(enc.zone.tiles) and attacker.area is not None
    on_map = on_map and (target is None or target.area is not None)
    if action is not CheckKind.CONVINCE:
        if on_map:
            plan = assemble_on_map(enc, attacker_id, action, target_id, facet, weapon)
        else:
            plan = _off_map(enc, attacker_id, action, target_id, facet, weapon)
        return _with_retorts(enc, plan, on_map)
    if on_map and target is not None:
        plan = assemble_on_map(enc, attacker_id, action, target_id, facet, weapon)
    else:
        plan = _off_map(enc, attacker_id, action, target_id, facet, weapon)
        if on_map:  # the audience: there is a zone, but no line to anyone (P4a)
            plan = msgspec.structs.replace(plan, notes=())
    d: DisputeState = dispute_of(enc)
    actor = entry_of(d, attacker_id)
    entry = entry_of(d, target_id) if target_id else None
    if target is not None and entry is None:
        why = f"{target.name} takes no part in the dispute (P3)"
    else:
        why = convince_refusal(d, actor, entry, attacker.name)
    mods = plan.modifiers
    if actor is not None:
        mods = (*mods, *property_modifiers(d, actor.side))
    plan = _with_retorts(enc, plan, on_map)
    if why or not plan.allowed:
        return msgspec.structs.replace(
            plan, modifiers=mods, allowed=False, reason=why or plan.reason
        )
    return msgspec.structs.replace(plan, modifiers=mods)


def retort_refusal(enc: Encounter, attacker: str, target: str, ally: str) -> str:
    """Why ``ally`` may not retort for ``target`` against ``attacker``'s social check in
    the dispute ("" if it may): anyone present, on a side other than the attacker's (P5,
    P3); its guard or its Quip is the contest's to check (E4, E5)."""
    d: DisputeState = dispute_of(enc)
    c = enc.combatants.get(ally)
    who = c.name if c is not None else repr(ally)
    if ally == attacker:
        return f"{who} cannot retort against its own check (P5)"
    if c is None or c.exited or c.in_reserve:
        return f"{who} is not in the encounter: nobody there retorts (P5)"
    e = entry_of(d, ally)
    if e is None:
        return f"{who} takes no part in the dispute (P3, P5)"
    mine = entry_of(d, attacker)
    if mine is not None and e.side == mine.side:
        return (
            f"{who} stands on {side_name(d, e.side)} with {enc.combatant(attacker).name}: "
            "a retort answers for the target from another side than the attacker's (P5)"
        )
    return ""


def retort_options(
    enc: Encounter, attacker: Combatant, target: Combatant, on_map: bool
) -> list[DefenseOption]:
    """A Retort by each character in the dispute on a side other than the attacker's (P5,
    E4): with its guard (the reason when it is used) and, after a Quip, with its extra
    retort (P5, E5). Its insight check cooperates with the target's own insight (R11) or
    contests alone; on the map, an attacker behind its flank costs it -2 (E8)."""
    d: DisputeState = dispute_of(enc)
    facet = DEFENSE_FACET[DefenseKind.INSIGHT]
    checks_ = ("defense", str(DefenseKind.INSIGHT), str(DefenseKind.RETORT))
    out: list[DefenseOption] = []
    for e in d.entries:
        ally = enc.combatants.get(e.character)
        if ally is None or ally.id in (attacker.id, target.id):
            continue
        if retort_refusal(enc, attacker.id, target.id, ally.id):
            continue
        mods = _state_mods(ally, enc, "defense", checks_)
        a_area, area = attacker.area, ally.area
        behind = False
        if on_map and a_area is not None and area is not None:
            behind = not in_front(area, ally.facing, a_area)
        if behind:
            why = f"{attacker.name} acts from behind {ally.name}'s flank"
            mods.append(Modifier("flank", "Behind the flank", -2, why, "E8"))
        used = "" if ally.economy.guards >= 1 else _guard_used(ally)
        vias = [(Via.GUARD, used)]
        if features.gives_defense(ally, Via.QUIP):
            vias.append((Via.QUIP, ""))
        for via, why_not in vias:
            out.append(
                DefenseOption(
                    ally.id,
                    DefenseKind.RETORT,
                    via,
                    facet,
                    ally.facet(facet),
                    tuple(mods),
                    allowed=not why_not,
                    reason=why_not,
                )
            )
    return out


def _with_retorts(enc: Encounter, plan: Plan, on_map: bool) -> Plan:
    """``plan`` with the retorts others may make for its target (P5), if it is a social
    check at someone."""
    if not (plan.action.spec.social and plan.target and plan.defenses):
        return plan
    attacker, target = enc.combatant(plan.attacker), enc.combatant(plan.target)
    extra = retort_options(enc, attacker, target, on_map)
    return msgspec.structs.replace(plan, defenses=(*plan.defenses, *extra)) if extra else plan


AUDIENCE_LABEL = "the neutral audience (P4a)"


def check_refusal(enc: Encounter, attacker: str, action: CheckKind, target: str) -> str:
    """Why ``attacker`` cannot make ``action`` at ``target`` now ("" if it can), in the
    model's words with the rule id."""
    from afdesk.encounter.contest.assembly import assemble

    try:
        plan = assemble(enc, attacker, action, target)
    except IllegalOp as exc:
        return str(exc)
    return "" if plan.allowed else plan.reason


def check_targets(enc: Encounter, attacker: str, action: CheckKind) -> list[tuple[str, str, str]]:
    """Whom ``attacker`` may aim ``action`` at in the dispute, as (label, character id or
    "" for the neutral audience, why not or ""): the audience first for a Convince (P4a),
    then every character in the dispute, those on other sides first (P4b)."""
    d: DisputeState = dispute_of(enc)
    me = entry_of(d, attacker)
    out: list[tuple[str, str, str]] = []
    if action is CheckKind.CONVINCE:
        out.append((AUDIENCE_LABEL, "", check_refusal(enc, attacker, action, "")))
    others = [
        e
        for e in d.entries
        if e.character and e.character != attacker and e.character in enc.combatants
    ]
    others.sort(key=lambda e: (me is not None and e.side == me.side, e.side == AUDIENCE))
    for e in others:
        label = f"{e.name} ({side_name(d, e.side)})"
        out.append((label, e.character, check_refusal(enc, attacker, action, e.character)))
    return out


def convince_margin(enc: Encounter, record: ContestRecord, v: Verdict) -> int:
    """The success margin a Convince brings (R13; d20: the degree's, D2); 0 if it failed
    or was stopped."""
    return margin_damage(v, record.d20)


def _convince(enc: Encounter, record: ContestRecord, v: Verdict) -> DisputeConvince:
    d: DisputeState = dispute_of(enc)
    actor = entry_of(d, record.attacker)
    if actor is None:
        raise IllegalOp(f"{record.attacker!r} takes no part in the dispute (P3)")
    target = entry_of(d, record.target) if record.target else None
    if record.target and target is None:
        raise IllegalOp(f"{record.target!r} takes no part in the dispute (P3)")
    return DisputeConvince(
        actor.id,
        target.id if target is not None else "",
        margin=convince_margin(enc, record, v),
        override=True,
    )


def after_check(enc: Encounter, record: ContestRecord, v: Verdict) -> None:
    """A resolved Convince moves people (P4a, P4b, then the reckoning P6); a landed Taunt
    takes its damage off the target's grit in the dispute (P5)."""
    d: DisputeState = dispute_of(enc)
    if record.action is CheckKind.CONVINCE:
        why = convince_refusal(
            d,
            entry_of(d, record.attacker),
            entry_of(d, record.target) if record.target else None,
            record.attacker,
        )
        if why:
            raise IllegalOp(why)
        enc.set_part("dispute", _convince(enc, record, v).after(enc, d))
    elif record.action is CheckKind.TAUNT and v.lands and record.target:
        target = entry_of(d, record.target)
        if target is not None:
            damage = landed_hits(record.hits, record.momentum_uses)
            grit = max(target.grit - max(damage, 0), 0)
            enc.set_part("dispute", d.replace_entry(msgspec.structs.replace(target, grit=grit)))


def taunted_in_dispute(enc: Encounter, record: ContestRecord) -> bool:
    """A Taunt at someone in the dispute: its damage goes to grit, not hits (P5)."""
    return (
        record.action is CheckKind.TAUNT
        and bool(record.target)
        and entry_of(dispute_of(enc), record.target) is not None
    )


def check_text(enc: Encounter, record: ContestRecord, v: Verdict) -> str:
    """The log's words for what the check did in the dispute (P4, P5), and the fumble's
    proposal of +1 tension (P7, R6)."""
    d: DisputeState = dispute_of(enc)
    text = ""
    if record.action is CheckKind.CONVINCE:
        try:
            text = " — " + _convince(enc, record, v).describe(enc)
        except IllegalOp:
            text = ""
    elif taunted_in_dispute(enc, record) and v.lands:
        target = entry_of(d, record.target)
        assert target is not None
        damage = max(landed_hits(record.hits, record.momentum_uses), 0)
        text = (
            f" — {target.name} loses {damage} grit in the dispute: "
            f"{max(target.grit - damage, 0)} left (P5)"
        )
    if fumbled_social(record, v) and not d.over:
        text += " — the app proposes +1 tension (P7, R6)"
    return text


def fumbled_social(record: ContestRecord, v: Verdict) -> bool:
    """A social check that fumbled (R6): the app proposes +1 tension (P7)."""
    return record.action.spec.social and v.attack is not None and v.attack.fumble


def change_now(enc: Encounter) -> str:
    """Why the encounter may change mode now (P7, P9): the dispute is over."""
    d: DisputeState = dispute_of(enc)
    if not d.over or enc.turn.phase is Phase.ENDED:
        return ""
    return "the dispute broke (P7)" if d.outcome.how == "broken" else "the dispute is over (P9)"


def _fumble_pending(enc: Encounter, log: Sequence[Any]) -> str:
    """The name of whoever fumbled the last social check, while the GM has neither
    changed the tension since, nor made another check, nor passed the turn (P7, R6)."""
    from afdesk.encounter.contest.ops import ResolveContest
    from afdesk.encounter.dispute.ops import AddTension
    from afdesk.encounter.ops.flow import NextTurn

    for entry in reversed(log[-200:]):
        op = entry.op
        if isinstance(op, (AddTension, NextTurn)):
            return ""
        if isinstance(op, ResolveContest):
            try:
                v = op.record.verdict(enc.ruleset)
            except (IllegalOp, ValueError):
                return ""
            if not fumbled_social(op.record, v):
                return ""
            c = enc.combatants.get(op.record.attacker)
            return c.name if c is not None else op.record.attacker
    return ""


def _had_an_exchange(enc: Encounter, log: Sequence[Any]) -> bool:
    """Whether the dispute has played an exchange: not so at the end of the exchange in
    which the encounter became a dispute (E16), when there is nothing yet to close (P8)."""
    from afdesk.encounter.ops.flow import NextTurn
    from afdesk.encounter.ops.meta import ChangeMode
    from afdesk.encounter.state import Mode

    for entry in reversed(log):
        if isinstance(entry.op, NextTurn):
            return True  # a turn taken since (also after a GM override mid-exchange)
        if isinstance(entry.op, ChangeMode) and entry.op.mode is Mode.DISPUTE:
            return bool(entry.exchange != enc.turn.exchange)
    return True


def decisions(enc: Encounter, log: Sequence[Any]) -> list[Decision]:
    """What waits for the GM in a dispute, with the Ops that decide it: +1 tension after
    a fumbled social check (P7, R6); a broken dispute's battle, chase or end at once (P7);
    closing the dispute at an exchange end (P8). ``log`` is the encounter's log."""
    from afdesk.encounter.dispute.ops import AddTension, CloseDispute
    from afdesk.encounter.ops.flow import EndEncounter
    from afdesk.encounter.ops.meta import ChangeMode
    from afdesk.encounter.pending import Choice, Decision
    from afdesk.encounter.state import Mode

    d: DisputeState = dispute_of(enc)
    out: list[Decision] = []
    if enc.turn.phase is Phase.ENDED:
        return out
    if d.over:
        if d.outcome.how == "broken":
            text = (
                f"Tension {d.tension} exceeds {d.threshold}: the dispute broke with no "
                "winner. Fight it out, run for it, or end the encounter? (P7)"
            )
            out.append(
                Decision(
                    "broken",
                    "dispute",
                    text,
                    (
                        Choice(
                            "Battle now",
                            "The encounter becomes a battle at once (P7, E16)",
                            ChangeMode(Mode.BATTLE),
                        ),
                        Choice(
                            "Chase now",
                            "The encounter becomes a chase at once (P7, E16)",
                            ChangeMode(Mode.CHASE),
                        ),
                        Choice(
                            "End the encounter",
                            "The encounter is over (E15: persevere)",
                            EndEncounter(),
                        ),
                    ),
                )
            )
        return out
    who = _fumble_pending(enc, log)
    if who:
        text = f"{who} fumbled a social check: add 1 tension ({d.tension}/{d.threshold})? (P7, R6)"
        out.append(
            Decision(
                "tension",
                "dispute",
                text,
                (Choice("+1 tension", "Tension rises by 1 (P7)", AddTension(1)),),
            )
        )
    if enc.turn.phase is Phase.EXCHANGE_END and d.platforms and _had_an_exchange(enc, log):
        conv = d.conventional()
        won, tied = rules.closing_winner(d.support(), conv.id if conv else None)
        picks: tuple[tuple[str, CloseDispute], ...]
        if won:
            picks = ((side_name(d, won), CloseDispute()),)
        else:
            picks = tuple((side_name(d, p), CloseDispute(pick=p)) for p in tied)
        choices = tuple(
            Choice(f"Close: {name}", f"{name} wins the dispute (P8)", op) for name, op in picks
        )
        text = "The exchange is over: close the dispute on the most support? (P8)"
        out.append(Decision("close", "dispute", text, choices))
    return out
