"""A mode's Ops are imported when first needed, not with the mode (E16): each installed
mode declares the tags of its Ops (``EncounterMode.op_tags``), so that a battle's file
loads without them, a file whose log names one of them loads that mode's Ops, and a mode
in play (entered, or the mode of the file opened) has its Ops. Every Op is still
registered when all are asked for (``registered_ops``: the schema, the full decoder), and
the declarations hold exactly the Ops the modes' modules define."""

from __future__ import annotations

import json
import subprocess
import sys

from afdesk.encounter import installed
from afdesk.encounter.modes import registered_modes
from afdesk.encounter.registry import ops_tagged, registered_ops

OPS_MODULES = {
    "chase": ("check", "ops", "special", "stage"),
    "dispute": ("checks", "convince", "ops"),
    "infiltration": ("ops", "setup"),
}
"""The modules of each installed mode's Ops (and the dispute's checks, which use them)."""

PROBE = """
import json, sys
MODULES = {modules!r}

def loaded():
    return sorted(
        f"{{mode}}.{{m}}" for mode, ms in MODULES.items() for m in ms
        if f"afdesk.encounter.{{mode}}.{{m}}" in sys.modules
    )

out = {{}}
{body}
print(json.dumps(out))
"""


def _probe(body: str) -> dict:
    code = PROBE.format(modules=OPS_MODULES, body=body)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_each_mode_declares_the_tags_of_exactly_its_own_ops():
    by_folder: dict[str, set[str]] = {}
    for cls in registered_ops():
        parts = cls.__module__.split(".")
        if parts[:2] == ["afdesk", "encounter"] and parts[2] in installed.FOLDERS:
            by_folder.setdefault(parts[2], set()).add(cls.__name__)
    declared = {}
    for m in registered_modes():  # a test's mode (tests/toy_mode.py) lives elsewhere
        parts = type(m).__module__.split(".")
        if parts[:2] == ["afdesk", "encounter"] and parts[2] in installed.FOLDERS:
            declared[parts[2]] = set(m.op_tags)
    assert declared == by_folder
    assert set(OPS_MODULES) == set(installed.FOLDERS)


def test_tags_find_their_ops_and_an_unknown_tag_finds_none():
    found = ops_tagged({"AddCombatant", "RollPursuit", "AddPlatform"})
    assert found is not None
    assert {tag: cls.__name__ for tag, cls in found.items()} == {
        "AddCombatant": "AddCombatant",
        "RollPursuit": "RollPursuit",
        "AddPlatform": "AddPlatform",
    }
    assert ops_tagged({"AddCombatant", "NoSuchOp"}) is None
    assert ops_tagged(set()) == {}


def test_a_battles_file_loads_no_modes_ops_and_a_chase_file_loads_the_chases():
    """The model, the loader and the bundled battle load no mode's Ops (the start opens
    it); the bundled chase, whose log names the chase's Ops, loads those and no other
    mode's, and is written back byte for byte."""
    got = _probe(
        """
from afdesk.encounter.model import Encounter
from afdesk.paths import chase_sample_encounter, sample_encounter
from afdesk.storage import encode, load
Encounter.from_state(load(sample_encounter()).state)
out["battle"] = loaded()
state = load(chase_sample_encounter()).state
out["chase"] = loaded()
out["log"] = [type(e.op).__name__ for e in state.log]
out["same"] = encode(state) == chase_sample_encounter().read_bytes()
"""
    )
    assert got["battle"] == []
    assert "chase.ops" in got["chase"] and "SetParticipant" in got["log"]
    assert not [m for m in got["chase"] if not m.startswith("chase.")]
    assert got["same"]


def test_a_mode_entered_or_opened_has_its_ops():
    """Entering the infiltration (ChangeMode, E16) loads its Ops, and one of them then
    plays (N4a); an encounter opened in the dispute's mode has the dispute's."""
    got = _probe(
        """
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.state import Mode
from afdesk.encounter.registry import ops_tagged
from afdesk.paths import sample_encounter
from afdesk.storage import load
import msgspec
state = load(sample_encounter()).state
enc = Encounter.from_state(state)
out["before"] = loaded()
enc.apply(ChangeMode(Mode("infiltration")))
out["entered"] = loaded()
SetObscured = ops_tagged({"SetObscured"})["SetObscured"]
enc.apply(SetObscured(((3, 4),)))
from afdesk.encounter.infiltration.state import infiltration_of
out["obscured"] = [list(a) for a in infiltration_of(enc).obscured]
disputing = Encounter.from_state(msgspec.structs.replace(state, mode=Mode("dispute")))
from afdesk.encounter.modes import current_mode
current_mode(disputing)
out["dispute"] = loaded()
"""
    )
    assert got["before"] == []
    assert {"infiltration.ops", "infiltration.setup"} <= set(got["entered"])
    assert not [m for m in got["entered"] if not m.startswith("infiltration.")]
    assert got["obscured"] == [[3, 4]]
    assert {"dispute.checks", "dispute.convince", "dispute.ops"} <= set(got["dispute"])


def test_every_op_is_registered_when_all_are_asked_for():
    got = _probe(
        """
from afdesk.encounter.registry import registered_ops
out["names"] = sorted(c.__name__ for c in registered_ops())
out["loaded"] = loaded()
"""
    )
    assert sorted(f"{mode}.{m}" for mode, ms in OPS_MODULES.items() for m in ms) == got["loaded"]
    own = sorted(c.__name__ for c in registered_ops() if c.__module__.startswith("afdesk."))
    assert got["names"] == own  # (other tests register Ops of their own in this process)
