"""The fog answers from a set made once per fog (afdesk.encounter.fog): the players' views
ask whether each character stands under it at every change, and a fog of 90 areas made
that set anew for every question (a NextTurn at 200 characters under such a fog cost 53M
instructions against 39M)."""

from __future__ import annotations

import random

from afdesk.encounter import fog as fog_module
from afdesk.encounter.fog import Fog, is_fogged
from afdesk.storage import samples


def _fog(rng: random.Random) -> Fog:
    areas = {(rng.randrange(-2, 17), rng.randrange(-2, 17)) for _ in range(rng.randrange(0, 40))}
    return Fog(areas=tuple(sorted(areas)))


def test_a_fogs_set_is_made_once_and_answers_as_its_areas():
    fog = Fog(areas=((1, 2), (3, 4)))
    first = fog.area_set()
    assert fog.area_set() is first  # made once: the same set at every question
    assert first == frozenset({(1, 2), (3, 4)})
    assert fog.covers((3, 4)) and fog.covers([1, 2]) and not fog.covers((2, 1))


def test_many_fogs_each_answer_with_their_own_areas():
    """Fogs come and go (each change of the fog is a new one); whichever the kept sets
    hold, or held under an id now another fog's, each answers with its own areas."""
    rng = random.Random(7)
    kept = []
    for i in range(300):
        fog = _fog(rng)
        if i % 3 == 0:
            kept.append(fog)  # some stay alive, the others are freed (ids reused)
        assert fog.area_set() == frozenset(fog.areas)
        probe = (rng.randrange(-2, 17), rng.randrange(-2, 17))
        assert fog.covers(probe) == (probe in set(fog.areas))
    for fog in kept:  # asked again, after many others
        assert fog.area_set() == frozenset(fog.areas)
    assert len(fog_module._AREA_SETS) <= fog_module._AREA_SETS_KEPT


def test_is_fogged_is_the_rule_with_or_without_fog():
    """Under the fog means: an area (not None) of the zone that the fog covers; no fog
    covers nothing (the zone is then not searched)."""
    zone = samples.build().zone
    rng = random.Random(11)
    fogs = [Fog(), *(_fog(rng) for _ in range(20))]
    for fog in fogs:
        for _ in range(60):
            area = (rng.randrange(-3, 18), rng.randrange(-3, 18))
            assert is_fogged(zone, fog, area) == (zone.contains(area) and area in set(fog.areas))
        assert not is_fogged(zone, fog, None)
