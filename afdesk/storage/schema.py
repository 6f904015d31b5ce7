"""The published JSON Schema of the encounter file (``resources/schema/``).

Regenerate it after a change to the model with ``python -m afdesk.storage.schema``; a test
fails while the published file is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Union

import msgspec

from afdesk.encounter.limits import bound_place
from afdesk.encounter.modes import mode_object
from afdesk.encounter.registry import AnyOp, registered_ops
from afdesk.encounter.restore import Restore
from afdesk.encounter.snapshot import EncounterState
from afdesk.encounter.state import AnyMode, Mode
from afdesk.storage import meaning, migrations
from afdesk.storage.descriptions import clean_descriptions


def _components() -> dict[str, Any]:
    """The schemas of the encounter and of every Op afdesk itself defines, by name. A field
    that holds any Op (see afdesk.encounter.registry) is the tagged union of those; Ops
    and modes that plug-ins (or tests) register later are not part of the published
    format (the file's layout and the inverse are the installed modes')."""
    ref = "#/$defs/{name}"
    ours = tuple(
        Restore if c.__module__ == Restore.__module__ else c  # the installed modes' inverse
        for c in registered_ops()
        if c.__module__.startswith("afdesk.")
    )
    ops = Union[ours]  # type: ignore[valid-type]  # noqa: UP007 - a runtime union of the classes
    (union,), _ = msgspec.json.schema_components(
        [ops], schema_hook=lambda t: {"anyOf": []}, ref_template=ref
    )

    def hook(t: type) -> dict[str, Any]:
        if t is AnyOp:
            return union
        if t is AnyMode:
            return {"$ref": ref.format(name="Mode")}
        raise NotImplementedError

    (state, _), defs = msgspec.json.schema_components(
        [EncounterState, ops], schema_hook=hook, ref_template=ref
    )
    return _in_reference_order([state, union], {**defs, "Mode": _modes()})


def _modes() -> dict[str, Any]:
    """The modes afdesk itself installs (as its own Ops: a plug-in's or a test's mode is
    not part of the published format), as msgspec writes an enum."""
    ours = [m.value for m in Mode if type(mode_object(m)).__module__.startswith("afdesk.")]
    doc = (Mode.__doc__ or "").split("\n\n")[0]
    return {"title": "Mode", "description": doc, "enum": ours}


def _in_reference_order(roots: list[Any], defs: dict[str, Any]) -> dict[str, Any]:
    """``defs`` in the order a walk from ``roots`` first refers to each, depth first: the
    order msgspec itself gives them (so the modes, described here, sit where msgspec would
    have put an enum of them)."""
    order: dict[str, Any] = {}
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(reversed([v for k, v in node.items() if k != "$ref"]))
            name = node.get("$ref", "").rsplit("/", 1)[-1]
            if name and name not in order:
                order[name] = defs[name]
                stack.append(defs[name])
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return order


def _nodes(node: Any, defs: dict[str, Any], steps: list[str]) -> list[dict[str, Any]]:
    """The schemas a place pattern (split in steps: a field, ``[]`` every item, ``[1]`` the
    second item of a pair) reaches."""
    while isinstance(node, dict) and "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    if not isinstance(node, dict):
        return []
    if "anyOf" in node:
        return [n for member in node["anyOf"] for n in _nodes(member, defs, steps)]
    if not steps:
        return [node]
    step, rest = steps[0], steps[1:]
    if step[:1] == "[" and step[1:-1].isdigit():
        items = node.get("prefixItems", ())
        index = int(step[1:-1])
        return _nodes(items[index], defs, rest) if index < len(items) else []
    if step == "[]":
        found = [n for item in node.get("prefixItems", ()) for n in _nodes(item, defs, rest)]
        if isinstance(node.get("items"), dict):
            found += _nodes(node["items"], defs, rest)
        return found
    props = node.get("properties", {})
    return _nodes(props[step], defs, rest) if step in props else []


def _place_steps(place: str) -> list[str]:
    return [s for s in place.replace("[", ".[").replace("]", "].").split(".") if s]


def bound_nodes(defs: dict[str, Any], cls: type, bound: meaning.Bound) -> list[dict[str, Any]]:
    """The number schemas of the record type ``cls`` that ``bound`` limits (wherever the
    type is used: in the roster and in every Op that carries one)."""
    steps = _place_steps(bound_place(cls, bound))
    found = _nodes(defs[cls.__name__], defs, steps)
    return [n for n in found if n.get("type") in ("integer", "number")]


def _limits(defs: dict[str, Any]) -> None:
    """Write the limits of :mod:`afdesk.encounter.limits` into the schema as bounds."""
    for cls, bounds in meaning.BOUNDS.items():
        if cls.__name__ not in defs:
            continue  # a record of a mode that is not published (a plug-in's, a test's)
        for bound in bounds:
            limit = bound.limit
            for node in bound_nodes(defs, cls, bound):
                node["minimum"] = limit.low
                node["maximum"] = limit.high
                node.setdefault("description", limit.why[:1].upper() + limit.why[1:] + ".")


def schema() -> dict[str, Any]:
    """The JSON Schema of a file of the current version."""
    defs = clean_descriptions(_components())
    _limits(defs)
    state = defs.pop("EncounterState")
    version = migrations.CURRENT_VERSION
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"afdesk encounter file, version {version}",
        "description": (
            f"{state.get('description', '')} The bounds on a record type hold wherever "
            "it appears, in the log's Ops too. Beyond this schema, afdesk refuses files over "
            "64 MiB, nesting deeper than 64, NaN or Infinity, keys given twice, whole "
            "numbers beyond 64 bits, a segment with no area, a character, hand or tile "
            "kind id given twice, two tiles in one place, a hand member, turn order "
            "entry or interjection that is not a character's id, a tile whose kind is "
            "not one of the zone's, and a turn index outside the turn order."
        ).strip(),
        "type": "object",
        "properties": {
            "format": {"const": migrations.FORMAT},
            "schema_version": {"const": version},
            **state["properties"],
        },
        "required": ["format", "schema_version", *state.get("required", [])],
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the published file holds it."""
    return json.dumps(schema(), indent=1, ensure_ascii=False) + "\n"


def schema_path() -> Path:
    """The published schema file of the current version."""
    from afdesk.paths import resource_dir

    version = migrations.CURRENT_VERSION
    return resource_dir() / "schema" / f"afdesk-encounter.v{version}.schema.json"


def write_schema(path: Path | None = None) -> Path:
    """Write the schema file (the published one by default); returns its path."""
    path = schema_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_text(), encoding="utf-8", newline="\n")
    return path


def main() -> int:
    """``python -m afdesk.storage.schema``: rewrite the published schema."""
    print(f"wrote {write_schema()}")
    from afdesk.storage import campaign_schema

    print(f"wrote {campaign_schema.write_schema()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
