"""The bundled dispute sample: the village council of Stone Bridge.

Built through Ops (so it is always a valid encounter) on the town tile set the storage
layer passes in, and written to ``resources/encounters/village-council.afenc`` by
``python -m afdesk.storage.samples``. Three platforms (P2: rebuild the mill, the
conventional course; mend the bridge; send for the magistrate), two personalities who
propose the first two, Huang speaking for the third, and a dozen villagers in two groups
in the neutral audience (P3). Twelve villagers, three speakers: T = max(8, 3) = 8 (P6).
"""

from __future__ import annotations

from afdesk.encounter.combatant import Combatant, Facet, Side, facets_with
from afdesk.encounter.dispute.ops import AddPlatform, JoinDispute, MoveDisputant, SetDisputeStats
from afdesk.encounter.dispute.state import Entry, Platform, PlatformProperty
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode, Rename, SetNotes
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.state import Mode
from afdesk.encounter.zone import TileSet, grid_zone

LAYOUT = (
    ("houses", "street", "houses"),
    ("street", "plaza", "street"),
    ("yard", "temple", "canal"),
)


_BASE = tuple(
    Facet(k, v)
    for k, v in {
        "fight": 1,
        "move": 2,
        "influence": 2,
        "study": 2,
        "perform": 2,
        "sneak": 1,
    }.items()
)
"""The facets this sample's characters start from."""


def _facets(**scores: int) -> tuple[Facet, ...]:
    return facets_with(_BASE, **scores)


PEOPLE = (
    Combatant("huang", "Huang", Side.BAND, area=(7, 8), facing=0.0, facets=_facets(influence=3)),
    Combatant(
        "bao",
        "Elder Bao",
        Side.DENIZEN,
        group="Council",
        area=(6, 6),
        facing=180.0,
        facets=_facets(influence=3, study=3),
        grit=2,
        grit_max=2,
        notes="Owns the millstones. Wants the mill rebuilt before the harvest.",
    ),
    Combatant(
        "lan",
        "Widow Lan",
        Side.DENIZEN,
        group="Council",
        area=(8, 6),
        facing=180.0,
        facets=_facets(influence=2, perform=3),
        grit=1,
        grit_max=1,
        notes="Her son drowned at the broken bridge.",
    ),
)

PLATFORMS = (
    Platform(
        "mill",
        "Rebuild the mill",
        "Spend the tithe on the mill before the harvest",
        proponent="bao",
        properties=(PlatformProperty("The way it was always done", 0),),
        conventional=True,
    ),
    Platform(
        "bridge",
        "Mend the bridge",
        "Spend the tithe on the stone bridge first",
        proponent="lan",
        properties=(PlatformProperty("Grief in the room: +1 die", 1),),
    ),
    Platform(
        "magistrate",
        "Send for the magistrate",
        "Let the county decide and pay",
        proponent="huang",
    ),
)


def build(town: TileSet) -> Encounter:
    """The village council, set up as a dispute with its platforms and its audience."""
    enc = Encounter(zone=grid_zone(town, LAYOUT))
    enc.apply(Rename("Village council"))
    enc.apply(
        SetNotes(
            "The flood took the mill and the bridge. The council meets in the plaza to "
            "decide which the tithe rebuilds. Huang wants the magistrate to pay for both.",
            description="Benches around the fountain; the whole village came.",
        )
    )
    for c in PEOPLE:
        enc.apply(AddCombatant(c))
    enc.apply(ChangeMode(Mode.DISPUTE))  # the characters join the audience (P3)
    for p in PLATFORMS:
        enc.apply(AddPlatform(p))
    enc.apply(SetDisputeStats("bao", wits=3, sway=2))
    enc.apply(SetDisputeStats("lan", wits=2, sway=1))
    enc.apply(SetDisputeStats("huang", wits=2, sway=1))
    enc.apply(MoveDisputant("bao", "mill"))
    enc.apply(MoveDisputant("lan", "bridge"))
    enc.apply(MoveDisputant("huang", "magistrate"))
    enc.apply(JoinDispute(Entry("farmers", "Farmers", count=7, grit=1, wits=1)))
    enc.apply(JoinDispute(Entry("fishers", "Fishers", count=5, grit=1, wits=1)))
    return enc
