"""Counted words as a GM reads them in the log and the docks: "1 hit", "2 hits"."""

from __future__ import annotations


def plural(n: int, word: str, words: str = "") -> str:
    """ "1 exchange", "2 exchanges" (``words`` for an irregular plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"
