"""The mutations of afdesk's fuzzers: structural (a decoded file's values changed, moved,
duplicated or dropped) and bytewise (bytes flipped, cut or spliced). Shared by the encounter
file fuzzer (``afdesk.fuzz``) and the format fuzzers (``afdesk.fuzz.formats``)."""

from __future__ import annotations

import json
import random
from typing import Any

# ------------------------------------------------------------------------- mutations

_Path = tuple[Any, ...]


def _paths(doc: Any) -> list[_Path]:
    out: list[_Path] = []
    stack: list[tuple[_Path, Any]] = [((), doc)]
    while stack:
        where, value = stack.pop()
        out.append(where)
        if isinstance(value, dict):
            stack.extend(((*where, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*where, i), v) for i, v in enumerate(value))
    return out


def _get(doc: Any, where: _Path) -> Any:
    for key in where:
        doc = doc[key]
    return doc


def _set(doc: Any, where: _Path, value: Any) -> Any:
    if not where:
        return value
    _get(doc, where[:-1])[where[-1]] = value
    return doc


_DUP = "\x00afdesk-fuzz-duplicate\x00"


def _number(rng: random.Random, value: Any) -> Any:
    base = value if isinstance(value, (int, float)) and not isinstance(value, bool) else 1
    if not -1e300 < base < 1e300:  # a number made huge by an earlier mutation
        base = 1
    return rng.choice(
        [
            10 ** rng.randint(6, 400),
            -(10 ** rng.randint(6, 400)),
            -abs(base) - 1,
            base + 0.5,
            float("nan"),
            float("inf"),
            -float("inf"),
            1e300,
            2**63,
            -1,
            0,
        ]
    )


def _text(rng: random.Random) -> str:
    return rng.choice(
        [
            "x" * rng.randint(10_000, 200_000),
            "\x00\x07\x1b[31m",
            "\u202eevil\u202c\u2066",
            "\ud800",
            "",
            " ",
            "\u2028",
        ]
    )


def _swap(rng: random.Random) -> Any:
    return rng.choice(["text", 7, 1.5, True, None, [], {}, [1, 2], {"a": 1}])


def structural(data: bytes, rng: random.Random) -> bytes:
    """One random change to the JSON structure of ``data`` (a valid encounter file)."""
    doc = json.loads(data)
    where = rng.choice(_paths(doc))
    value = _get(doc, where)
    parent = _get(doc, where[:-1]) if where else None
    kind = rng.randrange(9)
    if kind == 0 or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        doc = _set(doc, where, _number(rng, value))
    elif kind == 1 and isinstance(parent, dict):
        del parent[where[-1]]
    elif kind == 2 and isinstance(parent, dict):
        parent[_DUP] = rng.choice([value, _swap(rng)])
        text = json.dumps(doc, ensure_ascii=False)
        return text.replace(json.dumps(_DUP), json.dumps(where[-1]), 1).encode(
            "utf-8", "surrogatepass"
        )
    elif kind == 3 and isinstance(parent, dict):
        parent[str(where[-1]) + rng.choice(["x", "_", "S"])] = parent.pop(where[-1])
    elif kind == 4:
        doc = _set(doc, where, _swap(rng))
    elif kind == 5 and isinstance(value, list):
        doc = _set(doc, where, value + value if rng.random() < 0.7 else [])
    elif kind == 6:
        nested: Any = value
        for _ in range(rng.choice([2, 10, 40, 70])):
            nested = [nested]
        doc = _set(doc, where, nested)
    elif kind == 7 or isinstance(value, str):
        doc = _set(doc, where, _text(rng))
    else:
        doc = _set(doc, where, _swap(rng))
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


def bytewise(data: bytes, rng: random.Random) -> bytes:
    """One random change to the bytes: truncation, a flipped, inserted or deleted byte."""
    kind = rng.randrange(4)
    at = rng.randrange(len(data) + 1)
    if kind == 0:
        return data[:at]
    if kind == 1 and at < len(data):
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
    if kind == 2:
        junk = rng.choice([b"\x00", b"\xff", b"{", b"]", b'"', b",", b"-", b"9" * 30])
        return data[:at] + junk + data[at:]
    end = min(len(data), at + rng.randint(1, 40))
    return data[:at] + data[end:]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three mutations of either kind."""
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        try:
            data = structural(data, rng) if rng.random() < 0.7 else bytewise(data, rng)
        except (ValueError, RecursionError):
            data = bytewise(data, rng)  # not JSON any more: the bytes it is
    return data


# --------------------------------------------------------------------------- promises


_DEEP = "\ue000afdesk-fuzz-deep\ue000"


def deep(data: bytes, rng: random.Random) -> bytes:
    """A value of ``data`` (JSON) replaced by lists or objects nested 100 to 100,000 deep
    (balanced, or cut off there), spliced in as text: beyond what Python's json can
    write, and what once let a RecursionError out of the campaign loader."""
    doc = json.loads(data)
    where = rng.choice([p for p in _paths(doc) if p] or [()])
    doc = _set(doc, where, _DEEP)
    depth = rng.choice([100, 10_000, 100_000])
    opener, closer = rng.choice([(b"[", b"]"), (b'{"a":', b"}"), (b'[{"a":', b"}]")])
    inner = b"" if opener == b"[" else b"1"
    nested = opener * depth + inner + (closer * depth if rng.random() < 0.8 else b"")
    text = json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return text.replace(json.dumps(_DEEP, ensure_ascii=False).encode(), nested, 1)
