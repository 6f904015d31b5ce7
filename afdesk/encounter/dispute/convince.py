"""Convince in a dispute (P4, E6 action): against the neutral audience (P4a) or one
personality (P4b). The Op records its dice (the check's roll and the personality's
insight): replaying it never re-rolls."""

from typing import TYPE_CHECKING

from afdesk.encounter import economy
from afdesk.encounter.actor import require_actor
from afdesk.encounter.dispute.ops import (
    _dispute,
    _ending,
    _entry,
    _open,
    moved,
    reckon,
    side_name,
)
from afdesk.encounter.dispute.state import AUDIENCE, DisputeState, Entry, dispute_of
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.requires import require_phase
from afdesk.encounter.state import Phase
from afdesk.rules import RulesError
from afdesk.rules import dispute as rules
from afdesk.rules.dice import Roll
from afdesk.rules.rulesets import ruleset_named

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class DisputeConvince(Op, frozen=True):
    """Convince (P4, E6 action): ``actor`` (an entry on a platform) against the neutral
    audience (``target`` empty, P4a) or one personality on another side (P4b).

    ``attack`` is the Convince check's roll and ``defense`` the personality's insight
    (P4b, R9); ``margin`` is the success margin the GM types for a ruleset without dice
    pools, or the GM's override of the derived one (R13). ``picks`` orders which audience
    entries join first (default: the audience in its order). A character's Convince spends
    its action on its turn (E6) unless ``override``.
    """

    actor: str
    target: str = ""
    attack: Roll | None = None
    defense: Roll | None = None
    margin: int | None = None
    picks: tuple[str, ...] = ()
    player_agrees: bool = False
    """P3: a player character convinced (P4b) changes side only when its player agrees."""
    override: bool = False
    label = "Convince"

    def _success(self, enc: "Encounter") -> tuple[bool, int, bool]:
        """(the Convince stands, its success margin, it fumbled)."""
        fumbled = False
        margin = 0
        stands = False
        if self.attack is not None:
            try:
                rules_ = ruleset_named(enc.ruleset)
                v = rules_.verdict(self.attack, self.defense)
            except RulesError as exc:
                raise IllegalOp(f"the Convince's dice cannot be read: {exc}") from None
            stands = v.lands
            if v.attack is not None:
                fumbled = v.attack.fumble
                margin = v.attack.success_margin if stands else 0
        elif self.margin is None:
            raise IllegalOp("the Convince has not been rolled: give its dice or its margin")
        if self.margin is not None:
            if self.margin < 0:
                raise IllegalOp(f"a success margin cannot be negative ({self.margin}, R13)")
            margin, stands = self.margin, self.margin > 0
        return stands, margin, fumbled

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "convince")
        _open(d, "convince")
        actor = _entry(d, self.actor, "convince")
        if actor.side == AUDIENCE:
            raise IllegalOp(
                f"{actor.name} stands in the neutral audience: only someone on a platform "
                "convinces others to join it (P4)"
            )
        if not self.override:
            require_phase(enc, Phase.TURNS, doing="convince on a turn")
            if actor.character and actor.character in enc.combatants:
                c = require_actor(enc, actor.character, "convince")
                t = enc.turn
                enc.put(economy.use_action(c, "convince", t.exchange, t.round))
        enc.set_part("dispute", self.after(enc, d))

    def after(self, enc: "Encounter", d: DisputeState) -> DisputeState:
        """The dispute after this Convince (checked; raises IllegalOp)."""
        actor = _entry(d, self.actor, "convince")
        stands, margin, _ = self._success(enc)
        if not self.target:
            if self.defense is not None:
                raise IllegalOp("the audience makes no defence against a Convince (P4a)")
            joined = rules.joined_from_audience(margin, self._pickable(d))
            d = self._audience_joins(d, actor.side, joined)
        else:
            target = _entry(d, self.target, "convince")
            if target.side == actor.side:
                raise IllegalOp(f"{target.name} already stands on {side_name(d, actor.side)}")
            if target.group:
                raise IllegalOp(
                    f"{target.name} is a group of {target.count}: a group is convinced as part "
                    "of the neutral audience (P4a), a personality one by one (P4b)"
                )
            if not rules.may_convince(target.grit, target.sway):
                raise IllegalOp(
                    f"{target.name} still has grit {target.grit} and sway {target.sway}: a "
                    "personality can be convinced only with no grit or no sway (P4b)"
                )
            if stands and (not target.player or self.player_agrees):
                d = moved(d, target, actor.side, 1)
        return reckon(enc, d)

    def _pickable(self, d: DisputeState) -> int:
        return sum(e.count for e in self._order(d))

    def _order(self, d: DisputeState) -> list[Entry]:
        audience = [e for e in d.entries if e.side == AUDIENCE and not e.player]
        for pid in self.picks:
            if not any(e.id == pid for e in audience):
                raise IllegalOp(f"{pid!r} is not a denizen in the neutral audience (P4a)")
        rank = {pid: i for i, pid in enumerate(self.picks)}
        return sorted(audience, key=lambda e: rank.get(e.id, len(rank)))

    def _audience_joins(self, d: DisputeState, side: str, joined: int) -> DisputeState:
        for e in self._order(d):
            if joined <= 0:
                break
            current = d.entry(e.id)
            assert current is not None
            n = min(joined, current.count)
            d = moved(d, current, side, n)
            joined -= n
        return d

    def describe(self, enc: "Encounter") -> str:
        d: DisputeState = dispute_of(enc)
        actor = d.entry(self.actor)
        who = actor.name if actor is not None else self.actor
        platform = side_name(d, actor.side) if actor is not None else "?"
        try:
            stands, margin, fumbled = self._success(enc)
        except IllegalOp:
            return f"{who} convinces (P4)"
        fumble = "; Fumble: the app proposes +1 tension (P7, R6)" if fumbled else ""
        return self._said(enc, d, who, platform, stands, margin, fumble) + _ending(
            enc, d, lambda: self.after(enc, d)
        )

    def _said(
        self,
        enc: "Encounter",
        d: DisputeState,
        who: str,
        platform: str,
        stands: bool,
        margin: int,
        fumble: str,
    ) -> str:
        if not self.target:
            if not stands:
                return f"{who} fails to convince the audience for {platform} (P4a){fumble}"
            try:
                n = rules.joined_from_audience(margin, self._pickable(d))
            except (IllegalOp, RulesError):
                n = margin
            return f"{who} convinces {n} of the audience to join {platform} (P4a, margin {margin})"
        t = d.entry(self.target)
        tname = t.name if t is not None else self.target
        if not stands:
            return f"{who} fails to convince {tname} for {platform} (P4b){fumble}"
        if t is not None and t.player and not self.player_agrees:
            return f"{who}'s Convince stands, but {tname}'s player keeps their side (P3, P4b)"
        return f"{who} convinces {tname} to join {platform} (P4b)"
