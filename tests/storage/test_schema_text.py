"""The published JSON Schemas are the same text whatever Python writes them: Python 3.13
dedents docstrings as it compiles them, 3.11 and 3.12 keep their indentation, and the
records' docstrings are the schema's descriptions."""

from __future__ import annotations

import inspect
import json
import textwrap

from afdesk.storage import campaign_schema
from afdesk.storage import schema as schema_module
from afdesk.storage.descriptions import clean_descriptions

AS_WRITTEN = (
    "A tile placed in the zone.\n\n    Its kind is a copy:\n      indented on purpose\n    "
)
"""A docstring as Python 3.11 and 3.12 keep it (the source's indentation)."""


def _as_313(doc: str) -> str:
    """What Python 3.13's compiler makes of ``doc``: the lines after the first dedented."""
    first, _, rest = doc.partition("\n")
    return first + "\n" + textwrap.dedent(rest)


def test_an_indented_and_a_dedented_docstring_give_one_description():
    indented = {"description": AS_WRITTEN, "properties": {"x": {"description": AS_WRITTEN}}}
    dedented = {
        "description": _as_313(AS_WRITTEN),
        "properties": {"x": {"description": _as_313(AS_WRITTEN)}},
    }
    assert _as_313(AS_WRITTEN) != AS_WRITTEN
    assert clean_descriptions(indented) == clean_descriptions(dedented)
    text = clean_descriptions(indented)["properties"]["x"]["description"]
    assert text == "A tile placed in the zone.\n\nIts kind is a copy:\n  indented on purpose"


def test_a_property_named_description_stays_a_schema():
    node = {"properties": {"description": {"type": "string", "description": " a\n    b"}}}
    cleaned = clean_descriptions(node)
    assert cleaned["properties"]["description"] == {"type": "string", "description": "a\nb"}


def _descriptions(node, place=""):
    """Every (place, text) of a description under ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield place, value
            else:
                yield from _descriptions(value, f"{place}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _descriptions(item, f"{place}[{i}]")


def test_no_published_description_keeps_a_docstring_indentation():
    for text in (schema_module.schema_text(), campaign_schema.schema_text()):
        found = list(_descriptions(json.loads(text)))
        assert len(found) >= 10  # every record type with a docstring
        for place, value in found:
            assert value == inspect.cleandoc(value), place
