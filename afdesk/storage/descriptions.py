"""The published schemas' descriptions (the records' docstrings, as msgspec takes them) in
one form whatever Python wrote them: :mod:`afdesk.storage.schema` and the campaign's
schema (:mod:`afdesk.storage.campaign`) both write them so."""

from __future__ import annotations

import inspect
from typing import Any


def clean_descriptions(node: Any) -> Any:
    """``node`` with every ``description`` (a record's docstring, as msgspec takes it) in
    one form whatever Python made the docstring: the common indentation of the lines after
    the first removed, leading and trailing blank lines and every line's trailing spaces
    dropped (``inspect.cleandoc``). Python 3.13 dedents docstrings as it compiles them and
    3.11 keeps them as written: without this the published schema would depend on the
    Python that wrote it."""
    if isinstance(node, dict):
        # a text; a property named "description" (a dict: its schema) is walked into
        return {
            key: _clean(value)
            if key == "description" and isinstance(value, str)
            else clean_descriptions(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [clean_descriptions(item) for item in node]
    return node


def _clean(text: str) -> str:
    return "\n".join(line.rstrip() for line in inspect.cleandoc(text).splitlines())


__all__ = ["clean_descriptions"]
