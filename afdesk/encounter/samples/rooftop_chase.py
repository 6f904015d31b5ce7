"""The bundled chase sample: over the rooftops and through the alleys, with a cart.

Built through Ops (so it is always a valid encounter) on the town tile set the storage
layer passes in, and written to ``resources/encounters/rooftop-chase.afenc`` by
``python -m afdesk.storage.samples``. The band runs with the ledger; the Triad's runners
chase on foot and their boss follows in a rickshaw-cart (a vehicle, H5) down the street.
"""

from __future__ import annotations

from afdesk.encounter.chase.ops import AddVehicle, SetParticipant, SetStage
from afdesk.encounter.chase.state import Vehicle
from afdesk.encounter.combatant import Combatant, Side, Speeds, facets_with
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode, Rename, SetNotes
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.state import Mode
from afdesk.encounter.zone import TileSet, grid_zone

LAYOUT = (
    ("rooftops", "rooftops", "houses"),
    ("street", "street", "street"),
    ("houses", "rooftops", "canal"),
)


PEOPLE = (
    Combatant(
        "huang",
        "Huang",
        Side.BAND,
        area=(2, 2),
        facing=0.0,
        facets=facets_with(agility=3, move=3),
        speeds=Speeds(run=3, climb=2),
    ),
    Combatant(
        "mei",
        "Mei",
        Side.BAND,
        area=(3, 2),
        facing=0.0,
        facets=facets_with(agility=2, sneak=3),
        notes="Carries the ledger.",
    ),
    Combatant(
        "runner-1",
        "Triad Runner 1",
        Side.OPPONENT,
        group="Runners",
        area=(7, 2),
        facing=180.0,
        facets=facets_with(agility=3),
        grit=2,
        grit_max=2,
    ),
    Combatant(
        "runner-2",
        "Triad Runner 2",
        Side.OPPONENT,
        group="Runners",
        area=(8, 3),
        facing=180.0,
        facets=facets_with(agility=2),
        grit=2,
        grit_max=2,
    ),
    Combatant(
        "boss",
        "Boss Wu",
        Side.OPPONENT,
        group="Cart",
        area=(7, 7),
        facing=180.0,
        facets=facets_with(machinery=2, influence=3),
        grit=4,
        grit_max=4,
        notes="Will not leave the cart. Pays the runners by the catch.",
    ),
    Combatant(
        "driver",
        "Cart Driver",
        Side.OPPONENT,
        group="Cart",
        area=(8, 7),
        facing=180.0,
        facets=facets_with(machinery=3),
        grit=2,
        grit_max=2,
    ),
)


def build(town: TileSet) -> Encounter:
    """The rooftop chase, set up as a chase with a head start, a cart and stages ahead."""
    enc = Encounter(zone=grid_zone(town, LAYOUT))
    enc.apply(Rename("Rooftop chase"))
    enc.apply(
        SetNotes(
            "The band has Wu's ledger. The runners chase over the rooftops; Wu's cart takes "
            "the street below. If the band escapes at the end of exchange 2, they reach the "
            "temple.",
            description="Tiled roofs, washing lines and a long drop to the alleys.",
        )
    )
    for c in PEOPLE:
        enc.apply(AddCombatant(c))
    enc.apply(ChangeMode(Mode.CHASE))
    enc.apply(SetParticipant("huang", total=3))
    enc.apply(SetParticipant("mei", total=2))
    enc.apply(AddVehicle(Vehicle("cart", "Wu's cart", commander="boss", helm="driver", speed=4)))
    enc.apply(SetStage(("steep",), ahead=True))
    enc.apply(SetStage(("chasm", "treacherous"), ahead=True))
    enc.apply(SetStage(("occupied",), ahead=True))
    return enc
