"""Whether many values hold only numbers a file can hold, at C speed: every whole number
and float within 64 bits, found by scanning their JSON instead of walking their builtins
(:func:`afdesk.encounter.limits.has_bad_number`).

JSON writes a whole number beyond 64 bits with 19 digits or more, and a float of 2**63 or
more with an exponent of 18 or more (``9.223372036854776e18``); the scan finds every such
token and reads its magnitude, and only when one is too large (it may also sit in a text)
is every value walked. NaN and infinities are written as ``null`` and not seen: values
decoded from JSON (a crash journal's Ops) never hold one (the decoder refuses them), and the
model makes one from finite numbers only from a number this finds. A recovered document's
kept steps, 2,000 Ops and inverses: 75 ms walked, about 10 ms scanned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec

from afdesk.encounter.limits import MAX_MAGNITUDE, has_bad_number

_LARGE = re.compile(rb"\d{19,}|\d(?:\.\d+)?e(?:\d{3,}|[2-9]\d|1[89])(?!\d)")
"""A JSON number token of 10**18 or more (a digit run, or a float's mantissa and its whole
exponent: ``1e180`` is not ``1e18``; the sign left out: the limit is the same on both
sides)."""

_SHAPES = bytes(48 if 48 <= c <= 57 else c if c == ord("e") else 32 for c in range(256))
"""Every digit to ``0``, ``e`` kept, every other byte to a space: a token of 10**18 or more
shows as 19 zeros, or as ``0e00`` (an exponent of two digits or more), at C speed."""

_encode = msgspec.json.Encoder().encode


def numbers_fit(values: Sequence[Any]) -> bool:
    """Whether every number in ``values`` (records or builtins, at any depth, decoded from
    JSON or made by the model from such) lies within 64 bits (see the module)."""
    try:
        text = _encode(values)
    except Exception:  # something JSON does not write: walk it
        return not any(has_bad_number(msgspec.to_builtins(v)) for v in values)
    shapes = text.translate(_SHAPES)
    if shapes.find(b"0" * 19) < 0 and shapes.find(b"0e00") < 0:
        return True  # no token of 10**10 or more written with an exponent, nor of 19 digits
    for m in _LARGE.finditer(text):
        token = m.group()
        if abs(float(token) if b"e" in token else int(token)) > MAX_MAGNITUDE:
            return not any(has_bad_number(msgspec.to_builtins(v)) for v in values)
    return True
