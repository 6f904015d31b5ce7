"""The chase's part of an encounter (H1-H5): plain immutable data, stored in files."""

import enum
from typing import TYPE_CHECKING

import msgspec

from afdesk.rules.pursuit.stages import StageProperty

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class Way(enum.StrEnum):
    """A way of moving and the facet its chase checks use (H3)."""

    FOOT = "foot"
    RIDING = "riding"
    VEHICLE = "vehicle"

    @property
    def facet(self) -> str:
        return {"foot": "agility", "riding": "wilderness", "vehicle": "machinery"}[self.value]

    @property
    def speed_kind(self) -> str:
        """Which of a character's speeds it moves at (a mount's or vehicle's is set)."""
        return "run"


class Participant(msgspec.Struct, frozen=True, omit_defaults=True):
    """One participant: a character, or a vehicle its crew moves (H5)."""

    id: str
    total: int = 0
    way: Way = Way.FOOT
    speed: int = 2
    """The speed of its way of moving (H3); Steep and Fluid stages use climb and swim."""
    colours: tuple[str, ...] = ()
    """This turn's pursuit dice (H1): reds, then the die that moves."""
    faces: tuple[int, ...] = ()
    """Their faces (typed or rolled), for the record."""
    forced_bad: bool = False
    """Interference on the last check: the next pursuit die is the bad colour (H3)."""
    extra_die: bool = False
    """Someone's special action grants it an extra pursuit die (roll both, choose)."""
    score: int | None = None
    """What the total gained this round (None: no turn yet this round, H3)."""
    margin: int = 0
    success: bool = False
    round_speed: int | None = None
    grit_lost: int = 0
    """Grit lost this round."""
    special: int = 0
    """Special actions not yet used (one per red, H1)."""
    decoys: int = 0
    """Decoys that must be caught first (the hide special action)."""
    hidden: bool = False
    teetering: bool = False
    """Chasm (H4): a second teeter falls."""
    out: bool = False
    """Knocked out: a round speed of 0 or less (H3). It keeps its total."""
    result: str = ""
    """The exchange end (H3): "escaped", "captured by <id>", "captor", "out"."""
    label: str = ""
    """The name of a participant that is neither a character nor a vehicle: a pursuer an
    Occupied stage added (H4)."""
    helpers: tuple[str, ...] = ()
    """Participants cooperating with its next chase check (a special action, H1, R11)."""
    started: str = ""
    """A special action started against another participant and not yet resolved:
    "attack:<id>" or "contest:<id>" (H1); the GM resolves it in the check dialog."""
    hazard: int = 0
    """Hazard attacks due (an Attacking stage, H4)."""
    drowning: bool = False
    """Began to drown (a Fluid stage on the bad colour, H4)."""
    crew_checked: tuple[str, ...] = ()
    """A vehicle's crew members who checked this round (H5)."""


class Vehicle(msgspec.Struct, frozen=True, omit_defaults=True):
    """A vehicle (H5): its commander holds the reflex hand, the helm's pursuit die moves it,
    every participating crew member checks."""

    id: str
    name: str
    commander: str
    helm: str
    crew: tuple[str, ...] = ()
    speed: int = 4


class Countdown(msgspec.Struct, frozen=True, omit_defaults=True):
    """A countdown chase (H4): reach ``target`` within ``exchanges``, and/or rows of areas
    removed each round by a pursuit die (one on the good colour, two on the bad)."""

    exchanges: int = 0
    target: str = ""
    rows: bool = False
    rows_removed: int = 0
    rolled: bool = False
    """The countdown die was rolled this round (H4: one roll a round); cleared when the
    round ends."""


class ChaseState(msgspec.Struct, frozen=True, omit_defaults=True):
    """The chase's part of an encounter."""

    participants: tuple[Participant, ...] = ()
    """Ranked by nothing: the board ranks them by total."""
    pole: str = ""
    """The last round's pole (H3)."""
    pole_margin: int = 0
    stage: tuple[StageProperty, ...] = ()
    """This round's stage properties (H4); none: a simple stage."""
    stages_ahead: tuple[tuple[StageProperty, ...], ...] = ()
    """Stages the GM prepared, taken in order at each round's start."""
    vehicles: tuple[Vehicle, ...] = ()
    countdown: Countdown = Countdown()
    reflex: tuple[str, ...] = ()
    """The participants in the last round's reflex order (ties at the exchange end, H3)."""

    def participant(self, pid: str) -> Participant | None:
        for p in self.participants:
            if p.id == pid:
                return p
        return None

    def replace(self, p: Participant) -> "ChaseState":
        return msgspec.structs.replace(
            self,
            participants=tuple(p if q.id == p.id else q for q in self.participants),
        )

    def with_stage(self, stage: tuple[StageProperty, ...]) -> "ChaseState":
        """The chase on ``stage``: a teeter lasts until the stage changes (H4), so a new
        stage steadies everyone teetering; the same stage again keeps them teetering."""
        if stage == self.stage:
            return self
        parts = tuple(
            msgspec.structs.replace(p, teetering=False) if p.teetering else p
            for p in self.participants
        )
        return msgspec.structs.replace(self, stage=stage, participants=parts)

    def vehicle_of(self, cid: str) -> Vehicle | None:
        for v in self.vehicles:
            if cid == v.helm or cid == v.commander or cid in v.crew:
                return v
        return None


def chase_of(enc: "Encounter") -> ChaseState:
    """The chase mode's part of ``enc`` (the interface, below every mode, names none)."""
    part: ChaseState = enc.part("chase")
    return part
