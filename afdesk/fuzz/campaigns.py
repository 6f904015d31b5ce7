"""Fuzzing campaign files (``campaign.afcamp``) and character files (``.afchars``).

A campaign (band, recurring characters and a bestiary with states, facets and speeds;
encounters prepared, running and finished, with their files beside it) and its character
files are broken on purpose: the JSON structure and the bytes (:mod:`afdesk.fuzz.mutate`,
with nesting up to 100,000 deep), and the campaign's folder (an encounter file deleted
or broken). The promises, for every result:

1. Refused: a :class:`~afdesk.storage.LoadError` naming the file, on one line, never
   another exception; ``afdesk check`` exits 2 and prints the file with the place.
2. Accepted: it saves and loads back equal; every roster character can join an
   encounter (the encounter's limits, E15, R10) and the encounter saves; a character
   file merges into a campaign that saves and loads back equal; ``afdesk check`` exits
   0 for a whole campaign, and 2 with the place when an encounter file it needs is
   missing or broken.

``python -m afdesk.fuzz --target campaigns|characters --minutes N`` runs one for N
minutes; tests/storage/test_fuzz_campaigns.py runs a bounded, derandomized number.
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from afdesk.fuzz.mutate import deep, mutate


class CampaignPromiseBroken(AssertionError):
    """A broken campaign or character file broke a promise (the message says how)."""


@dataclass
class CampaignCounts:
    what: str
    cases: int = 0
    accepted: int = 0
    refused: int = 0
    missing: int = 0
    """Accepted campaign files whose folder lacked (or held a broken) encounter file:
    ``afdesk check`` named it and exited 2."""
    broken: list[str] = field(default_factory=list)

    def line(self) -> str:
        folder = (
            f" ({self.missing} of them with an encounter file missing or broken, named "
            "by afdesk check)"
            if self.what == "campaigns"
            else ""
        )
        return (
            f"{self.cases} {self.what} fuzzed: {self.accepted} accepted and used{folder}, "
            f"{self.refused} refused with a message, {len(self.broken)} broke a promise"
        )


def sample_campaign() -> Any:
    """A campaign that uses every kind of field a campaign file holds."""
    from afdesk.encounter.campaign.roster import Character, Role
    from afdesk.encounter.campaign.state import Campaign, CampaignLogEntry, Planned, Play
    from afdesk.encounter.combatant import D20Profile, Facet, Side, Speeds, State, StateKind

    return Campaign(
        name="The river",
        characters=(
            Character(
                id="huang",
                name="Huang",
                role=Role.BAND,
                grit=2,
                hits=1,
                shifts=1,
                days_since_rest=2,
                states=(State(StateKind.EXHAUSTED), State(StateKind.WOUNDED, markers=2)),
                notes="the monk",
                d20=D20Profile(quick=2, training=1),
            ),
            Character(id="mara", name="Mara", role=Role.RECURRING, side=Side.FOLLOWER),
            Character(
                id="bandit-archer",
                name="Bandit archer",
                role=Role.TEMPLATE,
                side=Side.OPPONENT,
                facets=(Facet("fight", 3), Facet("aim", 4)),
                speeds=Speeds(run=3),
                weapon_range=6,
                will=1,
            ),
        ),
        encounters=(
            Planned(id="ford", title="The ford", file="ford.afenc"),
            Planned(
                id="mill",
                title="The mill",
                file="mill.afenc",
                play=Play.RUNNING,
                running="mill.run1.afenc",
                runs=1,
                last_played="2026-11-20T20:15:00+01:00",
            ),
            Planned(
                id="camp",
                title="The camp",
                file="camp.afenc",
                play=Play.FINISHED,
                running="camp.run2.afenc",
                runs=2,
                carried=True,
            ),
        ),
        session=2,
        referee_shifts=1,
        last_running="mill",
        log=(CampaignLogEntry("Run The mill", 2),),
    )


def _corpus(what: str) -> list[bytes]:
    from afdesk.storage import campaign as store

    camp = sample_campaign()
    if what == "campaigns":
        return [store.encode_campaign(camp)]
    return [store.encode_characters(camp.characters), store.encode_characters(camp.bestiary)]


def _broken_message(text: str, source: str) -> str:
    if not text.startswith(f"{source}: ") or "\n" in text or "Traceback" in text:
        return f"a badly placed message: {text[:300]!r}"
    if "unexpected error" in text:
        return f"a bug reported as a message: {text[:300]!r}"
    return ""


def _check_says(path: Path, ok: bool) -> str:
    """``afdesk check`` on ``path``: exit 0 and "ok", or exit 2 and a place."""
    from afdesk.storage.check import check_files

    out = io.StringIO()
    status = check_files([str(path)], out=out)
    line = out.getvalue()
    if ok and (status, line) != (0, f"{path}: ok\n"):
        return f"afdesk check said {status}: {line[:300]!r} for a good file"
    if not ok and (status != 2 or not line.startswith(f"{path}: ") or line.count("\n") != 1):
        return f"afdesk check said {status}: {line[:300]!r} for a broken one"
    if not ok and ("unexpected error" in line or line.strip() == f"{path}: ok"):
        return f"afdesk check gave no place: {line[:300]!r}"
    return ""


def _joins_an_encounter(characters: Any) -> str:
    """Every character can join an encounter, and that encounter saves and loads."""
    from afdesk.encounter.campaign.build import add_copies, add_link
    from afdesk.storage import decode, encode
    from afdesk.storage.samples import build

    enc = build()
    for c in characters:
        try:
            ops = [add_link(enc, c)] if c.role.linked else list(add_copies(enc, c, 1))
            for op in ops:
                enc.apply(op)
        except Exception as exc:
            return f"{c.name} could not join an encounter: {type(exc).__name__}: {exc}"
    try:
        state = enc.state()
        if decode(encode(state)) != state:
            return "an encounter with the roster saved and loaded differs"
    except Exception as exc:
        return f"an encounter with the roster could not be saved: {type(exc).__name__}: {exc}"
    return ""


def _prepare_folder(folder: Path, rng: random.Random) -> bool:
    """The encounter files of the sample campaign beside it; sometimes one is deleted
    or broken. True if all are there and whole."""
    from afdesk.paths import sample_encounter

    names = ["ford.afenc", "mill.afenc", "mill.run1.afenc", "camp.afenc", "camp.run2.afenc"]
    for name in names:
        shutil.copyfile(sample_encounter(), folder / name)
    if rng.random() < 0.2:
        victim = folder / rng.choice(names)
        if rng.random() < 0.5:
            victim.unlink()
        else:
            victim.write_bytes(victim.read_bytes()[: rng.randrange(40)])
        return False
    return True


def check_campaign(data: bytes, folder: Path, rng: random.Random, counts: CampaignCounts) -> bool:
    """The promises for one campaign file's bytes in a fresh folder: True if accepted,
    False if refused; :class:`CampaignPromiseBroken` otherwise."""
    from afdesk.storage import campaign as store
    from afdesk.storage.errors import LoadError

    counts.cases += 1
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    whole = _prepare_folder(folder, rng)
    path = folder / store.FILE_NAME
    path.write_bytes(data)
    problem = ""
    try:
        loaded = store.load_campaign(folder)
    except LoadError as exc:
        problem = _broken_message(str(exc), store.FILE_NAME) or _check_says(folder, ok=False)
        accepted = False
    except Exception as exc:
        problem = f"loading raised {type(exc).__name__}: {str(exc)[:300]}"
        accepted = False
    else:
        accepted = True
        camp = loaded.campaign
        try:
            again, _ = store.decode_campaign(store.encode_campaign(camp))
            if again != camp:
                problem = "saved and loaded again, the campaign differs"
        except Exception as exc:
            problem = f"accepted, then saving it: {type(exc).__name__}: {str(exc)[:300]}"
        problem = problem or _joins_an_encounter(camp.characters)
        needed = store.encounter_problems(loaded)
        if not whole and not needed and _lists_all(camp):
            problem = problem or "an encounter file was missing or broken, and nobody said"
        if needed:
            counts.missing += 1
        problem = problem or _check_says(folder, ok=not needed)
    if path.read_bytes() != data:
        problem = problem or "the campaign file was changed"
    if problem:
        raise CampaignPromiseBroken(problem)
    if accepted:
        counts.accepted += 1
    else:
        counts.refused += 1
    return accepted


def _lists_all(camp: Any) -> bool:
    """Whether ``camp`` still needs every encounter file of the sample (a mutation may
    have dropped an encounter, whose file then does not matter)."""
    from afdesk.storage.campaign import _files_needed

    return len({name for _, name, _ in _files_needed(camp)}) == 5


def check_characters(data: bytes, folder: Path, counts: CampaignCounts) -> bool:
    """The promises for one character file's bytes: True if accepted (and merged into a
    campaign that saves and loads back), False if refused; :class:`CampaignPromiseBroken`
    otherwise."""
    from afdesk.encounter.campaign.merge import merge
    from afdesk.storage import campaign as store
    from afdesk.storage.errors import LoadError

    counts.cases += 1
    folder.mkdir(parents=True, exist_ok=True)
    source = "fuzz.afchars"
    path = folder / source
    path.write_bytes(data)
    problem = ""
    try:
        chars = store.import_characters(path)
    except LoadError as exc:
        problem = _broken_message(str(exc), source) or _check_says(path, ok=False)
        accepted = False
    except Exception as exc:
        problem = f"importing raised {type(exc).__name__}: {str(exc)[:300]}"
        accepted = False
    else:
        accepted = True
        try:
            camp = sample_campaign()
            for edit in merge(camp, chars):
                camp = edit.change(camp)
            again, _ = store.decode_campaign(store.encode_campaign(camp))
            if again != camp:
                problem = "merged into a campaign, saved and loaded again, it differs"
        except Exception as exc:
            problem = f"accepted, then merging it: {type(exc).__name__}: {str(exc)[:300]}"
        problem = problem or _joins_an_encounter(chars) or _check_says(path, ok=True)
    if problem:
        raise CampaignPromiseBroken(problem)
    if accepted:
        counts.accepted += 1
    else:
        counts.refused += 1
    return accepted


def broken_file(data: bytes, rng: random.Random) -> bytes:
    """One fuzzed file: mostly :func:`~afdesk.fuzz.mutate.mutate`, sometimes nested deep."""
    if rng.random() < 0.05:
        try:
            return deep(data, rng)
        except (ValueError, RecursionError):
            pass
    return mutate(data, rng)


def run(what: str, deadline: float, seed: int, *, stop_after: int = 0) -> CampaignCounts:
    """Fuzz ``what`` ("campaigns" or "characters") until ``time.monotonic()`` passes
    ``deadline`` (or ``stop_after`` files). A file that breaks a promise is kept in the
    current folder."""
    rng = random.Random(seed)
    corpus = _corpus(what)
    counts = CampaignCounts(what if what == "campaigns" else "character files")
    with tempfile.TemporaryDirectory(prefix="afdesk-fuzz-campaign-") as tmp:
        folder = Path(tmp) / "case"
        while time.monotonic() < deadline and not (stop_after and counts.cases >= stop_after):
            data = broken_file(rng.choice(corpus), rng)
            try:
                if what == "campaigns":
                    check_campaign(data, folder, rng, counts)
                else:
                    check_characters(data, folder, counts)
            except CampaignPromiseBroken as exc:
                suffix = ".afcamp" if what == "campaigns" else ".afchars"
                kept = Path.cwd() / f"afdesk-fuzz-{what}-{seed}-{counts.cases}{suffix}"
                with contextlib.suppress(OSError):
                    kept.write_bytes(data)
                counts.broken.append(f"{exc} (kept as {kept})")
    return counts


def main(what: str, minutes: float, seed: int | None) -> int:
    """``python -m afdesk.fuzz --target campaigns|characters``."""
    seed = seed if seed is not None else random.randrange(2**32)
    print(f"seed {seed}", flush=True)
    counts = run(what, time.monotonic() + minutes * 60, seed)
    print(counts.line())
    for problem in counts.broken[:20]:
        print(f"  {problem}")
    return 1 if counts.broken else 0
