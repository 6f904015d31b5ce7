"""The campaign file ``campaign.afcamp`` and character files.

A campaign is a folder: ``campaign.afcamp`` (this module) and the encounter files of the
campaign beside it. The file is JSON with a header like an encounter file's::

    {"format": "afdesk-campaign", "schema_version": 1, "name": "The river", "characters": [...],
     "encounters": [...], "session": 2, ...}

It is versioned with its own chain of migrations (:data:`MIGRATIONS`, pure functions on the
parsed document, as :mod:`afdesk.storage.migrations` does for encounters), published as a
JSON Schema (``resources/schema/afdesk-campaign.v1.schema.json``), checked by
``afdesk check`` and saved atomically (:mod:`afdesk.storage.atomic`). A bad file is a
:class:`LoadError` naming the place: nothing is changed.

Characters travel as character files (``.afchars``): one character, or a whole bestiary::

    {"format": "afdesk-characters", "schema_version": 1, "characters": [...]}

Import merges by name (:func:`afdesk.encounter.campaign.merge.merge`); a round trip keeps
every field.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from afdesk.encounter.campaign.roster import Character, check_character
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp
from afdesk.storage import atomic, codec, messages, scan
from afdesk.storage.errors import LoadError
from afdesk.storage.files import read_bytes

FORMAT = "afdesk-campaign"
CHARACTERS_FORMAT = "afdesk-characters"
FILE_NAME = "campaign.afcamp"
EXTENSION = ".afcamp"
CHARACTERS_EXTENSION = ".afchars"

CURRENT_VERSION = 1
"""The campaign file version this afdesk writes (1: the first)."""

Document = dict[str, Any]
Migration = Callable[[Document], Document]

MIGRATIONS: dict[int, Migration] = {}
"""``MIGRATIONS[n]`` upgrades a version-``n`` document (without its header) to ``n + 1``.
Read at call time, so tests can inject one."""

CHARACTERS_VERSION = 1


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


def save_campaign(path: str | os.PathLike[str], campaign: Campaign) -> str:
    """Write the campaign atomically to ``path`` (a folder or the file); returns the digest
    of the bytes written. :class:`SaveError` leaves the old file as it was."""
    data = encode_campaign(campaign)
    atomic.replace(campaign_file(path), data)
    return codec.digest(data)


def export_characters(path: str | os.PathLike[str], characters: Iterable[Character]) -> None:
    """Write a character file (one character or a bestiary), atomically."""
    atomic.replace(Path(path), encode_characters(characters))


# ------------------------------------------------------------------------------ reading


def _parse(data: bytes, source: str, fmt: str, what: str) -> tuple[Document, int]:
    data = data.removeprefix(codec._BOM)
    if not data.strip():
        raise LoadError(source, "the file is empty")
    try:
        doc = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise LoadError(source, messages.syntax_text(str(exc), data)) from None
    except UnicodeDecodeError:
        raise LoadError(source, codec._not_utf8(data)) from None
    if scan.depth_check(data) is scan.Depth.TOO_DEEP:
        raise LoadError(source, f"the data nests more than {scan.MAX_DEPTH} levels deep")
    hit = scan.find_duplicate_key(data)
    if hit:
        raise LoadError(source, messages.at(hit[0], f'the key "{hit[1]}" appears twice'))
    if not isinstance(doc, dict):
        raise LoadError(
            source,
            f"this is not {what}: expected an object {{...}}, got {messages.value_text(doc)}",
        )
    if doc.get("format") != fmt:
        if "format" not in doc:
            raise LoadError(source, f'this is not {what} (it has no "format" field)')
        raise LoadError(
            source,
            f'format: unknown format {messages.value_text(doc["format"])}, expected "{fmt}"',
        )
    version = doc.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LoadError(
            source,
            "schema_version: expected a version number (a whole number, 1 or more), "
            f"got {messages.value_text(version)}",
        )
    del doc["format"], doc["schema_version"]
    return doc, version


def _convert(doc: Document, kind: type[Any], source: str, after: str = "") -> Any:
    try:
        return msgspec.convert(doc, kind)
    except msgspec.ValidationError as exc:
        text = messages.validation_text(str(exc), doc, kind)
        raise LoadError(source, text + after) from None


def _check_roster(characters: Iterable[Character], source: str) -> None:
    ids: set[str] = set()
    for i, c in enumerate(characters):
        if c.id in ids:
            raise LoadError(source, f"characters[{i}].id: the id {c.id!r} is given twice")
        ids.add(c.id)
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
            if name and (Path(name).name != name or name in (".", "..")):
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
    saying what and where if it is not a good campaign file."""
    if len(data) > codec.MAX_BYTES:
        raise LoadError(
            source, f"it is {codec.size_text(len(data))}; campaign files are at most 64 MiB"
        )
    doc, version = _parse(data, source, FORMAT, "an afdesk campaign")
    current = CURRENT_VERSION
    if version > current:
        raise LoadError(
            source,
            f"it was saved by a newer afdesk (campaign version {version}); this afdesk reads "
            f"versions up to {current}: update afdesk to open it",
        )
    after = ""
    for v in range(version, current):
        step = MIGRATIONS.get(v)
        if step is None:
            raise LoadError(source, f"version {version} file: no upgrade from version {v}")
        try:
            doc = step(doc)
        except Exception as exc:
            raise LoadError(source, f"version {version} file: upgrading failed: {exc}") from None
        after = f" (after upgrading from version {version})"
    camp = _convert(doc, Campaign, source, after)
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
    doc, version = _parse(read_bytes(path, source), source, CHARACTERS_FORMAT, "a character file")
    if version > CHARACTERS_VERSION:
        raise LoadError(source, f"it was saved by a newer afdesk (version {version})")
    chars = _convert(doc, _Characters, source).characters
    _check_roster(chars, source)
    return list(chars)


# ------------------------------------------------------------------------------ schema


def schema() -> dict[str, Any]:
    """The JSON Schema of a campaign file of the current version."""
    from afdesk.storage.schema import clean_descriptions  # the same text on every Python

    _, raw = msgspec.json.schema_components([Campaign], ref_template="#/$defs/{name}")
    defs = clean_descriptions(dict(raw))
    root = defs.pop("Campaign")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"afdesk campaign file, version {CURRENT_VERSION}",
        "description": (
            "A campaign's roster (band, recurring characters, bestiary) and its encounters. "
            "Beyond this schema, afdesk refuses an id given twice, a character that breaks "
            "its limits (negative grit, grit above its most), an encounter file that is not "
            "a plain name in the campaign folder, and a last_running that is not an "
            "encounter's id."
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
    import json

    return json.dumps(schema(), indent=1, ensure_ascii=False) + "\n"


def schema_path() -> Path:
    from afdesk.paths import resource_dir

    return resource_dir() / "schema" / f"afdesk-campaign.v{CURRENT_VERSION}.schema.json"


def write_schema(path: Path | None = None) -> Path:
    path = schema_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(schema_text(), encoding="utf-8", newline="\n")
    return path


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
    "encode_campaign",
    "export_characters",
    "import_characters",
    "load_campaign",
    "save_campaign",
    "schema",
    "write_schema",
]
