"""What the Linux one-folder build bundles (packaging/bundle.py, read by the spec and the
packaging check): the system's C++ runtime and expat stay out, what only Qt's GTK theme
plugin needs stays out, the unused platform plugins and what only they need go, Qt's
translations and the links to what went go too; the glibc versions asked are read from
``objdump -T``. Built from this venv's PySide6 and the system's libraries, as PyInstaller
lists them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import PySide6

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import bundle  # noqa: E402

QT = Path(PySide6.__file__).parent / "Qt"
SYSTEM = Path("/usr/lib/x86_64-linux-gnu")


def _entry(dest: str, src: Path, kind: str = "BINARY") -> tuple[str, str, str]:
    assert src.exists(), src
    return dest, str(src), kind


def _binaries() -> list[tuple[str, str, str]]:
    pyside = Path(PySide6.__file__).parent
    qt_lib = [
        _entry(f"PySide6/Qt/lib/{p.name}", p)
        for p in sorted((QT / "lib").glob("libQt6*.so.6"))
        if p.name.split(".")[0]
        in (
            "libQt6Core",
            "libQt6Gui",
            "libQt6DBus",
            "libQt6Widgets",
            "libQt6Network",
            "libQt6XcbQpa",
            "libQt6OpenGL",
            "libQt6EglFSDeviceIntegration",
        )
    ]
    plugins = [
        _entry(f"PySide6/Qt/plugins/{name}", QT / "plugins" / name)
        for name in (
            "platforms/libqxcb.so",
            "platforms/libqoffscreen.so",
            "platforms/libqvnc.so",
            "platforms/libqeglfs.so",
            "platformthemes/libqgtk3.so",
        )
    ]
    system = [
        _entry(name, SYSTEM / name)
        for name in ("libstdc++.so.6", "libgcc_s.so.1", "libcairo.so.2", "libglib-2.0.so.0")
    ]
    module = _entry("PySide6/QtWidgets.abi3.so", pyside / "QtWidgets.abi3.so", "EXTENSION")
    return [module, *qt_lib, *plugins, *system]


def test_prune_keeps_what_the_app_needs_and_leaves_the_rest():
    kept = {dest for dest, _, _ in bundle.prune(_binaries())}
    for needed in (
        "PySide6/QtWidgets.abi3.so",
        "PySide6/Qt/lib/libQt6Widgets.so.6",
        "PySide6/Qt/lib/libQt6Gui.so.6",
        "PySide6/Qt/lib/libQt6XcbQpa.so.6",  # the xcb plugin's
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",  # with the desktop's own GTK
        "libglib-2.0.so.0",  # Qt's event loop needs it, not only GTK
    ):
        assert needed in kept, needed
    for left in (
        "libstdc++.so.6",  # the system's C++ runtime
        "libgcc_s.so.1",
        "libcairo.so.2",  # only the GTK theme plugin needs it
        "PySide6/Qt/plugins/platforms/libqvnc.so",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/lib/libQt6Network.so.6",  # only VNC needed it
        "PySide6/Qt/lib/libQt6EglFSDeviceIntegration.so.6",  # only EGLFS needed it
    ):
        assert left not in kept, left


def test_prune_data_drops_translations_and_links_to_what_went():
    binaries = [("PySide6/Qt/lib/libQt6Core.so.6", "/x/libQt6Core.so.6", "BINARY")]
    datas = [
        ("PySide6/Qt/translations/qt_de.qm", "/x/qt_de.qm", "DATA"),
        ("resources/encounters/a.afenc", "/x/a.afenc", "DATA"),
        ("libQt6Core.so.6", "PySide6/Qt/lib/libQt6Core.so.6", "SYMLINK"),
        ("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6", "SYMLINK"),
    ]
    assert bundle.prune_data(datas, binaries) == datas[1:3]


def test_the_glibc_asked_for_is_read_from_objdump(tmp_path):
    plugin = QT / "plugins" / "platforms" / "libqoffscreen.so"
    shutil.copy2(plugin, tmp_path / plugin.name)
    (tmp_path / "link.so").symlink_to(plugin.name)
    (tmp_path / "notes.txt").write_text("not a binary")
    ((glibc, cxx, path),) = bundle.newest_asked(tmp_path)
    assert path == tmp_path / plugin.name
    assert (2, 2) < glibc <= (2, 35)  # manylinux wheels: old enough for Ubuntu 22.04
    assert (3, 4) <= cxx <= bundle.GLIBCXX_FLOOR
    assert bundle.version("GLIBC_2.34") == (2, 34)
    assert bundle.dotted((2, 35)) == "2.35"
