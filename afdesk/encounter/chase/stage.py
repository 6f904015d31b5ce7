"""Chase Ops outside a turn's roll (H3, H4): the stage's properties, knocked out, countdowns."""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.chase.order import pname
from afdesk.encounter.chase.state import Countdown
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.rules import RulesError, pursuit
from afdesk.rules.pursuit import stages

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter
from afdesk.encounter.chase.check import steady_crew
from afdesk.encounter.chase.ops_base import _chase, _participant, _set
from afdesk.encounter.chase.state import chase_of


class SetStage(Op, frozen=True):
    """Stage properties (H4): the pole picks as many as its margin, at least 1, for the
    round (H3); ``ahead`` queues a stage the GM prepared; ``override`` lifts the count."""

    properties: tuple[str, ...]
    ahead: bool = False
    override: bool = False
    label = "Stage"

    def _props(self) -> tuple[stages.StageProperty, ...]:
        try:
            return stages.properties(self.properties)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None

    def execute(self, enc: "Encounter") -> None:
        chase = _chase(enc, "set the stage")
        props = self._props()
        if self.ahead:
            enc.set_part(
                "chase",
                msgspec.structs.replace(chase, stages_ahead=(*chase.stages_ahead, props)),
            )
            return
        limit = stages.property_count(chase.pole_margin)
        if chase.pole and not self.override and len(props) > limit:
            raise IllegalOp(
                f"the pole {pname(enc, chase.pole)} picks {limit} stage propert"
                f"{'y' if limit == 1 else 'ies'} (its margin, H3), not {len(props)}"
            )
        steady_crew(enc, props)
        enc.set_part("chase", chase.with_stage(props))

    def describe(self, enc: "Encounter") -> str:
        names = ", ".join(p.label for p in self._props()) or "a simple stage"
        if self.ahead:
            return f"Stage prepared: {names}"
        pole = chase_of(enc).pole
        by = f" (picked by the pole, {pname(enc, pole)})" if pole else ""
        return f"Stage: {names}{by}"


class KnockOut(Op, frozen=True):
    """The GM knocks a participant out of the chase, or brings it back (H3)."""

    id: str
    out: bool = True
    label = "Knocked out"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "knock a participant out")
        if p.out == self.out:
            raise IllegalOp(f"{pname(enc, p.id)} is {'already' if p.out else 'not'} out")
        _set(enc, msgspec.structs.replace(p, out=self.out))

    def describe(self, enc: "Encounter") -> str:
        verb = "is knocked out of" if self.out else "is back in"
        return f"{pname(enc, self.id)} {verb} the chase"


class SetCountdown(Op, frozen=True):
    """A countdown chase (H4): reach ``target`` within ``exchanges`` exchanges, and/or
    remove rows of areas each round by a pursuit die (``rows``)."""

    countdown: Countdown
    label = "Countdown"

    def execute(self, enc: "Encounter") -> None:
        chase = _chase(enc, "set a countdown")
        c = self.countdown
        if c.exchanges < 0 or c.rows_removed < 0:
            raise IllegalOp("a countdown cannot be negative")
        enc.set_part("chase", msgspec.structs.replace(chase, countdown=c))

    def describe(self, enc: "Encounter") -> str:
        c = self.countdown
        bits = []
        if c.exchanges:
            bits.append(f"reach {c.target or 'the goal'} within {c.exchanges} exchange(s)")
        if c.rows:
            bits.append("a pursuit die removes rows of areas each round")
        return "Countdown: " + ("; ".join(bits) or "none")


class RollCountdown(Op, frozen=True):
    """The countdown's pursuit die for a round (H4): one row of areas removed on the good
    colour, two on the bad; a red rolls again. "Each round a pursuit die removes" rows: it
    is rolled once a round, and a second roll before the round ends is refused."""

    faces: tuple[int, ...]
    label = "Countdown die"

    def _rows(self, enc: "Encounter") -> int:
        try:
            colours = tuple(pursuit.colour(f) for f in self.faces)
            pursuit.turns._colours(colours)
        except RulesError as exc:
            raise IllegalOp(f"countdown die faces {list(self.faces)}: {exc}") from None
        return 2 if colours[-1] == enc.settings.bad_pursuit_colour else 1

    def execute(self, enc: "Encounter") -> None:
        chase = _chase(enc, "roll the countdown die")
        if not chase.countdown.rows:
            raise IllegalOp("this chase has no countdown of rows (H4)")
        if chase.countdown.rolled:
            raise IllegalOp(
                "The countdown die was already rolled this round (H4: one roll a round). "
                "Roll it again once this round ends."
            )
        c = msgspec.structs.replace(
            chase.countdown,
            rows_removed=chase.countdown.rows_removed + self._rows(enc),
            rolled=True,
        )
        enc.set_part("chase", msgspec.structs.replace(chase, countdown=c))

    def describe(self, enc: "Encounter") -> str:
        try:
            rows = self._rows(enc)
        except IllegalOp:
            return "Countdown die"
        colours = ", ".join(pursuit.colour(f) for f in self.faces)
        done = chase_of(enc).countdown.rows_removed + rows
        return f"Countdown die {colours}: {rows} row(s) of areas fall away ({done} in all)"
