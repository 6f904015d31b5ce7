"""Stage properties of a chase (H4) and what each does to a turn.

The pole of a round picks the next round's properties, as many as its success margin, at
least 1 (H3). Each property's effect, from the Chase page (seed 001), with the bad colour of
H2 where the page says "blue":

- Attacking: the bad colour or Interference hits you with a hazard's attack.
- Chasm: the bad colour or Interference makes you teeter; a teeter lasts until the stage
  changes, and a second teeter on the same stage falls areas equal to your current total.
- Dangerous: a failure margin also deals hits.
- Difficult: an extra penalty (-2, two Interference dice, R1) on all checks.
- Flaming: a failure margin also deals burn.
- Fluid: use your swim speed (on a stage also Steep, the lower of climb and swim); the bad
  colour makes you begin to drown.
- Obscured: check and dodge with subterfuge (sneak); every attack takes an extra -2 (the
  chase mode adds it to every contest it assembles).
- Occupied: the bad colour adds another pursuer tied with the highest margin.
- Steep: use your climb speed; a failure margin subtracts from your total and is a fall of
  that many areas.
- Treacherous: a failure margin subtracts from your total.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable
from typing import NamedTuple

from afdesk.rules.errors import RulesError

PENALTY = 2
"""-2: two Interference dice (R1)."""


class StageProperty(enum.StrEnum):
    """The ten stage properties of H4."""

    ATTACKING = "attacking"
    CHASM = "chasm"
    DANGEROUS = "dangerous"
    DIFFICULT = "difficult"
    FLAMING = "flaming"
    FLUID = "fluid"
    OBSCURED = "obscured"
    OCCUPIED = "occupied"
    STEEP = "steep"
    TREACHEROUS = "treacherous"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def effect(self) -> str:
        """What the property does, in the page's words (H4)."""
        return _EFFECTS[self]


_EFFECTS = {
    StageProperty.ATTACKING: "The bad colour or Interference: a hazard attacks you.",
    StageProperty.CHASM: "The bad colour or Interference: you teeter until the stage "
    "changes; teeter again and you fall areas equal to your total.",
    StageProperty.DANGEROUS: "A failure margin also deals hits.",
    StageProperty.DIFFICULT: "-2 on all checks.",
    StageProperty.FLAMING: "A failure margin also deals burn.",
    StageProperty.FLUID: "Use your swim speed; the bad colour: you begin to drown.",
    StageProperty.OBSCURED: "Check and dodge with sneak; all attacks -2.",
    StageProperty.OCCUPIED: "The bad colour adds a pursuer tied with the highest margin.",
    StageProperty.STEEP: "Use your climb speed; a failure margin subtracts from your total "
    "and is a fall of that many areas.",
    StageProperty.TREACHEROUS: "A failure margin subtracts from your total.",
}


def properties(values: Iterable[str]) -> tuple[StageProperty, ...]:
    """Stage properties from their names, each once, in H4's order."""
    out = set()
    for v in values:
        try:
            out.add(StageProperty(str(v).lower()))
        except ValueError:
            names = ", ".join(p.value for p in StageProperty)
            raise RulesError(f"no stage property {v!r}: the ten are {names} (H4)") from None
    return tuple(p for p in StageProperty if p in out)


def property_count(pole_margin: int) -> int:
    """H3: the pole picks as many properties as its success margin, at least 1."""
    return max(1, pole_margin)


def check_penalty(stage: Iterable[StageProperty], *, bad: bool) -> int:
    """Interference dice on a chase check: the bad colour's -2 (H2) and Difficult's (H4)."""
    return (PENALTY if bad else 0) + (PENALTY if StageProperty.DIFFICULT in stage else 0)


def speed_kinds(stage: Iterable[StageProperty], way_kind: str) -> tuple[str, ...]:
    """Which of the character's speeds count, the lowest of them taken: Steep climbs, Fluid
    swims, a stage both Steep and Fluid the lower of climb and swim (H4); else the way of
    moving's own (``way_kind``: "run" on foot)."""
    stage = tuple(stage)
    kinds = tuple(
        kind
        for prop, kind in ((StageProperty.STEEP, "climb"), (StageProperty.FLUID, "swim"))
        if prop in stage
    )
    return kinds or (way_kind,)


def speed_kind(stage: Iterable[StageProperty], way_kind: str) -> str:
    """The first of :func:`speed_kinds` (Steep climbs, Fluid swims, H4)."""
    return speed_kinds(stage, way_kind)[0]


def facets(stage: Iterable[StageProperty], way_facet: str) -> tuple[str, ...]:
    """The facets a chase check may use: the way of moving's (H3), and sneak when the stage
    is Obscured (H4)."""
    if StageProperty.OBSCURED in tuple(stage):
        return (way_facet, "sneak")
    return (way_facet,)


class StageEffects(NamedTuple):
    """What the stage does to one turn (H4). ``total_delta`` is added to the chase total
    (never taking it below 0: see :func:`stage_effects`)."""

    total_delta: int = 0
    hits: int = 0
    burn: int = 0
    teeter: bool = False
    fall: int = 0
    hazard_attack: bool = False
    drown: bool = False
    extra_pursuer: bool = False

    def describe(self) -> str:
        parts = []
        if self.total_delta:
            parts.append(f"{-self.total_delta} off the total (stage)")
        if self.hits:
            parts.append(f"{self.hits} hit(s)")
        if self.burn:
            parts.append(f"burn {self.burn}")
        if self.fall:
            parts.append(f"falls {self.fall} area(s)")
        elif self.teeter:
            parts.append("teeters")
        if self.hazard_attack:
            parts.append("a hazard attacks")
        if self.drown:
            parts.append("begins to drown")
        if self.extra_pursuer:
            parts.append("another pursuer joins")
        return ", ".join(parts)


def stage_effects(
    stage: Iterable[StageProperty],
    *,
    bad: bool,
    success: bool,
    margin: int,
    interference: bool,
    teetering: bool,
    total: int,
) -> StageEffects:
    """H4: the stage's effects on a turn that rolled the bad colour or not (``bad``),
    succeeded or failed by ``margin`` (R13), left Interference unspent (``interference``),
    by a participant already teetering or not, whose total is now ``total`` (after this
    turn's gain)."""
    stage = tuple(stage)
    fail = 0 if success else margin
    hazard = bad or interference
    delta = 0
    fall = 0
    if StageProperty.TREACHEROUS in stage:
        delta -= fail
    if StageProperty.STEEP in stage:
        delta -= fail
        fall = fail
    teeter = StageProperty.CHASM in stage and hazard
    if teeter and teetering:
        fall = max(fall, total)  # a second teeter: fall areas equal to the current total
    delta = max(delta, -total)
    return StageEffects(
        total_delta=delta,
        hits=fail if StageProperty.DANGEROUS in stage else 0,
        burn=fail if StageProperty.FLAMING in stage else 0,
        teeter=teeter,
        fall=fall,
        hazard_attack=StageProperty.ATTACKING in stage and hazard,
        drown=StageProperty.FLUID in stage and bad,
        extra_pursuer=StageProperty.OCCUPIED in stage and bad,
    )


def draw(rng: random.Random, count: int) -> tuple[StageProperty, ...]:
    """``count`` different stage properties drawn at random (the GM's random stage, H4),
    in H4's order; ``rng`` is the caller's (a seeded one in tests)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RulesError(f"draw a whole number of stage properties, got {count!r}")
    if count > len(StageProperty):
        raise RulesError(f"a stage has at most {len(StageProperty)} properties (H4), not {count}")
    chosen = set(rng.sample(list(StageProperty), count))
    return tuple(p for p in StageProperty if p in chosen)
