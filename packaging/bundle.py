"""What the Linux one-folder build bundles, and what it asks of the system (the spec prunes
with it; check.py verifies with it).

The floor: every bundled library and executable asks for at most glibc 2.35 (Ubuntu 22.04
LTS). The interpreter built on the build machine sets it (libpython asks for 2.35 there), so
the build leaves to the system what would ask for more, or what must match the desktop:

- the C++ runtime (libstdc++, libgcc_s) and expat: every desktop has them, and a newer one
  serves an older program; the build machine's copies asked for glibc 2.36;
- the GTK stack: Qt's GTK platform theme plugin (native dialogs and colours on GNOME)
  loads with the desktop's own GTK, cairo, pango, gio..., or not at all; what only it needs
  is not bundled (that stack asked for 2.34 to 2.35 and must be the desktop's own anyway);
- what nothing bundled needs any more: the Qt platform plugins an app on a desktop never
  uses (framebuffer, EGLFS, VNC, Vulkan display) and the libraries only they need.

Versions are read with ``objdump`` (binutils: ``sudo apt install binutils``).
"""

from __future__ import annotations

import posixpath
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

GLIBC_FLOOR = (2, 35)
"""The newest glibc a bundled file may ask for: Ubuntu 22.04 LTS's."""

GLIBCXX_FLOOR = (3, 4, 30)
"""The newest C++ runtime (GLIBCXX_) the bundle may ask of the system: Ubuntu 22.04's
(GCC 12)."""

FROM_THE_SYSTEM = ("libstdc++.so", "libgcc_s.so", "libexpat.so")
"""Library names (prefixes) the build never bundles: the system's C++ runtime and expat."""

THEME_PLUGINS = ("platformthemes/libqgtk3.so",)
"""Plugins that load with the desktop's own libraries: what only they need stays out."""

UNUSED_PLUGINS = (
    "platforms/libqeglfs.so",
    "platforms/libqlinuxfb.so",
    "platforms/libqminimalegl.so",
    "platforms/libqvkkhrdisplay.so",
    "platforms/libqvnc.so",
    "egldeviceintegrations/",
    "generic/",
)
"""Qt plugins a desktop app does not use: the platforms for a bare framebuffer, EGLFS,
VNC and a Vulkan display, and their input and device plugins. Left: xcb (X11), wayland,
offscreen (``check``, ``export-png`` and the packaging check run there) and minimal."""

UNUSED_DATA = ("PySide6/Qt/translations/",)
"""Bundled data an English-only Qt Widgets app never reads: Qt's own translations."""

_GLIBC = re.compile(r"\*UND\*.*\((GLIBC_[0-9.]+)\)")
_GLIBCXX = re.compile(r"\*UND\*.*\((GLIBCXX_[0-9.]+)\)")


def version(text: str) -> tuple[int, ...]:
    """``GLIBC_2.34`` -> (2, 34)."""
    return tuple(int(part) for part in text.split("_", 1)[1].split("."))


def is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _objdump(flag: str, path: Path) -> str:
    done = subprocess.run(["objdump", flag, str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"objdump {flag} {path}: {done.stderr.strip()}")
    return done.stdout


def needed(path: Path) -> list[str]:
    """The libraries ``path`` names as DT_NEEDED."""
    return re.findall(r"^\s*NEEDED\s+(\S+)", _objdump("-p", path), re.MULTILINE)


def asks(path: Path) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The newest glibc and C++ runtime versions ``path`` asks for (its undefined symbols'
    ``GLIBC_`` and ``GLIBCXX_`` versions in ``objdump -T``); () where none."""
    table = _objdump("-T", path)
    glibc = max((version(v) for v in _GLIBC.findall(table)), default=())
    glibcxx = max((version(v) for v in _GLIBCXX.findall(table)), default=())
    return glibc, glibcxx


def _is_library(dest: str) -> bool:
    name = dest.rsplit("/", 1)[-1]
    return name.startswith("lib") and ".so" in name and not name.startswith("libpython")


def _is_plugin(dest: str) -> bool:
    return "/plugins/" in f"/{dest}"


def _matches(dest: str, patterns: Iterable[str]) -> bool:
    return any(p in dest for p in patterns)


def prune(binaries: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """PyInstaller's binaries (dest, source, typecode) less the system's C++ runtime and
    expat, the unused plugins, and every library that none of the rest needs: the roots
    are the Python extension modules, libpython and the plugins kept; a theme plugin is
    kept but what only it needs is not."""
    kept = [
        b
        for b in binaries
        if not b[0].rsplit("/", 1)[-1].startswith(FROM_THE_SYSTEM)
        and not (_is_plugin(b[0]) and _matches(b[0], UNUSED_PLUGINS))
    ]
    by_name: dict[str, list[tuple[str, str, str]]] = {}
    for b in kept:
        by_name.setdefault(b[0].rsplit("/", 1)[-1], []).append(b)
    roots = [b for b in kept if not _is_library(b[0]) or _is_plugin(b[0])]
    reached: set[str] = set()
    todo = [b[1] for b in roots if not _matches(b[0], THEME_PLUGINS) and is_elf(Path(b[1]))]
    while todo:
        for name in needed(Path(todo.pop())):
            if name in by_name and name not in reached:
                reached.add(name)
                todo.extend(b[1] for b in by_name[name] if is_elf(Path(b[1])))
    return [b for b in kept if b in roots or b[0].rsplit("/", 1)[-1] in reached]


def prune_data(
    datas: list[tuple[str, str, str]], binaries: list[tuple[str, str, str]]
) -> list[tuple[str, str, str]]:
    """PyInstaller's data files less Qt's translations and the symbolic links (PyInstaller
    files them with the data: ``libQt6Core.so.6 -> PySide6/Qt/lib/libQt6Core.so.6``) to
    binaries that are not among ``binaries``."""
    there = {posixpath.normpath(b[0].replace("\\", "/")) for b in binaries}

    def target(dest: str, link: str) -> str:
        return posixpath.normpath(posixpath.join(posixpath.dirname(dest), link))

    return [
        (dest, src, kind)
        for dest, src, kind in datas
        if not dest.replace("\\", "/").startswith(UNUSED_DATA)
        and (kind != "SYMLINK" or target(dest.replace("\\", "/"), src) in there)
    ]


def newest_asked(folder: Path) -> list[tuple[tuple[int, ...], tuple[int, ...], Path]]:
    """(glibc, C++ runtime, file) for every ELF file under ``folder`` (symbolic links
    left out: their targets are there), the newest glibc first."""
    found = [
        (*asks(path), path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink() and is_elf(path)
    ]
    return sorted(found, key=lambda row: (row[0], row[1]), reverse=True)


def dotted(v: tuple[int, ...]) -> str:
    return ".".join(map(str, v)) or "none"
