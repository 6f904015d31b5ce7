"""Token labels: every character a distinct short label on the map."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.labels import short_labels


def people(*names: str) -> list[Combatant]:
    return [Combatant(f"c{i}", n, Side.BAND) for i, n in enumerate(names)]


def test_silk_whisper_and_scholar_wen_no_longer_share_sw():
    labels = short_labels(people("Silk Whisper", "Scholar Wen", "Old Wolf", "Gao"))
    assert labels["c0"] != labels["c1"]
    assert {labels["c0"], labels["c1"]} == {"SWh", "SWe"}
    # Characters without a clash keep their initials.
    assert labels["c2"] == "OW" and labels["c3"] == "Ga"


def test_numbered_copies_keep_their_numbers():
    labels = short_labels(people("Bandit 1", "Bandit 2", "Bowman 1"))
    assert labels == {"c0": "Ba1", "c1": "B2", "c2": "Bo1"}


def test_same_names_are_numbered():
    labels = short_labels(people("Guard", "Guard", "Guard"))
    assert sorted(labels.values()) == ["Gu1", "Gu2", "Gu3"]


def test_a_longer_label_never_takes_anothers_initials():
    # "Sa Wa" would become "SWa" — which another character already has as initials.
    labels = short_labels(people("Sa Wa", "Su Wu", "S W A"))
    assert len(set(labels.values())) == 3
    assert labels["c2"] == "SA"


name = st.text(alphabet="ABCSWabcsw -12", min_size=0, max_size=10)


@given(st.lists(name, max_size=30))
def test_labels_are_always_distinct_and_short(names):
    roster = people(*names)
    labels = short_labels(roster)
    assert set(labels) == {c.id for c in roster}
    assert len(set(labels.values())) == len(roster)
    assert all(1 <= len(v) <= 5 for v in labels.values())
