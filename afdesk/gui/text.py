"""Words and numbers as the GM reads them."""

from __future__ import annotations


def sentence(text: str) -> str:
    """A model message as a sentence: capitalised, with a full stop."""
    text = text.strip()
    if not text:
        return "That is not allowed now."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def pct(p: float) -> str:
    """A probability as a percentage; 0 and 1 only when exact (to rounding error)."""
    p = min(max(float(p), 0.0), 1.0)
    if p < 1e-9:
        return "0%"
    if p > 1 - 1e-9:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{100 * p:.1f}%"


ZWSP = "\u200b"
"""A zero-width space: where a wrapped label may break a word that has no other place."""


def breakable(text: str, every: int = 16) -> str:
    """``text`` with a zero-width space in every run of more than ``every`` characters
    without a space (a link, a name run together), so that a word-wrapped label breaks
    it instead of growing as wide as the word (and the window with it)."""
    out = []
    for word in text.split(" "):
        if len(word) > every:
            word = ZWSP.join(word[i : i + every] for i in range(0, len(word), every))
        out.append(word)
    return " ".join(out)


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(text: str) -> str:
    """``text`` safe inside HTML (rich-text labels, the exported log): what
    ``html.escape`` gives, without importing :mod:`html` (its table of named entities
    cost the start of the window a couple of milliseconds)."""
    return text.translate(_ESCAPES)
