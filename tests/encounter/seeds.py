"""The seed pages' worked examples as encounters (docs/rules.md: seed 000 for af-2.5.4, seed 002
for af-classic): the kick, the alley and the door, with the faces the pages print.

d20-degrees (seed 004) has no worked example with dice, so these apply to the two dice-pool
rulesets only.
"""

from __future__ import annotations

from afdesk.encounter.combatant import Facet
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import SetRuleset
from tests.encounter.conftest import band, foe, make, start_round

DICE_RULESETS = ("af-2.5.4", "af-classic")

# The kick: Huang 2, 4, 5 (Technique 3); Chen 1, 6 and the exploded 2 (Lightness 2).
KICK_ATTACK = [2, 4, 5]
KICK_DODGE = [1, 6, 2]
# The alley: the thug's 2d Technique, Result 4; Huang's 4d Lightness 1, 2, 4, 5 and her
# Venture's Interference (af-2.5.4: two dice, 2 and 3; af-classic: one token die, 3).
ALLEY_PUNCH = [4, 2]
ALLEY_GUARD = {"af-2.5.4": [1, 2, 4, 5, 2, 3], "af-classic": [1, 2, 4, 5, 3]}
# The door: Huang's 3d Lightness 1, 4, 5 and the penalty's Interference die, 5.
DOOR = [1, 4, 5, 5]


def _facets(**scores: int) -> tuple[Facet, ...]:
    return tuple(Facet(name, score) for name, score in scores.items())


def kick(ruleset: str):
    """Huang (fight 3) kicks Chen (move 2), who faces her: Huang's turn."""
    enc = make(
        band("huang", (5, 5), facing=0.0, facets=_facets(fight=3, move=3)),
        foe("chen", (5, 4), facing=180.0, facets=_facets(fight=2, move=2)),
    )
    enc.apply(SetRuleset(ruleset))
    start_round(enc, ["huang", "opponent:Foes"])
    return enc


def alley(ruleset: str):
    """The thug (fight 2) punches Huang (move 4), who faces him: the thug's turn."""
    enc = make(
        band("huang", (5, 5), facing=0.0, facets=_facets(fight=3, move=4)),
        foe("thug", (5, 4), facing=180.0, facets=_facets(fight=2, move=2)),
    )
    enc.apply(SetRuleset(ruleset))
    start_round(enc, ["opponent:Foes", "huang"])
    assert enc.actor == "thug"
    return enc


def door(ruleset: str):
    """Huang (move 3) dives under the falling door: her turn, no one else near."""
    enc = make(
        band("huang", (5, 5), facing=0.0, facets=_facets(fight=3, move=3)),
        foe("chen", (12, 12), facing=180.0),
    )
    enc.apply(SetRuleset(ruleset))
    start_round(enc, ["huang", "opponent:Foes"])
    if enc.actor != "huang":
        enc.apply(NextTurn())
    return enc
