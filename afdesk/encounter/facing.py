"""Where a character faces when the GM has not said (E11)."""

from typing import TYPE_CHECKING

from afdesk.encounter.combatant import Combatant, opposed
from afdesk.encounter.geometry import centre, facing_towards, normalise_facing

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def default_facing(enc: "Encounter", c: Combatant) -> float:
    """Where a character added at ``c.area`` faces unless the GM says otherwise (E11): the
    other side, towards the centre of the opposing characters on the map, or the zone's
    centre when there are none; its own facing when it is off the map or stands on that
    centre."""
    if c.area is None:
        return normalise_facing(c.facing)
    foes = [
        centre(o.area)
        for o in enc.roster()
        if o.area is not None and o.on_map and not o.in_reserve and opposed(o.side, c.side)
    ]
    if foes:
        target = (sum(p[0] for p in foes) / len(foes), sum(p[1] for p in foes) / len(foes))
    else:
        if not enc.zone.tiles:
            return normalise_facing(c.facing)
        c0, r0, c1, r1 = enc.zone.area_bounds()
        target = ((c0 + c1 + 1) / 2, (r0 + r1 + 1) / 2)
    here = centre(c.area)
    if abs(target[0] - here[0]) < 1e-9 and abs(target[1] - here[1]) < 1e-9:
        return normalise_facing(c.facing)
    return facing_towards(here, target)
