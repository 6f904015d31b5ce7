"""Before the window: can Qt's X11 platform plugin load here?

On a fresh Debian or Ubuntu desktop Qt's xcb plugin needs system libraries pip cannot
install (libxcb-cursor0 first of all); without them Qt aborts the process ("could not load
the Qt platform plugin xcb", exit 134). afdesk looks for them first and says what to
install instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping

XCB_NEEDS = (
    ("xcb-cursor", "libxcb-cursor0"),
    ("xkbcommon-x11", "libxkbcommon-x11-0"),
    ("xcb-icccm", "libxcb-icccm4"),
    ("xcb-keysyms", "libxcb-keysyms1"),
    ("xcb-image", "libxcb-image0"),
    ("xcb-render-util", "libxcb-render-util0"),
    ("xcb-randr", "libxcb-randr0"),
    ("xcb-shape", "libxcb-shape0"),
    ("EGL", "libegl1"),
)
"""(library, the Debian/Ubuntu package that has it) for Qt's xcb platform plugin."""


def missing_packages(
    environ: Mapping[str, str] | None = None,
    find: Callable[[str], str | None] | None = None,
    platform: str = sys.platform,
) -> list[str]:
    """The Debian/Ubuntu packages the xcb plugin would miss here ([] if none, or if Qt
    will not use xcb: another platform was asked for, or this is not Linux). ``find``
    looks a library up (default: ``ctypes.util.find_library``, imported only when the
    answer depends on it: it costs a start-up about 20 ms)."""
    env = os.environ if environ is None else environ
    if not platform.startswith("linux"):
        return []
    asked = env.get("QT_QPA_PLATFORM", "")
    if asked and not asked.startswith("xcb"):
        return []  # offscreen, wayland, vnc...: not the X11 plugin
    if not asked and (env.get("WAYLAND_DISPLAY") or not env.get("DISPLAY")):
        return []
    if find is None:
        import ctypes.util

        find = ctypes.util.find_library
    return [package for library, package in XCB_NEEDS if not find(library)]


def advice(packages: list[str]) -> str:
    """What to tell the GM when ``packages`` are missing."""
    return (
        "afdesk cannot open its window: Qt's X11 platform plugin (xcb) needs system "
        f"libraries that are not installed: {', '.join(packages)}.\n"
        f"On Debian or Ubuntu: sudo apt install {' '.join(packages)}\n"
        "(See the README's Set up section.)"
    )


def no_display(environ: Mapping[str, str] | None = None, system: str = sys.platform) -> str:
    """What to tell the GM when the window has no display to open on ("" when it has one):
    on Linux, Qt's X11 plugin needs ``DISPLAY`` and its Wayland plugin ``WAYLAND_DISPLAY``;
    without either (a text console, SSH without X forwarding) Qt aborts the process with
    advice that does not apply. ``QT_QPA_PLATFORM`` chooses the platform plugin."""
    env = os.environ if environ is None else environ
    if not system.startswith("linux"):
        return ""  # Windows and macOS always have their own platform plugin
    asked = env.get("QT_QPA_PLATFORM", "")
    x11 = env.get("DISPLAY", "")
    wayland = env.get("WAYLAND_DISPLAY", "")
    # QT_QPA_PLATFORM may list fallbacks ("wayland;xcb") and carry options ("xcb:...").
    names = [p.split(":", 1)[0].strip() for p in asked.split(";") if p.strip()]
    for name in names or ["xcb", "wayland"]:
        if (name == "xcb" and x11) or (name.startswith("wayland") and wayland):
            return ""
        if name not in ("xcb", "wayland", "wayland-egl"):
            return ""  # offscreen, vnc, eglfs...: a display of its own
    return (
        "afdesk: no display found: the window needs a desktop, and neither DISPLAY (X11) "
        "nor WAYLAND_DISPLAY (Wayland) is set here (a text console, or SSH without X "
        "forwarding).\n"
        "To open the window: start afdesk from the desktop's terminal or menu, or over SSH "
        "with X forwarding (ssh -X HOST afdesk), or on the desktop of this machine that is "
        "already running (DISPLAY=:0 afdesk).\n"
        "Without a window: afdesk check FILE..., afdesk export-png FILE OUT.png, and "
        "QT_QPA_PLATFORM=offscreen afdesk --self-test.\n"
    )
