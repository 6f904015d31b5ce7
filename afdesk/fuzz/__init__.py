"""Fuzzing encounter files: break saved encounters on purpose and check the
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
counts; on a sample of the accepted files it also tries every GM command and menu action
and runs ``afdesk export-png`` in a subprocess (afdesk.fuzz.app). ``--target journals``
and ``--target tilesets`` fuzz crash journals and tile set files instead
(afdesk.fuzz.formats), ``--target campaigns`` and ``--target characters`` campaign and
character files (afdesk.fuzz.campaigns). The test suite runs a bounded number of cases
(tests/storage/test_fuzz.py, tests/storage/test_fuzz_formats.py).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from afdesk.fuzz.mutate import bytewise, mutate, structural

SOURCE = "fuzz.afenc"

__all__ = [
    "SOURCE",
    "Counts",
    "PromiseBroken",
    "bytewise",
    "exercise",
    "exercise_app",
    "main",
    "mutate",
    "run",
    "seeds",
    "structural",
]


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
    commanded: int = 0
    """Accepted files on which every GM command and menu action was tried."""
    commands: int = 0
    """Commands and menu actions triggered on them."""
    exported: int = 0
    """Accepted files exported by ``afdesk export-png`` in a subprocess (both views)."""

    def line(self) -> str:
        app = (
            f" ({self.commanded} with every command and menu tried, {self.commands} "
            f"triggered; {self.exported} exported by export-png)"
            if self.commanded or self.exported
            else ""
        )
        return (
            f"{self.files} files fuzzed: {self.refused} refused with a message, "
            f"{self.accepted} accepted and fully exercised{app}, "
            f"{len(self.broken)} broke a promise"
        )


def exercise_app(data: bytes, folder: Path, counts: Counts, *, export: bool) -> None:
    """Promise 1 in the app for an accepted file: every GM command and menu action
    (afdesk.fuzz.app), and ``export-png`` in a subprocess if ``export``."""
    from afdesk.fuzz import app as fuzz_app
    from afdesk.storage import decode

    state = decode(data, source=SOURCE)
    try:
        counts.commands += fuzz_app.exercise_commands(state, seed=counts.files)
        counts.commands += fuzz_app.exercise_menus(state, folder)
        counts.commanded += 1
        if export:
            path = folder / SOURCE
            path.write_bytes(data)
            fuzz_app.export_png(path, folder)
            counts.exported += 1
    except fuzz_app.AppPromiseBroken as exc:
        raise PromiseBroken(f"promise 1: {exc}") from exc


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
    app_every: int = 0,
    export_every: int = 0,
    keep: Path | None = None,
    stop_after: int = 0,
) -> Counts:
    """Fuzz until ``time.monotonic()`` passes ``deadline``. Every ``app_every``-th accepted
    file also has every command and menu action tried, every ``export_every``-th is also
    exported in a subprocess (0: never). A file that breaks a promise is kept in ``keep``
    (the temporary folder's parent by default) for reproduction. ``stop_after``: at most
    that many files (0: no limit)."""
    rng = random.Random(seed)
    corpus = seeds(rng)
    counts = Counts()
    with tempfile.TemporaryDirectory(prefix="afdesk-fuzz-") as tmp:
        folder = Path(tmp)
        while time.monotonic() < deadline and not (stop_after and counts.files >= stop_after):
            data = mutate(rng.choice(corpus), rng)
            counts.files += 1
            try:
                if exercise(data, folder, draw=draw):
                    counts.accepted += 1
                    if app_every and counts.accepted % app_every == 0:
                        exports = export_every and counts.commanded % export_every == 0
                        exercise_app(data, folder, counts, export=bool(exports))
                else:
                    counts.refused += 1
            except PromiseBroken as exc:
                kept = (keep or folder.parent) / f"afdesk-fuzz-broken-{seed}-{counts.files}.afenc"
                kept.write_bytes(data)
                counts.broken.append(f"{exc} (kept as {kept})")
            if report is not None and counts.files % 500 == 0:
                report(counts)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m afdesk.fuzz", description=__doc__)
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--no-draw", action="store_true", help="skip drawing the maps")
    parser.add_argument(
        "--target",
        choices=["files", "journals", "tilesets", "campaigns", "characters"],
        default="files",
        help="encounter files (default), crash journals, tile set files, campaign files "
        "(campaign.afcamp) or character files (.afchars)",
    )
    parser.add_argument(
        "--app-every",
        type=int,
        default=20,
        help="try every command and menu action on every Nth accepted file (0: never)",
    )
    parser.add_argument(
        "--export-every",
        type=int,
        default=10,
        help="run export-png on every Nth of those (0: never)",
    )
    args = parser.parse_args(argv)
    if args.target in ("campaigns", "characters"):
        from afdesk.fuzz import campaigns as fuzz_campaigns

        return fuzz_campaigns.main(args.target, args.minutes, args.seed)
    if args.target != "files":
        from afdesk.fuzz import formats as fuzz_formats

        return fuzz_formats.main(args.target, args.minutes, args.seed)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"seed {seed}", flush=True)
    if args.app_every and not args.no_draw:
        from PySide6.QtWidgets import QApplication

        _app = QApplication.instance() or QApplication([])
    counts = run(
        time.monotonic() + args.minutes * 60,
        seed,
        draw=not args.no_draw,
        report=lambda c: print(c.line(), flush=True),
        app_every=0 if args.no_draw else args.app_every,
        export_every=args.export_every,
        keep=Path.cwd(),
    )
    print(counts.line())
    for problem in counts.broken[:20]:
        print(f"  {problem}")
    return 1 if counts.broken else 0
