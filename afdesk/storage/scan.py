"""Checks msgspec does not make: how deep the JSON nests, and keys given twice.

Both must be fast on a 10,000-entry log (the load budget is 100 ms), so neither walks the
parsed document in Python on the usual path:

- Depth works on the bytes: drop escape sequences, keep only quotes and brackets
  (``bytes.translate``), drop the strings, then peel the innermost ``[]``/``{}`` pairs
  one level per pass. A document nests at most N deep when N passes empty it (quick
  passes that may take two levels at once settle the usual file first).
- Duplicate keys: a file afdesk wrote re-encodes to exactly its own bytes, and an encoding
  never holds a key twice, so that comparison (made by the decoder) proves there are none.
  Anything else (a file edited by hand, an older version) goes through ``json.loads`` with
  an ``object_pairs_hook`` that spots a repeated key and reports where it is.
"""

from __future__ import annotations

import enum
import re
from typing import Any

MAX_DEPTH = 64

_KEEP = b'"[]{}'
_DROP = bytes(c for c in range(256) if c not in _KEEP)
_STRING = re.compile(rb'"[^"]*"')
_PAIR = re.compile(rb"\[\]|\{\}")
_ESCAPE = re.compile(rb"\\.", re.S)


class Depth(enum.Enum):
    OK = "ok"
    TOO_DEEP = "too deep"
    UNBALANCED = "unbalanced"
    """Brackets or quotes do not pair up: not JSON; the parser says what is wrong."""


def depth_check(data: bytes, limit: int = MAX_DEPTH) -> Depth:
    """Whether ``data`` nests arrays and objects at most ``limit`` deep."""
    s = data
    if b"\\" in s:
        # Every escape sequence goes (one pass, left to right, so that in \\" the
        # quote still ends its string); what is left of \uXXXX is dropped next.
        s = _ESCAPE.sub(b"", s)
    s = s.translate(None, _DROP)
    # Adjacent quotes are an empty string or the end of one string and the start of the
    # next with nothing structural between them: dropping them changes no bracket.
    s = s.replace(b'""', b"")
    if b'"' in s:
        s = _STRING.sub(b"", s)
    # Fast passes: each drops the innermost [] pairs, then the {} pairs (which may be
    # the next level out): between 1 and 2 levels a pass. Enough to settle the usual
    # file; a depth near the limit is measured exactly below.
    quick = s
    for _ in range(limit // 2):
        peeled = quick.replace(b"[]", b"").replace(b"{}", b"")
        if not peeled:
            return Depth.OK  # at most 2 levels a pass, limit // 2 passes
        if len(peeled) == len(quick):
            return Depth.UNBALANCED
        quick = peeled
    for _ in range(limit):
        if not s:
            return Depth.OK
        peeled = _PAIR.sub(b"", s)
        if len(peeled) == len(s):
            return Depth.UNBALANCED
        s = peeled
    if not s:
        return Depth.OK
    return Depth.TOO_DEEP if _PAIR.search(s) else Depth.UNBALANCED


def slow_depth(doc: Any) -> int:
    """How deep a parsed document nests, walked in Python (a fallback, never the usual
    path)."""
    deepest = 0
    stack = [(doc, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        elif not isinstance(value, list):
            continue
        deepest = max(deepest, level)
        stack.extend((item, level + 1) for item in value if isinstance(item, (dict, list)))
    return deepest


class _Duplicate:
    """Stands in for an object that repeats a key, so the walk below can find its place."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


def _zero(_text: str) -> int:
    return 0


def find_duplicate_key(data: bytes) -> tuple[str, str] | None:
    """``(place, key)`` of the first object that repeats a key, or None.

    ``data`` must already be known to be JSON no deeper than :data:`MAX_DEPTH`.
    """
    found = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> Any:
        nonlocal found
        if len({key for key, _ in pairs}) == len(pairs):
            # Only the path to a repeated key is kept: an object without one is dropped
            # at once, so memory stays a small multiple of the file's size.
            if found and any(_holds(value) for _, value in pairs):
                return dict(pairs)
            return None
        found = True
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                return _Duplicate(key)
            seen.add(key)
        return None  # not reached: a shorter set means a repeated key

    import json  # only for a file off the fast path (not imported at start)

    try:
        doc = json.loads(data, object_pairs_hook=pairs_hook)
    except ValueError:
        # Python refuses integers of thousands of digits (msgspec took them): numbers do
        # not matter here, so read them all as 0.
        found = False
        doc = json.loads(data, object_pairs_hook=pairs_hook, parse_int=_zero)
    if not found:
        return None
    return _locate(doc, "")


def _holds(value: Any) -> bool:
    """Whether ``value`` (as the hook above leaves it) holds a repeated key."""
    if isinstance(value, (_Duplicate, dict)):
        return True
    return isinstance(value, list) and any(_holds(item) for item in value)


def _locate(value: Any, place: str) -> tuple[str, str] | None:
    if isinstance(value, _Duplicate):
        return place or "the file", value.key
    if isinstance(value, dict):
        for key, item in value.items():
            hit = _locate(item, f"{place}.{key}" if place else key)
            if hit:
                return hit
    elif isinstance(value, list):
        for i, item in enumerate(value):
            hit = _locate(item, f"{place}[{i}]")
            if hit:
                return hit
    return None


_DROP_KEEP_LINES = bytes(c for c in range(256) if c not in _KEEP + b"\n")
_PAIR_LINES = re.compile(rb"\[(\n+)\]|\{(\n+)\}")
_BRACKET = re.compile(rb"[\[\]{}]")


def too_deep_line(data: bytes, limit: int = MAX_DEPTH) -> int | None:
    """The line (1-based) where a subtree that nests deeper than ``limit`` starts, or
    None: where a too-deep document goes wrong, for its message.

    As :func:`depth_check`, on the bytes at C speed, but keeping the line breaks: ``k``
    passes drop every whole subtree at most ``k`` levels high, which moves no remaining
    bracket to another level. An opening bracket at level ``L`` that is left has a
    subtree more than ``k`` high, so with ``L > limit - k`` the document nests deeper
    than ``limit`` within that subtree (at most ``k`` levels below it); and the ancestor
    at level ``limit + 1 - k`` of any too-deep bracket is left. Only what is left (at
    least ``k`` levels of brackets per subtree) is walked in Python.
    """
    k = limit // 2
    s = data
    if b"\\" in s:
        s = _ESCAPE.sub(b"", s)
    s = s.translate(None, _DROP_KEEP_LINES)
    s = s.replace(b'""', b"")
    if b'"' in s:
        s = _STRING.sub(b"", s)
    for _ in range(k):
        # Exactly one level a pass: every pair with nothing (or only line breaks) inside
        # goes, and none that only becomes empty in this pass (a mark stands in for
        # the pairs dropped until the pass is over).
        peeled = s.replace(b"[]", b"\0").replace(b"{}", b"\0")
        if b"[\n" in peeled or b"{\n" in peeled:
            peeled = _PAIR_LINES.sub(rb"\1\2", peeled)
        peeled = peeled.replace(b"\0", b"")
        if len(peeled) == len(s):
            break
        s = peeled
    level = 0
    for m in _BRACKET.finditer(s):
        if s[m.start()] in b"[{":
            level += 1
            if level > limit - k:
                return s.count(b"\n", 0, m.start()) + 1
        else:
            level = max(level - 1, 0)
    return None
