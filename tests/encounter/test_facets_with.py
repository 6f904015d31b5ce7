"""facets_with: the default facets (or a sample's own) with some scores changed."""

from __future__ import annotations

from afdesk.encounter.combatant import DEFAULT_FACETS, Facet, facets_with


def test_a_named_facet_keeps_its_place_and_a_new_one_comes_last():
    got = facets_with(fight=4, flying=1)
    assert got[0] == Facet("fight", 4)
    assert got[-1] == Facet("flying", 1)
    assert [f.name for f in got[:-1]] == [f.name for f in DEFAULT_FACETS]
    assert facets_with() == DEFAULT_FACETS


def test_another_base():
    base = (Facet("influence", 2), Facet("study", 1))
    assert facets_with(base, study=3) == (Facet("influence", 2), Facet("study", 3))
