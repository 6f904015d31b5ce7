"""Short labels for the map's tokens: every character a distinct one, so two characters
never share initials on the map ("Silk Whisper" and "Scholar Wen" are not both "SW").

A presentation default read by the map and the players' screen, not a rule: it lives here,
below the GUI, so it is Qt-free and tested on its own."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Protocol

ID_AND_NAME = operator.attrgetter("id", "name")
"""A character's ``(id, name)``: the labels of a roster change only when these do (the map
and the players' strip compare them, read in C, at every change)."""


class Named(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def initials(self) -> str: ...


def _words(name: str) -> list[str]:
    return [w for w in name.replace("-", " ").split() if w[:1].isalnum()]


def _candidates(c: Named) -> list[str]:
    """Ever longer labels for ``c``, the initials first: the initials and the next letter
    of the last word ("SWh", "SWe") or, for a numbered name, two letters and the number
    ("Ba1"), then the first word's first three letters ("Sil")."""
    out = [c.initials]
    words = _words(c.name)
    digits = "".join(ch for ch in words[-1] if ch.isdigit()) if words else ""
    if len(words) > 1 and digits:
        out.append(words[0][:2].capitalize() + digits)  # "Bandit 1", "Bowman 1": Ba1, Bo1
    elif len(words) > 1:
        first = "".join(w[0] for w in words[:-1]).upper()
        last = words[-1]
        out.append((first + last[:2].capitalize())[:3])
    if words:
        out.append(words[0][:3].capitalize())
    return out


def short_labels(roster: Iterable[Named]) -> dict[str, str]:
    """Each character's label by id, all distinct. A character keeps its initials unless
    another has the same; then every character of that clash takes the first longer label
    that tells them all apart and clashes with nobody else; failing that, the initials
    numbered in roster order ("B1", "B2")."""
    people = list(roster)
    labels = {c.id: c.initials for c in people}
    by_label: dict[str, list[Named]] = {}
    for c in people:
        by_label.setdefault(c.initials, []).append(c)
    clashes = [group for group in by_label.values() if len(group) > 1]
    for group in clashes:
        ids = {c.id for c in group}
        others = {lab for cid, lab in labels.items() if cid not in ids}
        options = [_candidates(c) for c in group]
        chosen: list[str] | None = None
        for level in range(1, max(len(o) for o in options)):
            picks = [o[min(level, len(o) - 1)] for o in options]
            if len(set(picks)) == len(picks) and not others.intersection(picks):
                chosen = picks
                break
        if chosen is None:
            chosen = []
            taken = set(others)
            n = 0
            for c in group:
                n += 1
                while f"{c.initials[:2]}{n}" in taken:
                    n += 1
                chosen.append(f"{c.initials[:2]}{n}")
                taken.add(chosen[-1])
        for c, label in zip(group, chosen, strict=True):
            labels[c.id] = label
    return labels
