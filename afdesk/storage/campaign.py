"""The campaign file ``campaign.afcamp`` and character files.

A campaign is a folder: ``campaign.afcamp`` (this module) and the encounter files of the
campaign beside it. The file is JSON with a header like an encounter file's::

    {"format": "afdesk-campaign", "schema_version": 2, "name": "The river", "characters": [...],
     "encounters": [...], "session": 2, ...}

It is versioned with its own chain of migrations (:data:`MIGRATIONS`, pure functions on the
parsed document, as :mod:`afdesk.storage.migrations` does for encounters), published as a
JSON Schema (``resources/schema/afdesk-campaign.v2.schema.json``), checked by
``afdesk check`` and saved atomically (:mod:`afdesk.storage.atomic`). A bad file is a
:class:`LoadError` naming the place: nothing is changed.

Characters travel as character files (``.afchars``): one character, or a whole bestiary::

    {"format": "afdesk-characters", "schema_version": 2, "characters": [...]}

A character is one :class:`~afdesk.encounter.combatant.Sheet` (the encounter's too) with an
id, a role and days since rest.

Import merges by name (:func:`afdesk.encounter.campaign.merge.merge`); a round trip keeps
every field.
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NoReturn, Union, cast, get_args, get_origin

import msgspec

from afdesk.encounter.campaign.roster import Character, check_character, limit_problem
from afdesk.encounter.campaign.state import Campaign, Play
from afdesk.encounter.errors import IllegalOp
from afdesk.storage import atomic, codec, messages, migrations, scan
from afdesk.storage.errors import LoadError, SaveError
from afdesk.storage.files import _check_target as check_target
from afdesk.storage.files import read_bytes

FORMAT = "afdesk-campaign"
CHARACTERS_FORMAT = "afdesk-characters"
FILE_NAME = "campaign.afcamp"
EXTENSION = ".afcamp"
CHARACTERS_EXTENSION = ".afchars"

CURRENT_VERSION = 2
"""The campaign file version this afdesk writes (1: the first; 2: the one character sheet,
with attacks, and the characters as a run took them; see
:func:`afdesk.storage.migrations.migrate_campaign_1_to_2`)."""

Document = dict[str, Any]
Migration = Callable[[Document], Document]

MIGRATIONS: dict[int, Migration] = {1: migrations.migrate_campaign_1_to_2}
ADDITIVE: frozenset[int] = frozenset({1})
"""Versions whose upgrade only adds fields with defaults: a file of such a version is read as
the current one, straight from its bytes (strict, and a refusal's memory stays a small
multiple of the file), with no parsed document in between."""
"""``MIGRATIONS[n]`` upgrades a version-``n`` document (without its header) to ``n + 1``.
Read at call time, so tests can inject one."""

CHARACTERS_VERSION = 2
"""Character files: 1 the first; 2 the one character sheet (attacks). A version-1 file holds
no attacks and reads the same."""


@dataclass(frozen=True)
class LoadedCampaign:
    """A campaign read from its folder."""

    campaign: Campaign
    path: Path
    """The ``campaign.afcamp`` file."""
    schema_version: int
    digest: str

    @property
    def folder(self) -> Path:
        return self.path.parent


def campaign_file(path: str | os.PathLike[str]) -> Path:
    """The campaign file of a campaign folder (or the file itself)."""
    p = Path(path)
    return p / FILE_NAME if p.is_dir() else p


# ------------------------------------------------------------------------------ writing

_encoder = msgspec.json.Encoder()


def _document(fmt: str, version: int, body: Any) -> bytes:
    doc = {"format": fmt, "schema_version": version, **msgspec.to_builtins(body)}
    return msgspec.json.format(_encoder.encode(doc), indent=1) + b"\n"


def encode_campaign(campaign: Campaign) -> bytes:
    """The bytes of ``campaign.afcamp`` (readable JSON, one key per line)."""
    return _document(FORMAT, CURRENT_VERSION, campaign)


class _Characters(msgspec.Struct, frozen=True):
    characters: tuple[Character, ...] = ()


def encode_characters(characters: Iterable[Character]) -> bytes:
    """A character file holding ``characters``."""
    return _document(CHARACTERS_FORMAT, CHARACTERS_VERSION, _Characters(tuple(characters)))


def save_campaign(
    path: str | os.PathLike[str],
    campaign: Campaign,
    *,
    expected_digest: str | None = None,
    marking: Callable[[str], object] | None = None,
) -> str:
    """Write the campaign atomically to ``path`` (a folder or the file); returns the digest
    of the bytes written. :class:`SaveError` leaves the old file as it was.

    A read-only file is not replaced; with ``expected_digest`` (the file's digest when it
    was read or last saved) a file changed or deleted on disk since is not overwritten
    (:class:`FileChangedError`): the encounter files' checks. ``marking(digest)`` is
    called just before the file is replaced (the crash journal's save marker)."""
    file = campaign_file(path)
    data = encode_campaign(campaign)
    digest = codec.digest(data)
    try:
        exists = file.exists()
    except OSError as exc:  # a folder that cannot even be looked into
        raise SaveError(file.name, atomic.reason(exc, file)) from exc
    # As for encounter files: never over a read-only file or one changed on disk since.
    check_target(file, exists, expected_digest)
    if marking is not None:
        marking(digest)
    atomic.replace(file, data)
    return digest


def export_characters(path: str | os.PathLike[str], characters: Iterable[Character]) -> None:
    """Write a character file (one character or a bestiary), atomically."""
    atomic.replace(Path(path), encode_characters(characters))


# ------------------------------------------------------------------------------ reading


def _refuse_deep(data: bytes, source: str) -> NoReturn:
    line = scan.too_deep_line(data)
    where = f"line {line}: " if line else ""
    raise LoadError(
        source,
        f"{where}the data nests more than {scan.MAX_DEPTH} levels deep (lists or objects "
        "inside each other)",
    )


def _first_value(data: bytes) -> str:
    """What a document that is not an object is, in words, from its first byte (parsing
    a large one whole only to name it would cost far more memory than the file)."""
    head = data.lstrip()[:1]
    words = {b"[": "a list", b'"': "text", b"t": "true", b"f": "false", b"n": "null"}
    return words.get(head, "a number" if head[:1] in b"-0123456789" else "something else")


def _header(data: bytes, source: str, fmt: str, what: str) -> tuple[bytes, int]:
    """The document's bytes (a byte-order mark dropped) and its version, once its size,
    depth, JSON syntax and header are known to be right; :class:`LoadError` otherwise."""
    if len(data) > codec.MAX_BYTES:
        raise LoadError(
            source, f"it is {codec.size_text(len(data))}; {what} files are at most 64 MiB"
        )
    data = data.removeprefix(codec._BOM)
    if not data.strip():
        raise LoadError(source, "the file is empty")
    if scan.depth_check(data) is scan.Depth.TOO_DEEP:
        _refuse_deep(data, source)
    try:
        probe = codec._probe_decoder.decode(data)
    except msgspec.ValidationError:
        raise LoadError(
            source, f"this is not {what}: expected an object {{...}}, got {_first_value(data)}"
        ) from None
    except msgspec.DecodeError as exc:
        raise LoadError(source, messages.syntax_text(str(exc), data, what)) from None
    except UnicodeDecodeError:
        raise LoadError(source, codec._not_utf8(data)) from None
    except RecursionError:  # unbalanced brackets nested beyond what msgspec follows
        _refuse_deep(data, source)
    problem = ""
    version = probe.schema_version
    if probe.format != fmt:
        if probe.format is None:
            problem = f'this is not {what} (it has no "format" field)'
        else:
            shown = messages.value_text(probe.format)
            problem = f'format: unknown format {shown}, expected "{fmt}"'
    elif not isinstance(version, int) or isinstance(version, bool) or version < 1:
        problem = (
            "schema_version: expected a version number (a whole number, 1 or more), "
            f"got {messages.value_text(version)}"
        )
    if problem:
        _refuse_duplicates(data, source)  # a repeated "format" is the first thing to say
        raise LoadError(source, problem)
    return data, version


def _refuse_duplicates(data: bytes, source: str) -> None:
    try:
        hit = scan.find_duplicate_key(data)
    except RecursionError:
        _refuse_deep(data, source)
    if hit:
        raise LoadError(source, messages.at(hit[0], f'the key "{hit[1]}" appears twice'))


def _parse(data: bytes, source: str) -> Document:
    """The document parsed whole into Python values (for a migration only)."""
    doc = msgspec.json.decode(data)
    _refuse_duplicates(data, source)
    del doc["format"], doc["schema_version"]
    return cast(Document, doc)


def _spec(f: msgspec.structs.FieldInfo, kind: Any) -> tuple[Any, ...]:
    """A field for :func:`msgspec.defstruct`: ``f`` with the type ``kind``."""
    if f.default is not msgspec.NODEFAULT:
        return (f.name, kind, f.default)
    if f.default_factory is not msgspec.NODEFAULT:
        return (f.name, kind, msgspec.field(default_factory=f.default_factory))
    return (f.name, kind)


def _strict(t: Any, made: dict[Any, Any]) -> Any:
    """``t`` with each record type below it mirrored as one that refuses a field it does
    not know (msgspec would drop it without a word)."""
    if isinstance(t, type) and issubclass(t, msgspec.Struct):
        if t not in made:
            fields = msgspec.structs.fields(t)
            made[t] = msgspec.defstruct(
                t.__name__,
                [_spec(f, _strict(f.type, made)) for f in fields],
                kw_only=True,
                array_like=t.__struct_config__.array_like,
                forbid_unknown_fields=True,
                rename={f.name: f.encode_name for f in fields},
                module=__name__,
            )
        return made[t]
    args = get_args(t)
    origin = get_origin(t)
    if not args or origin is Literal:
        return t
    mapped = tuple(... if a is ... else _strict(a, made) for a in args)
    if origin in (Union, types.UnionType):
        return Union[mapped]  # noqa: UP007 (built from a tuple of types)
    return origin[mapped]


_STRICT: dict[type, msgspec.json.Decoder[Any]] = {}


def _strict_decoder(kind: type) -> msgspec.json.Decoder[Any]:
    """A decoder that checks a whole file of ``kind`` (its header fields included) and
    refuses any field it does not know, with its place."""
    if kind in _STRICT:
        return _STRICT[kind]
    made: dict[Any, Any] = {}
    fields = msgspec.structs.fields(kind)
    whole = msgspec.defstruct(
        f"{kind.__name__}File",
        [
            ("format", str),
            ("schema_version", int),
            *(_spec(f, _strict(f.type, made)) for f in fields),
        ],
        kw_only=True,
        forbid_unknown_fields=True,
        rename={f.name: f.encode_name for f in fields},
        module=__name__,
    )
    return _STRICT.setdefault(kind, msgspec.json.Decoder(whole))


def _convert(doc: Document, kind: type[Any], source: str, after: str = "") -> Any:
    try:
        return msgspec.convert(doc, kind)
    except msgspec.ValidationError as exc:
        text = messages.validation_text(str(exc), doc, kind)
        raise LoadError(source, text + after) from None


def _decode_typed(data: bytes, kind: type[Any], source: str, fmt: str, version: int) -> Any:
    """``data`` (a current-version file) as ``kind``: an unknown field, a wrong type or a
    key given twice is a :class:`LoadError` with its place. Neither the file nor a refusal
    is ever parsed whole into Python values: memory stays a small multiple of the file."""
    try:
        _strict_decoder(kind).decode(data)
        value = msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError as exc:
        raise LoadError(source, messages.validation_text_in(str(exc), data, kind)) from None
    except msgspec.DecodeError as exc:
        raise LoadError(source, messages.syntax_text(str(exc), data)) from None
    except UnicodeDecodeError:
        raise LoadError(source, codec._not_utf8(data)) from None
    except RecursionError:
        _refuse_deep(data, source)
    if _maybe_written(data, fmt) and _as_written(fmt, version, value) == data:
        return value  # what afdesk writes never holds a key twice
    # Edited by hand? Look for keys given twice, with the records let go meanwhile (the
    # look takes memory of its own), then read them again.
    del value
    _refuse_duplicates(data, source)
    return msgspec.json.decode(data, type=kind)


def _as_written(fmt: str, version: int, body: msgspec.Struct) -> bytes:
    """The bytes :func:`_document` writes for ``body``, made without turning the records
    into dicts first (which takes several times the memory of the file)."""
    inner = _encoder.encode(body)
    head = _encoder.encode({"format": fmt, "schema_version": version})
    joined = head[:-1] + (b"," + inner[1:] if inner != b"{}" else b"}")
    del inner
    return msgspec.json.format(joined, indent=1) + b"\n"


def _maybe_written(data: bytes, fmt: str) -> bool:
    """Whether ``data`` starts as afdesk writes a file (else it surely is not its bytes)."""
    return data.startswith(b'{\n "format": ' + _encoder.encode(fmt) + b",\n")


def _check_roster(characters: Iterable[Character], source: str) -> None:
    ids: set[str] = set()
    for i, c in enumerate(characters):
        if c.id in ids:
            raise LoadError(source, f"characters[{i}].id: the id {c.id!r} is given twice")
        ids.add(c.id)
        found = limit_problem(c)
        if found is not None:  # the roster holds the encounter's limits (E15, R10, ...)
            rule = f" ({found.words})" if found.words else ""
            raise LoadError(source, f"characters[{i}].{found.place}: {found.text}{rule}")
        try:
            check_character(c)
        except IllegalOp as exc:
            raise LoadError(source, f"characters[{i}]: {exc}") from None


def _check_campaign(camp: Campaign, source: str) -> None:
    _check_roster(camp.characters, source)
    ids: set[str] = set()
    files: set[str] = set()
    for i, e in enumerate(camp.encounters):
        if e.id in ids:
            raise LoadError(source, f"encounters[{i}].id: the id {e.id!r} is given twice")
        ids.add(e.id)
        for field in ("file", "running"):
            name = getattr(e, field)
            if name and (
                Path(name).name != name
                or name in (".", "..")
                or "\0" in name
                or len(name.encode("utf-8", "surrogatepass")) > 255
            ):
                raise LoadError(
                    source,
                    f"encounters[{i}].{field}: {messages.value_text(name)} is not a file name "
                    "in the campaign folder",
                )
        if not e.file:
            raise LoadError(source, f"encounters[{i}].file: the prepared file has no name")
        if e.file in files:
            raise LoadError(source, f"encounters[{i}].file: {e.file} is listed twice")
        files.add(e.file)
    if camp.last_running and camp.last_running not in ids:
        raise LoadError(
            source,
            f"last_running: {messages.value_text(camp.last_running)} is not one of the "
            "campaign's encounters",
        )
    if camp.session < 1 or camp.referee_shifts < 0:
        raise LoadError(
            source, "session and referee_shifts: a session is 1 or more, Shifts 0 or more"
        )


def decode_campaign(data: bytes, *, source: str = "<memory>") -> tuple[Campaign, int]:
    """The campaign in ``data`` and the version it was written in; :class:`LoadError`
    saying what and where if it is not a good campaign file (no other exception)."""
    try:
        return _decode_campaign(data, source)
    except LoadError:
        raise
    except MemoryError:
        raise LoadError(source, "there is not enough memory to read it") from None
    except Exception as exc:  # the promise is a LoadError, whatever the bytes hold
        raise LoadError(
            source, f"it could not be read ({type(exc).__name__}: {str(exc)[:200]})"
        ) from None


def _decode_campaign(data: bytes, source: str) -> tuple[Campaign, int]:
    data, version = _header(data, source, FORMAT, "an afdesk campaign")
    current = CURRENT_VERSION
    if version > current:
        raise LoadError(
            source,
            f"it was saved by a newer afdesk (campaign version {version}); this afdesk reads "
            f"versions up to {current}: update afdesk to open it",
        )
    if version == current or all(v in ADDITIVE for v in range(version, current)):
        camp = _decode_typed(data, Campaign, source, FORMAT, version)
    else:
        doc = _parse(data, source)
        for v in range(version, current):
            step = MIGRATIONS.get(v)
            if step is None:
                raise LoadError(source, f"version {version} file: no upgrade from version {v}")
            try:
                doc = step(doc)
            except Exception as exc:
                raise LoadError(
                    source, f"version {version} file: upgrading failed: {exc}"
                ) from None
        after = f" (after upgrading from version {version})"
        camp = _convert(doc, Campaign, source, after)
        try:  # an unknown field is reported in an older file too, not dropped
            whole = {"format": FORMAT, "schema_version": current, **doc}
            _strict_decoder(Campaign).decode(msgspec.json.encode(whole))
        except msgspec.ValidationError as exc:
            raise LoadError(source, messages.validation_text(str(exc), doc, Campaign)) from None
    _check_campaign(camp, source)
    return camp, version


def load_campaign(path: str | os.PathLike[str]) -> LoadedCampaign:
    """Read a campaign (its folder or its ``campaign.afcamp``); :class:`LoadError` if it
    cannot be read, naming the file and the place."""
    file = campaign_file(path)
    source = file.name or str(file)
    data = read_bytes(file, source)
    camp, version = decode_campaign(data, source=source)
    return LoadedCampaign(camp, file, version, codec.digest(data))


def import_characters(path: str | os.PathLike[str]) -> list[Character]:
    """The characters of a character file; :class:`LoadError` naming the place."""
    path = Path(path)
    source = path.name or str(path)
    return decode_characters(read_bytes(path, source), source=source)


def decode_characters(data: bytes, *, source: str = "<memory>") -> list[Character]:
    """The characters of a character file's bytes; :class:`LoadError` naming the place
    (no other exception)."""
    try:
        data, version = _header(data, source, CHARACTERS_FORMAT, "a character file")
        if version > CHARACTERS_VERSION:
            raise LoadError(source, f"it was saved by a newer afdesk (version {version})")
        chars = _decode_typed(data, _Characters, source, CHARACTERS_FORMAT, version).characters
        _check_roster(chars, source)
        return list(chars)
    except LoadError:
        raise
    except MemoryError:
        raise LoadError(source, "there is not enough memory to read it") from None
    except Exception as exc:  # the promise is a LoadError, whatever the bytes hold
        raise LoadError(
            source, f"it could not be read ({type(exc).__name__}: {str(exc)[:200]})"
        ) from None


def _files_needed(camp: Campaign) -> Iterable[tuple[str, str, str]]:
    """``(place, file name, title)`` of every encounter file the campaign needs: each
    prepared file, and the running copy of an encounter that is running or whose
    carry-over is still to come."""
    for i, e in enumerate(camp.encounters):
        yield f"encounters[{i}].file", e.file, e.title
        if e.running and (e.play is Play.RUNNING or not e.carried):
            yield f"encounters[{i}].running", e.running, e.title


def _absent(path: Path) -> str:
    """'' if ``path`` is a file, else why not in words."""
    try:
        if path.is_file():
            return ""
    except (OSError, ValueError) as exc:
        return f"cannot be looked at ({getattr(exc, 'strerror', None) or exc})"
    return "is not in the campaign folder"


def missing_encounters(camp: Campaign, folder: Path) -> list[str]:
    """The encounter files ``camp`` needs that are not in ``folder``, each with its
    place and the encounter's title (what the app says when the campaign opens)."""
    out = []
    for place, name, title in _files_needed(camp):
        why = _absent(folder / name)
        if why:
            out.append(f"{place}: {name} ({title}) {why}")
    return out


def encounter_problems(loaded: LoadedCampaign) -> list[str]:
    """What is wrong with the encounter files a campaign needs: each missing one, and
    each that does not load, with its place (what ``afdesk check`` says)."""
    from afdesk.storage.files import load

    out = []
    for place, name, title in _files_needed(loaded.campaign):
        path = loaded.folder / name
        why = _absent(path)
        if why:
            out.append(f"{place}: {name} ({title}) {why}")
            continue
        try:
            load(path)
        except LoadError as exc:
            out.append(f"{place}: {exc}")
    return out


__all__ = [
    "CHARACTERS_EXTENSION",
    "CURRENT_VERSION",
    "EXTENSION",
    "FILE_NAME",
    "FORMAT",
    "MIGRATIONS",
    "LoadedCampaign",
    "campaign_file",
    "decode_campaign",
    "decode_characters",
    "encode_campaign",
    "encounter_problems",
    "export_characters",
    "import_characters",
    "load_campaign",
    "missing_encounters",
    "save_campaign",
]
