"""msgspec's error messages in words a GM understands, with the place and the bad value.

``Expected `float`, got `str` - at `$.combatants[3].facing``` becomes
``combatants[3].facing: expected a number, got "north"`` (the value is looked up in the
parsed document), and ``JSON is malformed: invalid character (byte 1234)`` names the line
and column.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi

from afdesk.encounter.registry import AnyOp, op_union
from afdesk.encounter.state import AnyMode, Mode

_TYPE_WORDS = {
    "float": "a number",
    "int": "a whole number",
    "str": "text",
    "bool": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
    "bytes": "text",
}

# Patterns compiled on first use (``re`` keeps them): only a file that fails to load, or
# a place named in a message, needs them, and compiling all at import cost the start.
_AT = r"^(?P<msg>.*?)(?: - at `(?P<path>[^`]*)`)?$"  # with re.S
_SEGMENT = r"\.([^.\[]+)|\[(-?\d+)\]"
_TICKED = r"`([^`]*)`"
_BYTE = r"\(byte (\d+)\)"
_EXPECTED = r"Expected `([^`]*)`(?: of length (.+?))?(?:, got `([^`]*)`)?(?:, got (\d+))?$"


def type_words(expr: str) -> str:
    """``array | null`` -> ``a list or null``."""
    return " or ".join(_TYPE_WORDS.get(t.strip(), t.strip()) for t in expr.split("|"))


def path_text(path: str) -> str:
    """``$.combatants[3].facing`` -> ``combatants[3].facing``; the root is "the file"."""
    text = path[1:] if path.startswith("$") else path
    text = text[1:] if text.startswith(".") else text
    return text or "the file"


def at(place: str, problem: str) -> str:
    """``place: problem``, or only the problem when it is about the whole file."""
    return problem if place in ("", "the file") else f"{place}: {problem}"


def path_segments(path: str) -> list[str | int]:
    """``$.log[3].op`` -> ``["log", 3, "op"]``."""
    out: list[str | int] = []
    for key, index in re.findall(_SEGMENT, path[1:] if path.startswith("$") else path):
        out.append(int(index) if index else key)
    return out


_MISSING = object()


def lookup(doc: Any, segments: list[str | int]) -> Any:
    """The value at ``segments`` in a parsed document, or ``_MISSING``."""
    value = doc
    for seg in segments:
        if isinstance(seg, int) and isinstance(value, list):
            if not -len(value) <= seg < len(value):
                return _MISSING
        elif not (isinstance(seg, str) and isinstance(value, dict) and seg in value):
            return _MISSING
        value = value[seg]
    return value


def value_text(value: Any, limit: int = 40) -> str:
    """A value as the GM would see it in the file: ``"north"``, ``1.5``, ``a list``."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        n = len(value)
        return f"a list of {n} item{'' if n == 1 else 's'}" if value else "an empty list"
    try:
        text = msgspec.json.encode(value).decode("utf-8", "replace")
    except (msgspec.EncodeError, TypeError, ValueError, OverflowError):
        # a value msgspec cannot show (a lone surrogate, a huge int): Python's view
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@cache
def _root_info(root: type) -> mi.Type:
    return mi.type_info(root)


def _type_at(root: type, doc: Any, segments: list[str | int]) -> mi.Type | None:
    """The declared type at ``segments`` (following tagged unions by the document's tag)."""
    t: mi.Type | None = _root_info(root)
    value = doc
    for seg in segments:
        t = _resolve(t, value)
        if t is None:
            return None
        if isinstance(t, mi.StructType) and isinstance(seg, str):
            field = next((f for f in t.fields if f.encode_name == seg), None)
            if field is None:
                return None
            t = field.type
        elif isinstance(t, (mi.ListType, mi.VarTupleType)) and isinstance(seg, int):
            t = t.item_type
        elif isinstance(t, mi.TupleType) and isinstance(seg, int):
            t = t.item_types[seg] if seg < len(t.item_types) else None
        elif isinstance(t, mi.StructType) and t.array_like and isinstance(seg, int):
            t = t.fields[seg].type if seg < len(t.fields) else None
        else:
            return None
        value = lookup(value, [seg]) if value is not _MISSING else _MISSING
    return _resolve(t, value)


def _expand(t: Any) -> Any:
    """A field of any registered Op as the union of the Ops registered now."""
    if isinstance(t, mi.CustomType) and t.cls is AnyOp:
        return mi.type_info(op_union())
    return t


def _resolve(t: mi.Type | None, value: Any) -> mi.Type | None:
    """Pick the member of a union that the value is meant to be."""
    t = _expand(t)
    if not isinstance(t, mi.UnionType):
        return t
    structs = [m for m in t.types if isinstance(m, mi.StructType)]
    if structs and isinstance(value, dict):
        tag_field = structs[0].tag_field
        if tag_field is not None and tag_field in value:
            for m in structs:
                if m.tag == value[tag_field]:
                    return m
        return structs[0] if len(structs) == 1 else None
    others = [m for m in t.types if not isinstance(m, mi.NoneType)]
    return others[0] if len(others) == 1 else None


def _choices(root: type, doc: Any, segments: list[str | int]) -> str:
    """The allowed values of an enum, or of a union's tag, at ``segments`` ("" if many)."""
    try:
        t = _type_at(root, doc, segments)
        if isinstance(t, mi.EnumType):
            values = [str(m.value) for m in t.cls]
        elif isinstance(t, mi.CustomType) and t.cls is AnyMode:  # the modes declared now
            values = [str(m.value) for m in Mode]
        elif isinstance(t, mi.LiteralType):
            values = [str(v) for v in t.values]
        else:
            union = _type_at_union(root, doc, segments[:-1])
            if union is None:
                return ""
            values = [str(m.tag) for m in union.types if isinstance(m, mi.StructType)]
    except (LookupError, TypeError, ValueError, AttributeError):
        # the wording is a courtesy: a document of an unexpected shape gets none
        return ""
    if len(values) > 12:
        return f"{len(values)} kinds, such as " + ", ".join(values[:3])
    return ", ".join(values)


def _type_at_union(root: type, doc: Any, segments: list[str | int]) -> mi.UnionType | None:
    if not segments:
        return None
    parent = _type_at(root, doc, segments[:-1])
    if isinstance(parent, mi.StructType) and isinstance(segments[-1], str):
        field = next((f for f in parent.fields if f.encode_name == segments[-1]), None)
        if field is not None:
            expanded = _expand(field.type)
            if isinstance(expanded, mi.UnionType):
                return expanded
    if isinstance(parent, (mi.ListType, mi.VarTupleType)):
        item = _expand(parent.item_type)
        if isinstance(item, mi.UnionType):
            return item
    return None


def validation_text(message: str, doc: Any, root: type) -> str:
    """A msgspec ValidationError message as ``place: problem``."""
    m = re.match(_AT, message.strip(), re.S)
    msg, path = (m.group("msg"), m.group("path") or "$") if m else (message, "$")
    segments = path_segments(path)
    place = path_text(path)
    value = lookup(doc, segments)

    got = re.match(_EXPECTED, msg)
    if got:
        expected = type_words(got.group(1))
        if got.group(2):
            size = got.group(2).replace("<=", "at most").replace(">=", "at least")
            expected = f"{expected} of {size} items"
        if value is not _MISSING:
            shown = value_text(value)
        elif got.group(3):
            shown = type_words(got.group(3))
        else:
            shown = f"{got.group(4)} items" if got.group(4) else ""
        return at(place, f"expected {expected}" + (f", got {shown}" if shown else ""))
    missing = re.match(r"Object missing required field `([^`]*)`", msg)
    if missing:
        return at(place, f'the field "{missing.group(1)}" is missing')
    unknown = re.match(r"Object contains unknown field `([^`]*)`", msg)
    if unknown:
        return at(place, f'unknown field "{unknown.group(1)}"')
    invalid = re.match(r"Invalid (?:enum )?value (.*)$", msg)
    if invalid:
        shown = value_text(value) if value is not _MISSING else invalid.group(1)
        choices = _choices(root, doc, segments)
        text = f"{shown} is not one of the allowed values"
        return at(place, f"{text}: {choices}" if choices else text)
    if msg.startswith("Number out of range"):
        return at(place, "the number is too large (or too small) to hold")
    # Anything else: msgspec's own words, with its type names translated.
    text = re.sub(_TICKED, lambda t: type_words(t.group(1)), msg)
    return at(place, f"{text[:1].lower()}{text[1:]}")


def line_column(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a byte offset."""
    offset = max(0, min(offset, len(data)))
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[start:offset].decode("utf-8", "replace")) + 1
    return line, column


def _near(data: bytes, offset: int) -> str:
    """The text around a byte offset on its line, for pointing at a syntax error."""
    start = max(data.rfind(b"\n", 0, offset) + 1, offset - 12)
    end = data.find(b"\n", offset)
    end = min(len(data) if end < 0 else end, offset + 12)
    text = data[start:end].decode("utf-8", "replace")
    if not text.strip() or not text.isprintable():
        return ""
    return text.strip()


def syntax_text(message: str, data: bytes, kind: str = "an afdesk encounter") -> str:
    """A msgspec DecodeError message as what the file is not (``kind``: "an afdesk
    encounter", "an afdesk campaign", ...), then the place in the file and the problem:
    a wrong file (a picture, a text) says first that it is not one of afdesk's."""
    if "truncated" in message:
        return "the file ends before its JSON is complete (was it cut off?)"
    found = re.search(_BYTE, message)
    what = re.sub(_BYTE, "", message.replace("JSON is malformed: ", "")).strip()
    if not found:
        return f"this is not {kind}: it is not valid JSON ({what})"
    offset = int(found.group(1))
    line, column = line_column(data, offset)
    ahead = data[offset : offset + 9]
    behind = data[max(0, offset - 1) : offset + 9]
    if ahead.lstrip(b"-").startswith((b"NaN", b"Infinity")) or behind.startswith(b"-Infinity"):
        return f"line {line}, column {column}: NaN and Infinity are not numbers a file may hold"
    near = _near(data, offset)
    if what == "invalid character" and ahead[:1] >= b"\x80":
        what, near = "a byte that is not text", ""
    elif what == "invalid character" and ahead[:1] < b" ":
        what, near = "a control character", ""
    place = f"this is not {kind}: line {line}, column {column} is not valid JSON ({what})"
    return f"{place} near: {near}" if near else place


# -------------------------------------------------------------- a document's one place

_SMALL_VALUE = 64 * 1024
"""A value at the place a message names is parsed whole only up to this size."""
_FAR_ITEM = 4096
"""A list is looked into only up to this item (further on, the message names the place
and leaves the value to msgspec's own words)."""


class _Sparse(list):  # type: ignore[type-arg]
    """A list of which only one item was read: ``len`` and indexing reach that item."""

    def __init__(self, index: int, item: Any) -> None:
        super().__init__()
        self._index = index
        self._item = item

    def __len__(self) -> int:
        return self._index + 1

    def __getitem__(self, i: Any) -> Any:
        if i == self._index:
            return self._item
        raise IndexError(i)


@cache
def _tag_fields(root: type) -> frozenset[str]:
    """The tag fields of the tagged unions below ``root`` ("op": which Op a change is)."""
    found: set[str] = set()
    seen: set[Any] = set()
    stack: list[Any] = [_root_info(root)]
    while stack:
        t = _expand(stack.pop())
        if isinstance(t, mi.StructType):
            if t.cls in seen:
                continue
            seen.add(t.cls)
            if t.tag_field is not None:
                found.add(t.tag_field)
            stack.extend(f.type for f in t.fields)
        elif isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
            stack.append(t.item_type)
        elif isinstance(t, mi.TupleType):
            stack.extend(t.item_types)
        elif isinstance(t, mi.UnionType):
            stack.extend(t.types)
        elif isinstance(t, mi.DictType):
            stack.append(t.value_type)
    return frozenset(found)


@cache
def _object_reader(keys: tuple[str, ...]) -> msgspec.json.Decoder[Any]:
    none = msgspec.Raw(b"")
    fields = [(f"f{i}", msgspec.Raw, none) for i in range(len(keys))]
    rename = {f"f{i}": key for i, key in enumerate(keys)}
    return msgspec.json.Decoder(msgspec.defstruct("Keys", fields, rename=rename))


@cache
def _item_reader(index: int) -> msgspec.json.Decoder[Any]:
    none = msgspec.Raw(b"")
    fields = [(f"i{i}", msgspec.Raw, none) for i in range(index + 1)]
    return msgspec.json.Decoder(msgspec.defstruct("Items", fields, array_like=True))


def document_along(data: bytes, path: str, root: type) -> Any:
    """What :func:`validation_text` needs of a document, read from its bytes without
    parsing the rest: along ``path`` (msgspec's ``$.log[3].op``), each object with only
    the key on the path and its union tags, each list with only the item on the path, and
    the value at the end whole if it is small. Memory stays small whatever the file's
    size (parsing a whole 60 MB file into Python objects takes gigabytes); a place it
    cannot reach cheaply is left out (the message then names the place without the
    value)."""
    segments = path_segments(path)
    tags = tuple(sorted(_tag_fields(root)))
    raw = bytes(data)
    try:
        return _along(raw, segments, tags)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        return None


def _along(raw: bytes, segments: list[str | int], tags: tuple[str, ...]) -> Any:
    if not segments:
        if len(raw) > _SMALL_VALUE:
            return _MISSING
        return msgspec.json.decode(raw)
    seg, rest = segments[0], segments[1:]
    head = raw.lstrip()[:1]
    if isinstance(seg, str):
        if head != b"{":
            return None
        keys = (seg, *(t for t in tags if t != seg))
        got = _object_reader(keys).decode(raw)
        out: dict[str, Any] = {}
        for i, key in enumerate(keys):
            value = bytes(getattr(got, f"f{i}"))
            if not value:
                continue
            if key == seg:
                inner = _along(value, rest, tags)
                if inner is not _MISSING:
                    out[key] = inner
            elif len(value) <= 256:
                out[key] = msgspec.json.decode(value)
        return out
    if head != b"[" or not 0 <= seg <= _FAR_ITEM:
        return _Sparse(-1, None)
    value = bytes(getattr(_item_reader(seg).decode(raw), f"i{seg}"))
    if not value:
        return _Sparse(-1, None)
    inner = _along(value, rest, tags)
    return _Sparse(seg, inner) if inner is not _MISSING else _Sparse(seg - 1, None)


def validation_text_in(message: str, data: bytes, root: type) -> str:
    """:func:`validation_text` for a document given as bytes: only the path the message
    names is read (:func:`document_along`)."""
    m = re.match(_AT, message.strip(), re.S)
    path = (m.group("path") or "$") if m else "$"
    return validation_text(message, document_along(data, path, root), root)
