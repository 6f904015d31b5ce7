"""``afdesk --self-test``: is this installation whole? (A frozen build runs it first.)

Checks, each reported on one line: msgspec encodes and decodes; the bundled resources are
there (sample encounters load, tile sets, the JSON schema, the icon); the data folder is
writable; a crash journal is written and recovered again (in a folder of its own under the
data folder, removed afterwards); Qt's platform plugin loads and its image plugins read PNG
and SVG (the icon renders). Exit status 0 if everything is there, else 1 and the list of what
is missing.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class Missing(Exception):
    """What a check found missing, in words."""


@dataclass(frozen=True)
class Result:
    name: str
    ok: bool
    detail: str


def check_msgspec() -> str:
    import msgspec

    data = msgspec.json.encode({"a": [1, 2.5, "é"]})
    if msgspec.json.decode(data) != {"a": [1, 2.5, "é"]}:
        raise Missing("msgspec does not read back what it wrote")
    return f"msgspec {msgspec.__version__}"


def check_resources() -> str:
    from afdesk import paths
    from afdesk.storage import load

    root = paths.resource_dir()
    needed = {
        "encounters": "*.afenc",
        "tilesets": "*.json",
        "schema": "*.json",
        "icons": "afdesk.svg",
    }
    missing = [f"{folder}/{pattern}" for folder, pattern in needed.items()]
    missing = [m for m in missing if not any((root / m.split("/")[0]).glob(m.split("/")[1]))]
    if missing:
        raise Missing(f"not in {root}: {', '.join(missing)}")
    samples = sorted((root / "encounters").glob("*.afenc"))
    for sample in samples:
        load(sample)  # LoadError says which and why
    from afdesk.storage.tilesets import tileset

    tileset("wilderness")
    return f"{root} ({len(samples)} sample encounters load)"


def check_data_folder() -> str:
    from afdesk.paths import data_dir

    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".self-test-{secrets.token_hex(4)}"
        probe.write_bytes(b"afdesk")
        ok = probe.read_bytes() == b"afdesk"
        probe.unlink()
    except OSError as exc:
        raise Missing(f"{folder} is not writable ({exc.strerror or exc})") from None
    if not ok:
        raise Missing(f"{folder} does not read back what was written")
    return str(folder)


def check_journal() -> str:
    """A journal written, left as after a crash, listed and recovered, in a folder of its
    own (``AFDESK_DATA_DIR`` pointed there for the time of the check)."""
    from afdesk.encounter.history import History
    from afdesk.encounter.model import Encounter
    from afdesk.encounter.ops.roster import SetFacing
    from afdesk.paths import data_dir, sample_encounter
    from afdesk.storage import load
    from afdesk.storage.journal import Journal, pending_journals, recover_report

    scratch = data_dir() / f"self-test-{secrets.token_hex(4)}"
    before = os.environ.get("AFDESK_DATA_DIR")
    os.environ["AFDESK_DATA_DIR"] = str(scratch)
    try:
        enc = Encounter.from_state(load(sample_encounter()).state)
        cid = next(iter(enc.combatants))
        history = History(enc)
        journal = Journal.start("self-test", base=enc.state()).follow(history)
        facing = (enc.combatants[cid].facing + 90.0) % 360.0
        history.push([SetFacing(cid, facing)], "Face")
        journal.close(clean=False)  # as a crash leaves it
        history.close()
        pending = pending_journals()
        if len(pending) != 1:
            raise Missing(f"the journal written was not found again ({len(pending)} found)")
        state = recover_report(pending[0]).state
        if Encounter.from_state(state).combatants[cid].facing != facing:
            raise Missing("the recovered encounter lacks the journaled change")
    except OSError as exc:
        raise Missing(f"cannot write a journal in {scratch} ({exc.strerror or exc})") from None
    finally:
        if before is None:
            os.environ.pop("AFDESK_DATA_DIR", None)
        else:
            os.environ["AFDESK_DATA_DIR"] = before
        shutil.rmtree(scratch, ignore_errors=True)
    return "written, found after a crash and recovered"


def check_qt() -> str:
    """The platform plugin loads (a QApplication starts) and the image plugins read PNG
    and SVG."""
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import QLibraryInfo

    from afdesk.gui import platform_check

    plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
    asked = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0]
    platforms = sorted(p.name for p in (plugins / "platforms").glob("*q*") if p.is_file())
    if not platforms:
        raise Missing(f"no Qt platform plugins in {plugins / 'platforms'}")
    if asked and not any(asked in name for name in platforms):
        raise Missing(f"the Qt platform plugin {asked!r} is not in {plugins / 'platforms'}")
    packages = platform_check.missing_packages()
    if packages:
        raise Missing(platform_check.advice(packages).splitlines()[0])
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QGuiApplication, QImage, QImageReader
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "afdesk"])
    formats = {bytes(f.data()).decode() for f in QImageReader.supportedImageFormats()}
    lacking = [f for f in ("png", "svg") if f not in formats]
    if lacking:
        raise Missing(f"Qt image plugins cannot read {', '.join(lacking)} (plugins: {plugins})")
    from afdesk.paths import resource_dir

    icon = QImage(str(resource_dir() / "icons" / "afdesk.svg"))
    if icon.isNull():
        raise Missing("the icon (SVG) does not render")
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not icon.save(buffer, "PNG") or QImage.fromData(data, "PNG").isNull():
        raise Missing("Qt cannot write and read back a PNG")
    name = QGuiApplication.platformName() if isinstance(app, QGuiApplication) else "?"
    return f"PySide6 {pyside_version}, platform {name!r}, images: png, svg"


CHECKS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("msgspec", check_msgspec),
    ("bundled resources", check_resources),
    ("data folder", check_data_folder),
    ("crash journal", check_journal),
    ("Qt", check_qt),
)


def run_checks() -> list[Result]:
    results = []
    for name, check in CHECKS:
        try:
            detail = check()
        except Missing as exc:
            results.append(Result(name, False, str(exc)))
        except Exception as exc:  # whatever breaks is something missing: say what
            text = " ".join(str(exc).split()) or type(exc).__name__
            results.append(Result(name, False, f"{type(exc).__name__}: {text}"))
        else:
            results.append(Result(name, True, detail))
    return results


def main(argv: list[str]) -> int:
    """``afdesk --self-test``: the report on stdout; 0 if whole, else 1 and what is
    missing on stderr."""
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[0] if __doc__ else "afdesk --self-test")
        return 0
    from afdesk import __version__

    frozen = " (frozen build)" if getattr(sys, "frozen", False) else ""
    print(f"afdesk {__version__}{frozen} self-test, Python {sys.version.split()[0]}")
    results = run_checks()
    for r in results:
        print(f"  {'ok' if r.ok else 'MISSING'}  {r.name}: {r.detail}")
    missing = [r for r in results if not r.ok]
    if missing:
        print(f"afdesk self-test: {len(missing)} problem(s):", file=sys.stderr)
        for r in missing:
            print(f"  - {r.name}: {r.detail}", file=sys.stderr)
        return 1
    print("afdesk self-test: all checks passed")
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    return 0
