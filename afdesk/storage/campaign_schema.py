"""The JSON Schema of the campaign file (``resources/schema/afdesk-campaign.vN.schema.json``),
written by ``python -m afdesk.storage.schema`` beside the encounter file's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from afdesk.encounter.campaign.state import Campaign
from afdesk.storage.campaign import CURRENT_VERSION, FORMAT
from afdesk.storage.descriptions import clean_descriptions


def schema() -> dict[str, Any]:
    """The JSON Schema of a campaign file of the current version."""
    _, raw = msgspec.json.schema_components([Campaign], ref_template="#/$defs/{name}")
    defs = clean_descriptions(dict(raw))
    root = defs.pop("Campaign")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"afdesk campaign file, version {CURRENT_VERSION}",
        "description": (
            "A campaign's roster (band, recurring characters, bestiary) and its encounters. "
            "Beyond this schema, afdesk refuses a field it does not know, an id given twice, "
            "a character that breaks its limits (negative grit, grit above its most, any "
            "number beyond the limits an encounter holds it to), an encounter file that is "
            "not a plain name in the campaign folder, and a last_running that is not an "
            "encounter's id; `afdesk check` also refuses a campaign whose encounter files "
            "are missing or broken."
        ),
        "type": "object",
        "properties": {
            "format": {"const": FORMAT},
            "schema_version": {"const": CURRENT_VERSION},
            **root["properties"],
        },
        "required": ["format", "schema_version", *root.get("required", [])],
        "$defs": defs,
    }


def schema_text() -> str:
    return json.dumps(schema(), indent=1, ensure_ascii=False) + "\n"


def schema_path() -> Path:
    from afdesk.paths import resource_dir

    return resource_dir() / "schema" / f"afdesk-campaign.v{CURRENT_VERSION}.schema.json"


def write_schema(path: Path | None = None) -> Path:
    path = schema_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_text(), encoding="utf-8", newline="\n")
    return path


__all__ = ["schema", "schema_path", "schema_text", "write_schema"]
