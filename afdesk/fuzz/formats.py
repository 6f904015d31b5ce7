"""Structural fuzzers for the crash journal and for tile set files (promise 4 and
the tile-set half of promises 1 and 2).

Journals. A session is played with its journal following the history, then "crashed"; its
lines are broken on purpose (cut at a byte, a flipped bit that breaks a line's CRC, two
lines swapped, a line dropped or given twice, a garbage or blank line inserted, a line
renumbered and sealed again, the header claiming a newer version). For each result:
``pending_journals()`` never raises and never removes a journal that still holds a
change; recovery gives the encounter after some prefix of the real changes, never a
state that never was, or a :class:`LoadError`; when it gives less than everything because
of a damaged line, the GM is told what was left out; the saved file is byte-identical.

Tile sets. A bundled tile set file mutated (the JSON structure and the bytes, as
:mod:`afdesk.fuzz` does for encounters) is refused with one placed message naming the
file, or accepted; an accepted one makes a zone that an encounter file holds (saved and
loaded equal) and the map draws; in the GM's tile-set folder it is listed or reported,
and the bundled sets are always all there.

``python -m afdesk.fuzz --target journals|tilesets --minutes N`` runs one for N minutes.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class FormatPromiseBroken(AssertionError):
    """A broken journal or tile set broke its promise (the message says how)."""


@dataclass
class FormatCounts:
    what: str
    cases: int = 0
    recovered_all: int = 0
    """Journals: everything recovered. Tile sets: accepted and fully used."""
    recovered_part: int = 0
    """Journals: an intact prefix recovered, the GM told what was left out."""
    refused: int = 0
    """Refused with a message (nothing recovered, nothing lost)."""
    broken: list[str] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        if self.what == "journals":
            middle = (
                f"{self.recovered_all} recovered whole, {self.recovered_part} recovered up "
                f"to the damage with a message, {self.refused} refused with a message"
            )
        else:
            middle = (
                f"{self.recovered_all} accepted and used (a zone saved and drawn), "
                f"{self.refused} refused with a message"
            )
        return f"{self.cases} {self.what} fuzzed: {middle}, {len(self.broken)} broke a promise"


@contextlib.contextmanager
def _data_dir(folder: Path) -> Iterator[None]:
    old = os.environ.get("AFDESK_DATA_DIR")
    os.environ["AFDESK_DATA_DIR"] = str(folder)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("AFDESK_DATA_DIR", None)
        else:
            os.environ["AFDESK_DATA_DIR"] = old


# ----------------------------------------------------------------------------- journals


@dataclass
class JournalCase:
    """A crashed session: its saved file, the journal's bytes, and the encounter after
    each journaled change (``states[k]``: after the first k)."""

    file: Path
    file_bytes: bytes
    journal: bytes
    states: list[Any]
    marker: str = ""
    """"failed": a save marker whose save failed; "end": saved just before the crash."""


def _propose(enc: Any, rng: random.Random) -> Any:
    """A change a GM might make (the storage tests' random GM when at hand)."""
    try:
        from tests.storage.builders import RandomGM
    except ImportError:
        from afdesk.encounter.ops.meta import Rename
        from afdesk.encounter.ops.roster import AdjustCounter

        cid = rng.choice(list(enc.order))
        return rng.choice(
            [Rename(f"Fight {rng.randrange(100)}"), AdjustCounter(cid, "hits", rng.randint(0, 2))]
        )
    return RandomGM(enc, rng).propose()


def journal_case(folder: Path, seed: int, steps: int) -> JournalCase:
    """Play ``steps`` random changes (undos and redos among them) on the sample, saved in
    ``folder``, with the journal in ``folder``'s data folder, sometimes with a save marker
    (a failed save in the middle, a save just before the end); then crash."""
    from afdesk.encounter.errors import IllegalOp
    from afdesk.encounter.history import History
    from afdesk.storage import save
    from afdesk.storage.journal import Journal
    from afdesk.storage.samples import build

    rng = random.Random(seed)
    enc = build()
    path = folder / "fight.afenc"
    save(path, enc.state())
    history = History(enc)
    journal = Journal.start("Fight", file=path, base=enc.state()).follow(history)
    states = [enc.state()]
    # A save whose marker line is written but whose file write fails (the file keeps
    # its old bytes), somewhere in the middle; or a save that completes just before the
    # crash, before the journal restarts (the file then holds every change).
    failed_save = rng.randrange(steps) if rng.random() < 0.3 else -1
    saved_at_end = rng.random() < 0.3
    for step in range(steps):
        if step == failed_save:
            journal.saving(path)
        r = rng.random()
        if r < 0.12 and history.index > 0:
            history.undo()
        elif r < 0.2 and history.index < len(history.steps):
            history.redo()
        else:
            for _ in range(30):
                try:
                    history.push(_propose(enc, rng))
                    break
                except IllegalOp:
                    continue
            else:
                continue
        states.append(enc.state())
    if saved_at_end:
        journal.saving(path)
        save(path, enc.state())
    data = journal.path.read_bytes()
    journal.close(clean=False)
    marker = "end" if saved_at_end else "failed" if failed_save >= 0 else ""
    return JournalCase(path, path.read_bytes(), data, states, marker)


def _reseal(body: bytes) -> bytes:
    from afdesk.storage.journal_file import seal

    return seal(body)


def _unsealed(line: bytes) -> bytes | None:
    from afdesk.storage.journal_file import unseal

    return unseal(line)


def mutate_journal(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One structural break of a journal's lines, and its kind."""
    lines = data.split(b"\n")[:-1]  # whole lines (the journal ends with a newline)
    kind = rng.choice(
        ["cut", "flip", "swap", "drop", "twice", "garbage", "blank", "renumber", "newer"]
    )
    n = len(lines)
    if kind == "cut":
        return data[: rng.randrange(len(data) + 1)], kind
    if kind == "flip":
        at = rng.randrange(len(data))
        flipped = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
        # The last newline flipped leaves the last line torn: a cut, as a crash leaves it.
        return flipped, "cut" if at == len(data) - 1 else kind
    if kind == "swap" and n >= 2:
        i, j = rng.sample(range(n), 2)
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "drop" and n >= 1:
        del lines[rng.randrange(n)]
    elif kind == "twice" and n >= 1:
        i = rng.randrange(n)
        lines.insert(i + 1, lines[i])
    elif kind == "garbage":
        junk = rng.choice(
            [
                bytes(rng.randrange(256) for _ in range(rng.randint(1, 80))).replace(b"\n", b""),
                b"{}",
                b'{"n":2,"do":null}',
                b"\x00" * 10,
                lines[rng.randrange(n)][: rng.randint(0, 50)] if n else b"x",
            ]
        )
        lines.insert(rng.randint(1, n) if n else 0, junk)
    elif kind == "blank":
        lines.insert(rng.randint(1, n) if n else 0, rng.choice([b"", b" ", b"\r", b"\t"]))
    elif kind == "renumber" and n >= 2:
        i = rng.randrange(1, n)
        body = _unsealed(lines[i])
        if body is not None:
            number = rng.choice([0, -1, i + 1, i + 7, 2**40])
            changed = re.sub(rb'^\{"n":-?\d+', b'{"n":%d' % number, body, count=1)
            lines[i] = _reseal(changed)
    elif kind == "newer" and n >= 1:
        body = _unsealed(lines[0])
        if body is not None:
            lines[0] = _reseal(re.sub(rb'"version":\d+', b'"version":99', body, count=1))
    return b"".join(line + b"\n" for line in lines), kind


def check_journal(case: JournalCase, data: bytes, kind: str, counts: FormatCounts) -> None:
    """The promises for one broken journal (see the module); :class:`FormatPromiseBroken`
    if one is broken."""
    from afdesk.storage import LoadError
    from afdesk.storage.journal import pending_journals, recover_report
    from afdesk.storage.journal_file import SUFFIX, journal_dir

    folder = journal_dir()
    for old in folder.glob("*"):
        old.unlink()
    path = folder / f"fuzzed{SUFFIX}"
    path.write_bytes(data)
    counts.cases += 1
    counts.kinds[kind] = counts.kinds.get(kind, 0) + 1
    try:
        pending = pending_journals()
    except Exception as exc:
        raise FormatPromiseBroken(f"{kind}: pending_journals raised {exc!r}") from exc
    if not pending:
        if path.exists():
            raise FormatPromiseBroken(f"{kind}: a journal on disk was not offered")
        from afdesk.storage.recovery import _changes, _parse

        try:  # removed: only a journal read whole, holding no change, may be
            read = _parse(data, "fuzzed")
        except Exception as exc:
            raise FormatPromiseBroken(f"{kind}: an unreadable journal was removed") from exc
        if _changes(read.lines) or read.dropped:
            raise FormatPromiseBroken(f"{kind}: a journal holding changes was removed")
        counts.refused += 1
        return
    if len(pending) != 1 or pending[0].path != path:
        raise FormatPromiseBroken(f"{kind}: offered {pending!r}")
    p = pending[0]
    try:
        report = recover_report(p)
    except LoadError as exc:
        if not str(exc).strip() or "Traceback" in str(exc):
            raise FormatPromiseBroken(f"{kind}: a refusal without a message") from exc
        counts.refused += 1
    except Exception as exc:
        raise FormatPromiseBroken(f"{kind}: recovery raised {type(exc).__name__}: {exc}") from exc
    else:
        if p.problem:
            raise FormatPromiseBroken(f"{kind}: recovered although offered as {p.problem!r}")
        if report.state not in case.states:
            raise FormatPromiseBroken(f"{kind}: recovery gave a state that never was")
        if report.state == case.states[-1]:
            counts.recovered_all += 1
        else:
            if kind not in ("cut", "drop") and not (report.dropped or p.dropped):
                raise FormatPromiseBroken(f"{kind}: changes were left out without a word")
            counts.recovered_part += 1
    if case.file.read_bytes() != case.file_bytes:
        raise FormatPromiseBroken(f"{kind}: the saved file changed")
    if not path.exists():
        raise FormatPromiseBroken(f"{kind}: the journal was deleted by reading it")


def run_journals(deadline: float, seed: int, *, per_case: int = 40) -> FormatCounts:
    """Fuzz journals until ``time.monotonic()`` passes ``deadline``."""
    rng = random.Random(seed)
    counts = FormatCounts("journals")
    with tempfile.TemporaryDirectory(prefix="afdesk-fuzz-journal-") as tmp:
        folder = Path(tmp)
        with _data_dir(folder / "data"):
            while time.monotonic() < deadline:
                case = journal_case(folder, rng.randrange(2**32), rng.randint(1, 40))
                for _ in range(per_case):
                    data, kind = mutate_journal(case.journal, rng)
                    try:
                        check_journal(case, data, kind, counts)
                    except FormatPromiseBroken as exc:
                        kept = Path.cwd() / f"afdesk-fuzz-journal-{seed}-{counts.cases}.afjournal"
                        with contextlib.suppress(OSError):
                            kept.write_bytes(data)
                        counts.broken.append(f"{exc} (kept as {kept})")
                    if time.monotonic() >= deadline:
                        break
    return counts


# ---------------------------------------------------------------------------- tile sets


def bundled_tilesets() -> list[bytes]:
    from afdesk.paths import bundled_tileset_dir

    return [p.read_bytes() for p in sorted(bundled_tileset_dir().glob("*.json"))]


def check_tileset(data: bytes, folder: Path, counts: FormatCounts, *, draw: bool = True) -> bool:
    """The promises for one tile set file's bytes: True if accepted and used, False if
    refused with a message; :class:`FormatPromiseBroken` otherwise."""
    import msgspec

    from afdesk.encounter.model import Encounter
    from afdesk.encounter.zone import grid_zone
    from afdesk.paths import bundled_tileset_dir
    from afdesk.storage import LoadError, decode, encode
    from afdesk.storage.samples import build
    from afdesk.storage.tilesets import decode_tileset, scan

    counts.cases += 1
    source = "mine.json"
    try:
        tileset = decode_tileset(data, source)
    except LoadError as exc:
        text = str(exc)
        if not text.startswith(f"{source}: ") or "\n" in text:
            raise FormatPromiseBroken(f"a badly placed message: {text[:300]!r}") from exc
        accepted = False
    except Exception as exc:
        raise FormatPromiseBroken(f"decoding raised {type(exc).__name__}: {exc}") from exc
    else:
        accepted = True
        try:
            first = tileset.kinds[0].id
            zone = grid_zone(tileset, [[first] * 3] * 3)
            state = msgspec.structs.replace(build().state(), zone=zone)
            if decode(encode(state)) != state:
                raise FormatPromiseBroken("a zone of it saved and loaded differs")
            if draw:
                from afdesk.gui.export import render_map

                if render_map(Encounter.from_state(state), (160, 90)).isNull():
                    raise FormatPromiseBroken("a zone of it does not draw")
        except FormatPromiseBroken:
            raise
        except Exception as exc:
            raise FormatPromiseBroken(
                f"accepted, then a zone of it: {type(exc).__name__}: {str(exc)[:300]}"
            ) from exc
    user = folder / "tilesets"
    user.mkdir(exist_ok=True)
    (user / source).write_bytes(data)
    try:
        catalog = scan(bundled_tileset_dir(), user)
    except Exception as exc:
        raise FormatPromiseBroken(f"a user tile set stopped the catalog: {exc!r}") from exc
    bundled = {decode_tileset(b, "b").id for b in bundled_tilesets()}
    if not bundled <= set(catalog.sets):
        raise FormatPromiseBroken("a user tile set hid a bundled one")
    listed = any(f.name == source for f in catalog.files.values())
    if listed == bool(catalog.problems) or (not accepted and listed):
        raise FormatPromiseBroken("the user's tile set was neither listed nor reported")
    if accepted:
        counts.recovered_all += 1
    else:
        counts.refused += 1
    return accepted


def run_tilesets(deadline: float, seed: int, *, draw: bool = True) -> FormatCounts:
    """Fuzz tile set files until ``time.monotonic()`` passes ``deadline``."""
    from afdesk.fuzz.mutate import mutate

    rng = random.Random(seed)
    corpus = bundled_tilesets()
    counts = FormatCounts("tile sets")
    with tempfile.TemporaryDirectory(prefix="afdesk-fuzz-tilesets-") as tmp:
        folder = Path(tmp)
        while time.monotonic() < deadline:
            data = mutate(rng.choice(corpus), rng)
            try:
                check_tileset(data, folder, counts, draw=draw)
            except FormatPromiseBroken as exc:
                kept = Path.cwd() / f"afdesk-fuzz-tileset-{seed}-{counts.cases}.json"
                with contextlib.suppress(OSError):
                    kept.write_bytes(data)
                counts.broken.append(f"{exc} (kept as {kept})")
    return counts


def main(target: str, minutes: float, seed: int | None) -> int:
    """``python -m afdesk.fuzz --target journals|tilesets``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    seed = seed if seed is not None else random.randrange(2**32)
    print(f"seed {seed}", flush=True)
    deadline = time.monotonic() + minutes * 60
    if target == "journals":
        counts = run_journals(deadline, seed)
    else:
        from PySide6.QtWidgets import QApplication

        _app = QApplication.instance() or QApplication([])
        counts = run_tilesets(deadline, seed)
    print(counts.line())
    if counts.kinds:
        print("  by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.kinds.items())))
    for problem in counts.broken[:20]:
        print(f"  {problem}")
    return 1 if counts.broken else 0
