"""Loading a file costs the start little: the app and ``export-png`` import the
model, the loader and every Op before Qt and load the sample, and that loads no exact odds
(the rulesets and the chase rules import them when odds are asked for) and no OpenSSL
(small files are hashed by CPython's own SHA-256), in a fresh process. The records a file
decodes carry evaluated annotations: with ``from __future__ import annotations`` msgspec
parses every field's annotation string (twice: the file's decoder and the limits' plans)."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import subprocess
import sys

import msgspec

from afdesk.storage import codec

LOAD = """
import sys, json
import afdesk.encounter.model
import afdesk.storage
from afdesk.encounter.registry import registered_ops
registered_ops()
import afdesk.paths
loaded = afdesk.storage.load(afdesk.paths.sample_encounter())
assert loaded.state.combatants
print(json.dumps(sorted(sys.modules)))
"""

RECORD_MODULES = (
    "afdesk.encounter.op",  # every Op's base: its ClassVars are read for each Op class
    "afdesk.encounter.checks",
    "afdesk.encounter.combatant",
    "afdesk.encounter.contest.assembly",
    "afdesk.encounter.contest.ops",
    "afdesk.encounter.restore",
    *(
        f"afdesk.encounter.ops.{name}"
        for name in (
            "economy",
            "editor",
            "meta",
            "move",
            "reflex",
            "roster",
            "zone",
        )
    ),
    "afdesk.encounter.chase.check",
    "afdesk.encounter.chase.ops",
    "afdesk.encounter.chase.special",
    "afdesk.encounter.chase.stage",
    "afdesk.encounter.chase.state",
    "afdesk.encounter.fog",
    "afdesk.encounter.reflex",
    "afdesk.encounter.snapshot",
    "afdesk.encounter.state",
    "afdesk.encounter.weapons",
    "afdesk.encounter.zone",
    "afdesk.rules.contest",
    "afdesk.rules.d20",
    "afdesk.rules.dice",
    "afdesk.rules.outcome",
    "afdesk.rules.verdict",
)
"""The modules of the records and Ops most of a file is made of."""


def test_loading_the_sample_imports_no_odds_and_no_openssl():
    done = subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert not {m for m in loaded if "odds" in m}, sorted(m for m in loaded if "odds" in m)
    assert "afdesk.rules.pursuit.checks" not in loaded
    assert "hashlib" not in loaded and "_hashlib" not in loaded


def test_the_odds_still_answer_through_the_rulesets_and_the_chase_rules():
    from afdesk.rules import pursuit
    from afdesk.rules.odds import Cooperation, PoolSpec
    from afdesk.rules.rulesets import DEFAULT, OddsInput, ruleset_named

    assert OddsInput == PoolSpec | importlib.import_module("afdesk.rules.odds").CheckState | (
        Cooperation
    )
    odds = DEFAULT.check_odds(PoolSpec(3, 0))
    assert 0 < odds.p_success < 1
    assert callable(pursuit.turn_odds) and pursuit.TurnOdds.__name__ == "TurnOdds"
    assert ruleset_named("d20-degrees").p_success(0) > 0


def test_a_digest_is_sha256_whatever_the_size():
    for data in (b"", b"abc", bytes(range(256)) * 1024, b"x" * (codec._SMALL_DIGEST + 1)):
        assert codec.digest(data) == hashlib.sha256(data).hexdigest()


def test_the_record_modules_keep_their_annotations_evaluated():
    for name in RECORD_MODULES:
        module = importlib.import_module(name)
        assert not hasattr(module, "annotations"), f"{name} defers its annotations"
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, msgspec.Struct):
                if value.__module__ != name:
                    continue
                own = inspect.get_annotations(value)
                strings = {k: v for k, v in own.items() if isinstance(v, str)}
                # a forward reference to a record defined further down stays a string
                assert len(strings) <= 1, (value, strings)


SAME_READING = """
import sys, hashlib
{first}
import afdesk.storage
import afdesk.paths
from afdesk.encounter.registry import registered_ops
from afdesk.storage.schema import schema_text

registered_ops()
loaded = afdesk.storage.load(afdesk.paths.sample_encounter())
import typing
reader = sys.modules["msgspec._utils"]._get_type_hints
extensions = sys.modules.get("typing_extensions")
if extensions is not None:  # msgspec's reader is that package's (on 3.13 typing's own)
    reads_with = "typing_extensions" if reader is extensions.get_type_hints else "?"
else:
    reads_with = "typing" if reader is typing.get_type_hints else "?"
digest = hashlib.sha256(afdesk.storage.encode(loaded.state) + schema_text().encode()).hexdigest()
print(reads_with, extensions is not None, digest)
"""


def _reading(first: str) -> tuple[str, str, str]:
    done = subprocess.run(
        [sys.executable, "-c", SAME_READING.format(first=first)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    reader, imported, digest = done.stdout.split()
    return reader, imported, digest


def test_msgspec_reads_the_model_without_typing_extensions_and_to_the_same_effect():
    """afdesk.msgspec_first: the pure layers import msgspec with ``typing_extensions`` out
    of sight (about 3 ms of the window's start); where a process had imported it already
    (pytest-qt does) msgspec keeps it. The sample saved again and the published schema are
    the same bytes either way."""
    alone = _reading("")
    beside = _reading("import typing_extensions")
    assert alone[:2] == ("typing", "False"), alone
    assert beside[:2] == ("typing_extensions", "True"), beside
    assert alone[2] == beside[2]
