"""Characters in an encounter: sides, facets, speeds, states and markers (E3-E8, E17)."""

import enum
import math

import msgspec

from afdesk.encounter.geometry import Area
from afdesk.encounter.weapons import Attack


class Side(enum.StrEnum):
    BAND = "band"
    OPPONENT = "opponent"
    DENIZEN = "denizen"
    FOLLOWER = "follower"

    @property
    def label(self) -> str:
        return self.value.capitalize()


_TEAM = {Side.BAND: "band", Side.FOLLOWER: "band", Side.OPPONENT: "opponents"}


def opposed(a: Side, b: Side) -> bool:
    """Whether two sides are opponents: the band and its followers against the opponents.
    Denizens are nobody's opponents until the GM says otherwise (recruitment, E6)."""
    ta, tb = _TEAM.get(a), _TEAM.get(b)
    return ta is not None and tb is not None and ta != tb


class StateKind(enum.StrEnum):
    """States (E17) and the turn-economy effects that last "until your next turn"."""

    DOWN = "down"
    BLEEDING = "bleeding"
    BURNING = "burning"
    BLINDED = "blinded"
    EXHAUSTED = "exhausted"
    HIDDEN = "hidden"
    FALLING = "falling"
    STALL = "stall"
    TEETER = "teeter"
    SHAKEN = "shaken"
    WOUNDED = "wounded"
    PREPARED = "prepared"
    CROUCHED = "crouched"
    FLYING = "flying"
    DEFENDING = "defending"
    SCREENING = "screening"
    FENDING = "fending"
    QUIPPING = "quipping"
    HESITATING = "hesitating"

    @property
    def label(self) -> str:
        return self.value.capitalize()


MARKED_STATES = frozenset({StateKind.BLEEDING, StateKind.BURNING})
"""States that take markers: getting them again adds markers instead of costing grit."""

ECONOMY_STATES = frozenset(
    {
        StateKind.DEFENDING,
        StateKind.SCREENING,
        StateKind.FENDING,
        StateKind.QUIPPING,
        StateKind.HESITATING,
    }
)
"""Effects of guard, snap and action choices: they end with the turn, so carry-over never
takes them to the campaign and the Add state form does not offer them. What each does, its
badge and its dock line are its row in afdesk.encounter.features."""


class State(msgspec.Struct, frozen=True, omit_defaults=True):
    """A state on a character: markers (bleeding 2), the turn it ends at, a note."""

    kind: StateKind
    markers: int = 0
    until: int | None = None
    """It ends when the character starts its turn number ``until`` (E3)."""
    note: str = ""

    def label(self) -> str:
        text = self.kind.label
        return f"{text} {self.markers}" if self.markers else text


class MomentumMarker(msgspec.Struct, frozen=True, omit_defaults=True):
    """Momentum placed on a character for its next check (R12): +2 is two more dice, -2 two
    Interference (af-classic, C3: +1 and -1; the ruleset's ``momentum_markers``);
    Distract's Interference is -1."""

    dice: int
    source: str = ""

    def label(self) -> str:
        return f"{self.dice:+d}" + (f" ({self.source})" if self.source else "")


class Speeds(msgspec.Struct, frozen=True, omit_defaults=True):
    """Speeds in areas per action (E14; the seed 003 table is the default)."""

    run: int = 2
    climb: int = 1
    jump: int = 1
    swim: int = 1
    fly: int = 0


class Facet(msgspec.Struct, frozen=True, array_like=True):
    name: str
    score: int


DEFAULT_FACETS = (
    Facet("fight", 2),
    Facet("move", 2),
    Facet("agility", 2),
    Facet("strength", 2),
    Facet("balance", 2),
    Facet("sneak", 2),
    Facet("study", 2),
    Facet("perform", 2),
    Facet("influence", 2),
    Facet("wilderness", 1),
    Facet("machinery", 1),
)
"""The facets the seed pages name: fight (parry), move (dodge, hustle), influence (insight),
sneak (hide, creep), study (look), perform (distract), strength (persevere), balance
(slippery), agility, wilderness and machinery (chases)."""


def facets_with(base: tuple[Facet, ...] = DEFAULT_FACETS, **scores: int) -> tuple[Facet, ...]:
    """``base`` with the ``scores`` given: a named facet keeps its place, a new one comes
    last (``facets_with(fight=4)``: the default facets with fight 4)."""
    named = {f.name: f.score for f in base}
    named.update(scores)
    return tuple(Facet(k, v) for k, v in named.items())


class D20Profile(msgspec.Struct, frozen=True, omit_defaults=True):
    """A character's d20-degrees numbers (D1)."""

    quick: int = 0
    strong: int = 0
    training: int = 0
    defense_training: int = 0
    defense_bonus: int = 0
    fortification_bonus: int = 0

    @property
    def tn(self) -> int:
        return 10 + self.quick + self.defense_training + self.defense_bonus

    @property
    def fortification(self) -> int:
        return self.strong + self.fortification_bonus


class Economy(msgspec.Struct, frozen=True, omit_defaults=True):
    """Guard, snap and action of one character (E3-E7)."""

    turns: int = 0
    """Turns this character has started: its clock for "until your next turn"."""
    guards: int = 1
    """Guards ready; Defend adds an extra one (E6); used guards return on its turn (E4)."""
    snaps: int = 0
    action: bool = False
    action_used: str = ""
    """What the action of this turn went to ("maneuver", "attack", ...)."""
    movement: int = 0
    """Movement left, in ticks (see afdesk.encounter.movement)."""
    lose_next_action: bool = False
    """A Screen aborted the next action (E7)."""
    exit_free: bool = False
    """It won the move check to leave its overlap this turn (E14)."""
    exit_to: tuple[Area, ...] | None = None
    """After a lost leave-overlap check: the only areas it may step to, in front of the
    flank of every opponent who won (E14); empty if there are none."""
    acted_round: tuple[int, int] = (0, 0)
    """(exchange, round) of its last action: never two actions in one round (E6)."""
    resolved: tuple[str, ...] = ()
    """Ongoing states resolved this turn (bleeding, burning, blinded): once each (E3)."""
    pending: tuple[str, ...] = ()
    """What the terrain asks of the character where it happened (E10): a balance check on
    entering Slippery ground, a fall after Interference on a Ledge or Steep slope. Shown to
    the GM until the character's next turn starts."""


class Sheet(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    """A character sheet: what a character *is*, declared once for the encounter and the
    campaign. The campaign's roster entry (:class:`afdesk.encounter.campaign.roster.Character`)
    is a Sheet with an id and a role; the encounter's :class:`Combatant` holds the same fields
    (same names, types and defaults: ``tests/encounter/test_sheet.py`` holds it) beside what
    only a fight has (area, facing, group, economy, momentum, ...). Conversions go through
    :meth:`Combatant.sheet` and :meth:`Combatant.with_sheet`, which read this declaration.

    On a roster entry ``states`` are the states that last between encounters, each with its
    note (E17); on a combatant, every state it has."""

    name: str
    side: Side = Side.BAND
    facets: tuple[Facet, ...] = DEFAULT_FACETS
    speeds: Speeds = Speeds()
    reach: int = 1
    weapon_range: int = 0
    """Areas a ranged (aim) attack reaches without a range penalty; 0: no ranged weapon."""
    grit: int = 3
    grit_max: int = 3
    hits: int = 0
    shifts: int = 3
    """Shifts left this session (R10)."""
    will: int = 0
    d20: D20Profile = D20Profile()
    states: tuple[State, ...] = ()
    notes: str = ""
    """GM-only notes: never shown in the player view."""
    attacks: tuple[Attack, ...] = ()
    """Weapons and attacks with their damage, reach and range (E6, E12)."""


SHEET_FIELDS: tuple[str, ...] = Sheet.__struct_fields__
"""The names of the sheet's fields, in declaration order (read from :class:`Sheet`)."""


class Combatant(msgspec.Struct, frozen=True, omit_defaults=True):
    """One character in the encounter."""

    id: str
    name: str
    side: Side
    group: str = ""
    """Reflex group: opponents, denizens and followers act on their group's card (E2)."""
    area: Area | None = None
    facing: float = 0.0
    facets: tuple[Facet, ...] = DEFAULT_FACETS
    speeds: Speeds = Speeds()
    reach: int = 1
    weapon_range: int = 0
    """Areas a ranged (aim) attack reaches without a range penalty; 0: no ranged weapon."""
    grit: int = 3
    grit_max: int = 3
    hits: int = 0
    shifts: int = 3
    will: int = 0
    states: tuple[State, ...] = ()
    momentum: tuple[MomentumMarker, ...] = ()
    decoys: tuple[Area, ...] = ()
    notes: str = ""
    """GM-only notes: never shown in the player view."""
    economy: Economy = Economy()
    d20: D20Profile = D20Profile()
    exited: str = ""
    """Set when the character left the encounter over an edge: the GM's note."""
    attacks: tuple[Attack, ...] = ()
    """Weapons and attacks with their damage, reach and range (E6, E12)."""
    harm_call: int = 0
    """The hits at which the GM last decided what reaching grit does (down, out or nothing):
    the flag shows again only when hits rise past it."""
    reserve: str = ""
    """Held in reserve: the name of the GM's reserve group ("the archers on the
    ridge"); empty when the character is in play. A reserve waits where it was placed,
    unseen by the players, dealt no reflex, until the GM brings its group in (E2)."""
    link: str = ""
    """The campaign character this one is: band members and recurring characters
    join an encounter as links, and carry-over writes what happened back to them."""
    days_since_rest: int | None = None
    """Days since this character last rested, for persevere (E15); None: the encounter's
    setting. A campaign's running copy takes it from the roster."""

    # -------------------------------------------------------------------------- queries

    def facet(self, name: str) -> int:
        for f in self.facets:
            if f.name.lower() == name.lower():
                return f.score
        return 0

    def state(self, kind: StateKind) -> State | None:
        for s in self.states:
            if s.kind == kind:  # == not is: a row added at run time names its kind in a str
                return s
        return None

    def has(self, kind: StateKind) -> bool:
        # a loop, not any() over a generator: asked for every character at each change
        for s in self.states:  # noqa: SIM110
            if s.kind == kind:
                return True
        return False

    @property
    def hidden(self) -> bool:
        return self.has(StateKind.HIDDEN)

    @property
    def in_reserve(self) -> bool:
        """Held back by the GM: not yet part of the fight (see ``reserve``)."""
        return bool(self.reserve)

    @property
    def on_map(self) -> bool:
        return self.area is not None and not self.exited

    @property
    def initials(self) -> str:
        words = [w for w in self.name.replace("-", " ").split() if w[:1].isalnum()]
        if not words:
            return "?"
        if len(words) == 1:
            return words[0][:2].capitalize()
        digits = "".join(ch for ch in words[-1] if ch.isdigit())
        if digits:
            return (words[0][0] + digits)[:3].upper()
        return (words[0][0] + words[-1][0]).upper()

    # ------------------------------------------------------------------------- changes

    def with_state(self, state: State) -> "Combatant":
        states = (*tuple(s for s in self.states if s.kind != state.kind), state)
        return msgspec.structs.replace(self, states=states)

    def without_state(self, kind: StateKind) -> "Combatant":
        return msgspec.structs.replace(self, states=tuple(s for s in self.states if s.kind != kind))

    def without_decoy(self, area: Area) -> "Combatant":
        """Without the decoy at ``area`` (eliminated or lost, E5)."""
        if area not in self.decoys:
            from afdesk.encounter.errors import IllegalOp

            raise IllegalOp(f"{self.name} has no decoy at ({area[0]}, {area[1]})")
        decoys = list(self.decoys)
        decoys.remove(area)
        return msgspec.structs.replace(self, decoys=tuple(decoys))

    def sheet(self) -> Sheet:
        """This character's sheet (every field of :class:`Sheet`, as the encounter has it)."""
        return Sheet(**{f: getattr(self, f) for f in SHEET_FIELDS})

    def with_sheet(self, sheet: Sheet) -> "Combatant":
        """This combatant with every sheet field taken from ``sheet``; what only a fight has
        (area, facing, group, economy, momentum, link, ...) stays."""
        return msgspec.structs.replace(self, **{f: getattr(sheet, f) for f in SHEET_FIELDS})

    def replace(self, **changes: object) -> "Combatant":
        return msgspec.structs.replace(self, **changes)

    def with_economy(self, **changes: object) -> "Combatant":
        return msgspec.structs.replace(
            self, economy=msgspec.structs.replace(self.economy, **changes)
        )


def bleeding_hits(markers: int) -> int:
    """Each turn a bleeding character suffers hits = half its markers, rounded up (E17)."""
    return math.ceil(markers / 2)
