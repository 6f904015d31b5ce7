"""The bundled infiltration sample: the smugglers' warehouse.

Built through Ops on the town tile set the storage layer passes in, and written to
``resources/encounters/smugglers-warehouse.afenc`` by ``python -m afdesk.storage.samples``.
Three guardians are placed first (N2); the two intruders start hidden with two decoys each
in adjacent areas, in tiles holding no guardian. Two objectives: the ledger in the office
and the opium crates in the yard (N1).
"""

from __future__ import annotations

from afdesk.encounter.combatant import Combatant, Facet, Side, State, StateKind, facets_with
from afdesk.encounter.infiltration.ops import SetObjective, SetRoles
from afdesk.encounter.infiltration.state import Objective
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode, Rename, SetNotes
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.state import Mode
from afdesk.encounter.zone import TileSet, grid_zone

LAYOUT = (
    ("street", "street", "street"),
    ("houses", "yard", "houses"),
    ("canal", "yard", "canal"),
)


_BASE = tuple(
    Facet(k, v)
    for k, v in {
        "fight": 2,
        "move": 2,
        "agility": 2,
        "sneak": 2,
        "study": 2,
        "influence": 1,
    }.items()
)
"""The facets this sample's characters start from."""


def _facets(**scores: int) -> tuple[Facet, ...]:
    return facets_with(_BASE, **scores)


HIDDEN = (State(StateKind.HIDDEN),)

PEOPLE = (
    Combatant(
        "guard-1",
        "Dock Guard 1",
        Side.OPPONENT,
        group="Guards",
        area=(6, 6),
        facing=180.0,
        facets=_facets(study=2),
        grit=2,
        grit_max=2,
    ),
    Combatant(
        "guard-2",
        "Dock Guard 2",
        Side.OPPONENT,
        group="Guards",
        area=(8, 12),
        facing=180.0,
        facets=_facets(study=2),
        grit=2,
        grit_max=2,
    ),
    Combatant(
        "foreman",
        "Foreman Gao",
        Side.OPPONENT,
        group="Guards",
        area=(7, 9),
        facing=180.0,
        facets=_facets(study=3, fight=3),
        grit=3,
        grit_max=3,
        notes="Keeps the ledger's key on his belt.",
    ),
    Combatant(
        "huang",
        "Huang",
        Side.BAND,
        area=(2, 1),
        facing=180.0,
        facets=_facets(sneak=3, agility=3),
        states=HIDDEN,
        decoys=((1, 2), (3, 2)),
    ),
    Combatant(
        "mei",
        "Mei",
        Side.BAND,
        area=(12, 2),
        facing=180.0,
        facets=_facets(sneak=3, study=3),
        states=HIDDEN,
        decoys=((11, 3), (13, 3)),
    ),
)


def build(town: TileSet) -> Encounter:
    """The smugglers' warehouse, set up as an infiltration with roles and objectives."""
    enc = Encounter(zone=grid_zone(town, LAYOUT))
    enc.apply(Rename("Smugglers' warehouse"))
    enc.apply(
        SetNotes(
            "The Triad stores opium behind the canal warehouses. Huang and Mei come over "
            "the street at night to take the ledger and mark the crates for the magistrate.",
            description="Lanterns by the gate, crates stacked in the yard, black water.",
        )
    )
    for c in PEOPLE:
        enc.apply(AddCombatant(c))
    enc.apply(ChangeMode(Mode.INFILTRATION))
    enc.apply(SetRoles(intruders=("huang", "mei"), guardians=("guard-1", "guard-2", "foreman")))
    enc.apply(SetObjective(Objective("ledger", "Take the ledger from the office", area=(7, 7))))
    enc.apply(
        SetObjective(Objective("crates", "Mark the opium crates", area=(8, 13), segment="Crates"))
    )
    return enc
