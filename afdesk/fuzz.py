"""Fuzzing encounter files (issue 13): break saved encounters on purpose and check the
two promises for every result.

1. What ``afdesk check`` accepts, the app can use: it loads, draws as the GM and as the
   players see it (the map rendered offscreen, as ``export-png`` does), saves back and
   loads again equal.
2. What it refuses, it explains: a :class:`~afdesk.storage.LoadError` naming the file,
   on one line, never another exception.

The mutations work on the JSON structure (numbers made huge, negative, fractional or
not finite; keys dropped, given twice or renamed; types swapped; lists doubled, emptied
or nested deeply; huge strings, control and bidi characters) and on the bytes
(truncation, flipped, inserted and deleted bytes).

``python -m afdesk.fuzz --minutes N [--seed S]`` runs for N minutes and reports the
counts; the test suite runs a bounded number of cases (tests/storage/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SOURCE = "fuzz.afenc"

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


class PromiseBroken(AssertionError):
    """A mutated file broke promise 1 or 2 (the message says which and how)."""


def exercise(data: bytes, folder: Path, *, draw: bool = True) -> bool:
    """Check the promises for one file's bytes: True if accepted (and fully exercised),
    False if refused with a proper message; :class:`PromiseBroken` otherwise."""
    from afdesk.storage import LoadError, SaveError, decode, load, save

    try:
        state = decode(data, source=SOURCE)
    except LoadError as exc:
        text = str(exc)
        if not text.startswith(f"{SOURCE}: ") or "\n" in text or "Traceback" in text:
            raise PromiseBroken(f"promise 2: a badly placed message: {text[:300]!r}") from None
        return False
    except Exception as exc:
        raise PromiseBroken(f"promise 2: {type(exc).__name__}: {exc}") from exc
    try:
        if draw:
            from afdesk.encounter.model import Encounter
            from afdesk.gui.export import render_map

            enc = Encounter.from_state(state)
            for player in (False, True):
                image = render_map(enc, (320, 180), player=player)
                if image.isNull():
                    raise PromiseBroken(f"promise 1: the {'player' if player else 'GM'} view")
        path = folder / SOURCE
        save(path, state)
        again = load(path).state
    except PromiseBroken:
        raise
    except (Exception, SaveError) as exc:
        raise PromiseBroken(f"promise 1: accepted, then {type(exc).__name__}: {exc}") from exc
    if again != state:
        raise PromiseBroken("promise 1: saved and loaded again, the encounter differs")
    return True


# --------------------------------------------------------------------------------- run


@dataclass
class Counts:
    files: int = 0
    accepted: int = 0
    refused: int = 0
    broken: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.files} files fuzzed: {self.refused} refused with a message, "
            f"{self.accepted} accepted and fully exercised, {len(self.broken)} broke a promise"
        )


def seeds(rng: random.Random, count: int = 8) -> list[bytes]:
    """Valid encounters to start from: the sample, and random play on it (the storage
    tests' random GM when the repository's tests are at hand)."""
    from afdesk.storage import encode
    from afdesk.storage.samples import build

    out = [encode(build().state())]
    try:
        from tests.storage.builders import random_encounter
    except ImportError:
        return out
    out += [
        encode(random_encounter(rng.randrange(2**32), rng.randint(5, 120)).state())
        for _ in range(count)
    ]
    return out


def run(
    deadline: float,
    seed: int,
    *,
    draw: bool = True,
    report: Callable[[Counts], None] | None = None,
) -> Counts:
    """Fuzz until ``time.monotonic()`` passes ``deadline``."""
    rng = random.Random(seed)
    corpus = seeds(rng)
    counts = Counts()
    with tempfile.TemporaryDirectory(prefix="afdesk-fuzz-") as tmp:
        folder = Path(tmp)
        while time.monotonic() < deadline:
            data = mutate(rng.choice(corpus), rng)
            counts.files += 1
            try:
                if exercise(data, folder, draw=draw):
                    counts.accepted += 1
                else:
                    counts.refused += 1
            except PromiseBroken as exc:
                counts.broken.append(str(exc))
                (folder.parent / f"afdesk-fuzz-broken-{counts.files}.afenc").write_bytes(data)
            if report is not None and counts.files % 500 == 0:
                report(counts)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m afdesk.fuzz", description=__doc__)
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-draw", action="store_true", help="skip drawing the maps")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"seed {seed}", flush=True)
    counts = run(
        time.monotonic() + args.minutes * 60,
        seed,
        draw=not args.no_draw,
        report=lambda c: print(c.line(), flush=True),
    )
    print(counts.line())
    for problem in counts.broken[:20]:
        print(f"  {problem}")
    return 1 if counts.broken else 0


if __name__ == "__main__":
    sys.exit(main())
