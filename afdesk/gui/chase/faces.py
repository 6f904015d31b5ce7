"""Pursuit dice faces: typed by the GM from physical dice, or rolled (H1)."""

from __future__ import annotations

import random


def parse_faces(text: str) -> tuple[int, ...]:
    """Typed faces "6 2" or "6,2" -> (6, 2); a clear message for anything else."""
    parts = text.replace(",", " ").split()
    faces = []
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= 6:
            raise ValueError(f"pursuit die faces are 1 to 6, separated by spaces; got {part!r}")
        faces.append(int(part))
    return tuple(faces)


def roll_faces(rng: random.Random) -> tuple[int, ...]:
    """Roll the pursuit die: again on every 6 (red, H1)."""
    faces = [rng.randint(1, 6)]
    while faces[-1] == 6:
        faces.append(rng.randint(1, 6))
    return tuple(faces)
