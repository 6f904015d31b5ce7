"""The encounter file format: bytes <-> EncounterState, with every limit and check.

The layout is JSON that a GM can read and a diff can follow, without the bulk of full
indentation::

    {"format":"afdesk-encounter","schema_version":1,
    "meta":{"name":"Ambush at the river ford","ruleset":...,...},
    "zone":{"tileset":"wilderness","tiles":[
     {"col":0,"row":0,"kind":"forest",...},
     ...
    ],"edges":[...]},
    "combatants":[
     {"id":"huang","name":"Green-Jade Huang",...},
     ...
    ],
    ...
    "log":[
     {"op":{"op":"AddCombatant",...},"text":"Green-Jade Huang (band) joins the encounter"},
     ...
    ]}

One field of the encounter per line, and one character, tile, hand or log entry per line.
The encounter-wide records (meta, settings, turn, ...) spell out every field, defaults
included, so the ruleset and the pursuit-die colour are always in the file; deeper records
leave out fields at their default (``omit_defaults`` in the model) to stay compact. The
bytes depend only on the state, so saving an unchanged encounter writes identical bytes.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
from collections.abc import Iterator, Sequence
from typing import Any, Union

import msgspec

from afdesk.encounter.registry import decode_hook, nested_message, op_union, ops_tagged
from afdesk.encounter.snapshot import EncounterState, LogEntry
from afdesk.encounter.snapshot import layout as file_layout
from afdesk.rules import RulesError
from afdesk.rules.rulesets import ruleset_named, ruleset_names
from afdesk.storage import meaning, messages, migrations, scan
from afdesk.storage.errors import LoadError

MAX_BYTES = 64 * 1024 * 1024
"""Files larger than this are refused before they are read (and never written)."""

_BOM = b"\xef\xbb\xbf"

_encoder = msgspec.json.Encoder()
_fast: tuple[Any, Any, Any, msgspec.json.Decoder[Any]] | None = None


def _mirror(cls: Any, name: str, types: dict[str, Any]) -> Any:
    """A Struct laid out as ``cls`` (same fields, defaults, options) with some field types
    replaced."""
    config = cls.__struct_config__
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for f in msgspec.structs.fields(cls):
        kind = types.get(f.name, f.type)
        if f.default is not msgspec.NODEFAULT:
            fields.append((f.name, kind, f.default))
        elif f.default_factory is not msgspec.NODEFAULT:
            fields.append((f.name, kind, msgspec.field(default_factory=f.default_factory)))
        else:
            fields.append((f.name, kind))
    return msgspec.defstruct(
        name, fields, frozen=config.frozen, omit_defaults=config.omit_defaults, module=__name__
    )


def _fast_decoder() -> tuple[Any, msgspec.json.Decoder[Any]]:
    """A decoder for whole files whose log entries name the union of the Ops registered now.

    The real ``LogEntry.op`` goes through ``decode_hook`` (it must take Ops registered at
    any time), which is several times slower for a long log. This mirror of the file's
    layout is rebuilt whenever the registry has grown, and its log entries are turned into
    real ones (cheap: the Ops themselves are decoded straight into their classes)."""
    global _fast
    ops = op_union()
    real = file_layout()
    if _fast is None or _fast[0] is not ops or _fast[1] is not real:
        entry = _mirror(LogEntry, "LogEntry", {"op": ops})
        log = tuple.__class_getitem__((entry, ...))  # tuple[entry, ...], built at run time
        mirror = _mirror(real, "EncounterState", {"log": log})
        _fast = (ops, real, mirror, msgspec.json.Decoder(mirror, dec_hook=decode_hook))
    return _fast[2], _fast[3]


class _OpTag(msgspec.Struct):
    op: str


class _TaggedEntry(msgspec.Struct):
    op: _OpTag


class _LogTags(msgspec.Struct):
    """Only the tags of the log's Ops: what a file's decoder needs to know of them."""

    log: list[_TaggedEntry] = []


_tags_decoder = msgspec.json.Decoder(_LogTags)
_narrow: dict[tuple[frozenset[Any], Any], tuple[Any, msgspec.json.Decoder[Any]]] = {}
_NARROW_KEPT = 8
"""Decoders kept for as many sets of Ops (a session opens a few files)."""


def _decoder_for(data: bytes) -> tuple[Any, msgspec.json.Decoder[Any]] | None:
    """A decoder like :func:`_fast_decoder`'s whose log entries name only the Ops the
    file's log holds: msgspec then reads the layout of a handful of Op classes, not of
    every one registered (the start opens the sample with four kinds of Op). None when
    the tags cannot be read or one names no registered Op: the full decoder then reads
    the file and says what is wrong, as always."""
    try:
        entries = _tags_decoder.decode(data).log
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    # the Ops the log names, their modules loaded (a battle's file: no mode's Ops)
    tagged = ops_tagged({e.op.op for e in entries})
    if not tagged:
        return None
    ops = frozenset(tagged.values())
    real = file_layout()
    key = (ops, real)
    made = _narrow.get(key)
    if made is None:
        classes = tuple(sorted(ops, key=lambda cls: cls.__name__))
        union: Any = Union[classes]  # noqa: UP007 - a runtime union of the file's Ops
        entry = _mirror(LogEntry, "LogEntry", {"op": union})
        log = tuple.__class_getitem__((entry, ...))  # tuple[entry, ...], built at run time
        mirror = _mirror(real, "EncounterState", {"log": log})
        made = _narrow[key] = (mirror, msgspec.json.Decoder(mirror, dec_hook=decode_hook))
        while len(_narrow) > _NARROW_KEPT:
            del _narrow[next(iter(_narrow))]
    return made


def _real(mirror: Any) -> EncounterState:
    real = file_layout()
    values = {name: getattr(mirror, name) for name in real.__struct_fields__}
    values["log"] = tuple(LogEntry(e.op, e.text, e.exchange, e.round) for e in mirror.log)
    return real(**values)


class _Probe(msgspec.Struct):
    """The header, read on its own before anything else is trusted."""

    format: Any = None
    schema_version: Any = None


_probe_decoder = msgspec.json.Decoder(_Probe)

# ---------------------------------------------------------------------------- encoding


def _items(items: Sequence[object]) -> bytes:
    """A list with one element per line. msgspec never writes a raw newline inside a
    value, so the newlines of ``encode_lines`` are exactly the element boundaries."""
    if not items:
        return b"[]"
    return b"[\n " + _encoder.encode_lines(items)[:-1].replace(b"\n", b",\n ") + b"\n]"


def _is_records(value: Any) -> bool:
    return isinstance(value, (tuple, list)) and bool(value) and isinstance(value[0], msgspec.Struct)


def _record(value: msgspec.Struct) -> bytes:
    """An encounter-wide record with every field written out (its lists of records one
    element per line)."""
    cls = type(value)
    config = cls.__struct_config__
    if config.array_like:
        return _encoder.encode(value)
    parts = []
    if config.tag is not None:
        parts.append(_encoder.encode(config.tag_field) + b":" + _encoder.encode(config.tag))
    for attr, name in zip(cls.__struct_fields__, cls.__struct_encode_fields__, strict=True):
        item = getattr(value, attr)
        body = _items(item) if _is_records(item) else _encoder.encode(item)
        parts.append(_encoder.encode(name) + b":" + body)
    return b"{" + b",".join(parts) + b"}"


def encode(state: EncounterState) -> bytes:
    """The exact bytes :func:`afdesk.storage.save` writes for ``state``."""
    version = migrations.CURRENT_VERSION
    out = [b'{"format":%s,"schema_version":%d' % (_encoder.encode(migrations.FORMAT), version)]
    cls = type(state)
    for attr, name in zip(cls.__struct_fields__, cls.__struct_encode_fields__, strict=True):
        value = getattr(state, attr)
        if _is_records(value):
            body = _items(value)
        elif isinstance(value, msgspec.Struct):
            body = _record(value)
        else:
            body = _encoder.encode(value)
        out.append(b',\n"' + name.encode() + b'":' + body)
    out.append(b"}\n")
    return b"".join(out)


def encode_compact(state: EncounterState) -> bytes:
    """The same document on a single line (for the crash journal)."""
    return encode(state).replace(b"\n", b"")


_SMALL_DIGEST = 256 * 1024
"""Bytes up to this size are hashed by CPython's own SHA-256 module: importing
``hashlib`` loads OpenSSL (about 2 ms of every start), whose faster hashing only pays
for itself on larger files."""


def digest(data: bytes) -> str:
    """The hash that identifies a file's bytes (crash journals record it): SHA-256."""
    small = _builtin_sha256() if len(data) <= _SMALL_DIGEST else None
    if small is not None:
        return str(small(data).hexdigest())
    import hashlib

    return hashlib.sha256(data).hexdigest()


@functools.cache
def _builtin_sha256() -> Any:
    """CPython's own SHA-256 (no OpenSSL to load), looked up once; None if this Python
    has none under the names it used (3.11: ``_sha256``, 3.12 on: ``_sha2``)."""
    for name in ("_sha256", "_sha2"):
        try:
            return importlib.import_module(name).sha256
        except ImportError:
            continue
    return None


# ---------------------------------------------------------------------------- decoding


def decode(data: bytes, *, source: str = "<memory>") -> EncounterState:
    """An encounter from the bytes of a file: limits, migrations, validation.

    Raises :class:`LoadError` naming ``source``, the place and the problem; no other
    exception escapes.
    """
    return decode_versioned(data, source=source)[0]


def decode_versioned(data: bytes, *, source: str = "<memory>") -> tuple[EncounterState, int]:
    """Like :func:`decode`, and the schema version the document had."""
    try:
        with _gc_paused():
            return _decode(data, source)
    except LoadError:
        raise
    except RecursionError:
        raise LoadError(source, "the data nests too deeply to read") from None
    except MemoryError:
        raise LoadError(source, "there is not enough memory to read it") from None
    except Exception as exc:  # the promise is a LoadError, whatever the bytes hold
        raise LoadError(
            source, f"it could not be read ({type(exc).__name__}: {str(exc)[:200]})"
        ) from None


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Decoding a long log allocates hundreds of thousands of immutable records, none of
    them in a reference cycle; a cycle collection in the middle (traversing every object
    the GUI already holds) can double the load time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _decode(data: Any, source: str) -> tuple[EncounterState, int]:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    elif not isinstance(data, bytes):
        data = bytes(data)
    if len(data) > MAX_BYTES:
        raise LoadError(source, f"it is {size_text(len(data))}; encounter files are at most 64 MiB")
    if data.startswith(_BOM):
        data = data[len(_BOM) :]  # Notepad and friends may add one
    if not data.strip():
        raise LoadError(source, "the file is empty")

    depth = scan.depth_check(data)
    if depth is scan.Depth.TOO_DEEP:
        raise LoadError(source, f"the data nests more than {scan.MAX_DEPTH} levels deep")
    try:
        probe = _probe_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise LoadError(source, _top_level_problem(str(exc), data)) from None
    except msgspec.DecodeError as exc:
        raise LoadError(source, messages.syntax_text(str(exc), data)) from None
    except UnicodeDecodeError:
        raise LoadError(source, _not_utf8(data)) from None
    if depth is not scan.Depth.OK and scan.slow_depth(msgspec.json.decode(data)) > scan.MAX_DEPTH:
        # Not reached unless the byte-level count and msgspec disagree: trust the parse.
        raise LoadError(source, f"the data nests more than {scan.MAX_DEPTH} levels deep")
    version = _check_header(probe, source)

    if version == migrations.CURRENT_VERSION:
        narrow = _decoder_for(data)
        try:
            if narrow is None:
                raise msgspec.ValidationError  # read by the full decoder below
            state = _real(narrow[1].decode(data))
        except (msgspec.ValidationError, UnicodeDecodeError):
            # Whatever is wrong is said as the full decoder, holding every Op, says it.
            layout, decoder = _fast_decoder()
            try:
                state = _real(decoder.decode(data))
            except msgspec.ValidationError as exc:
                raise LoadError(source, _explain_in(str(exc), data, layout)) from None
            except UnicodeDecodeError:
                raise LoadError(source, _not_utf8(data)) from None
        if encode(state) != data:
            # Not byte for byte what afdesk writes (edited by hand?): look for repeated
            # keys the slow way; the usual file never gets here.
            _refuse_duplicates(data, source)
    else:
        try:
            doc = msgspec.json.decode(data)
        except msgspec.ValidationError as exc:  # a number out of range
            raise LoadError(source, _explain(str(exc), None)) from None
        except UnicodeDecodeError:
            raise LoadError(source, _not_utf8(data)) from None
        _refuse_duplicates(data, source)
        del doc["format"], doc["schema_version"]
        try:
            doc = migrations.migrate(doc, version)
        except migrations.MigrationError as exc:
            raise LoadError(source, f"version {version} file: {exc}") from None
        try:
            state = msgspec.convert(doc, file_layout(), dec_hook=decode_hook)
        except msgspec.ValidationError as exc:
            raise LoadError(
                source, f"{_explain(str(exc), doc)} (after upgrading from version {version})"
            ) from None
    _check_meaning(state, source)
    meaning.check(state, data, source, lambda: meaning.numbers_document(data))
    return state, version


def _raw(data: bytes) -> Any:
    """The parsed document, to show the value an error is about (None if unparsable)."""
    try:
        return msgspec.json.decode(data)
    except Exception:
        return None


def _not_utf8(data: bytes) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = messages.line_column(data, exc.start)
        return f"line {line}, column {column}: this is not UTF-8 text (byte {exc.start})"
    return "it holds text that is not UTF-8"


def size_text(size: int) -> str:
    """A file size the way a GM reads it: ``64.0 MiB``."""
    return f"{size / (1024 * 1024):.1f} MiB"


def read_header(data: bytes) -> tuple[Any, Any]:
    """``(format, schema_version)`` of a document (None where absent); msgspec errors if
    it is not a JSON object."""
    probe = _probe_decoder.decode(data.removeprefix(_BOM))
    return probe.format, probe.schema_version


def _top_level_problem(message: str, data: bytes) -> str:
    if "Expected `object`" in message:
        try:
            got = messages.value_text(msgspec.json.decode(data))
        except msgspec.DecodeError as exc:  # not JSON either: that is the problem to name
            return messages.syntax_text(str(exc), data)
        except Exception:
            got = "something else"
        return f"this is not an afdesk encounter: expected an object {{...}}, got {got}"
    return messages.syntax_text(message, data)


def _check_header(probe: _Probe, source: str) -> int:
    fmt, version = probe.format, probe.schema_version
    if fmt is None:
        raise LoadError(source, 'this is not an afdesk encounter (it has no "format" field)')
    if fmt != migrations.FORMAT:
        raise LoadError(
            source,
            f'format: unknown format {messages.value_text(fmt)}, expected "{migrations.FORMAT}"',
        )
    if version is None:
        raise LoadError(source, 'schema_version: the field "schema_version" is missing')
    current = migrations.CURRENT_VERSION
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LoadError(
            source,
            "schema_version: expected a version number (a whole number, 1 or more), "
            f"got {messages.value_text(version)}",
        )
    if version > current:
        raise LoadError(
            source,
            f"it was saved by a newer afdesk (file format version {version}); this afdesk "
            f"reads versions up to {current}: update afdesk to open it",
        )
    return version


def _explain(message: str, doc: Any, root: Any = None) -> str:
    message = nested_message(message)
    try:
        return messages.validation_text(message, doc, file_layout() if root is None else root)
    except Exception:  # the wording is a courtesy: msgspec's own words will do
        return message


def _explain_in(message: str, data: bytes, layout: Any) -> str:
    """:func:`_explain` reading only the place the message names from the bytes: a
    refusal never parses the whole file into Python objects (a 60 MB file of empty log
    entries took 1.6 GB that way)."""
    message = nested_message(message)
    try:
        return messages.validation_text_in(message, data, layout)
    except Exception:  # the wording is a courtesy: msgspec's own words will do
        return message


def _refuse_duplicates(data: bytes, source: str) -> None:
    hit = scan.find_duplicate_key(data)
    if hit:
        place, key = hit
        raise LoadError(source, messages.at(place, f'the key "{key}" appears twice'))


def _check_meaning(state: EncounterState, source: str) -> None:
    """The ruleset the file names must be one afdesk knows (the rest of the meaning is
    :mod:`afdesk.storage.meaning`)."""
    try:
        ruleset_named(state.meta.ruleset)
    except RulesError:
        raise LoadError(
            source,
            f"meta.ruleset: unknown ruleset {messages.value_text(state.meta.ruleset)}, "
            f"expected one of {', '.join(ruleset_names())}",
        ) from None
