"""On a desktop without libxcb-cursor0 afdesk says what to install instead of
letting Qt abort the process."""

from __future__ import annotations

import pytest

from afdesk.gui import app, platform_check


def _find_all_but(*absent):
    return lambda lib: None if lib in absent else f"lib{lib}.so"


def test_a_missing_xcb_library_is_named_with_its_package():
    env = {"DISPLAY": ":0"}
    missing = platform_check.missing_packages(env, _find_all_but("xcb-cursor"), "linux")
    assert missing == ["libxcb-cursor0"]
    text = platform_check.advice(missing)
    assert "sudo apt install libxcb-cursor0" in text and "xcb" in text


def test_nothing_is_missing_when_qt_will_not_use_xcb():
    find = _find_all_but("xcb-cursor")
    assert platform_check.missing_packages({"QT_QPA_PLATFORM": "offscreen"}, find, "linux") == []
    assert platform_check.missing_packages({"DISPLAY": ":0"}, find, "darwin") == []
    assert platform_check.missing_packages({"DISPLAY": ":0"}, _find_all_but(), "linux") == []


def test_main_exits_2_with_the_advice_before_any_window(monkeypatch, capsys):
    monkeypatch.setattr(platform_check, "missing_packages", lambda: ["libxcb-cursor0"])
    made = []
    monkeypatch.setattr(app, "make_app", lambda args: made.append(args))
    assert app.main([]) == 2
    assert made == []
    assert "sudo apt install libxcb-cursor0" in capsys.readouterr().err


NOTHING: dict[str, str] = {}


def test_no_display_on_linux_without_display_or_wayland_display():
    text = platform_check.no_display(NOTHING, system="linux")
    assert text.startswith("afdesk: no display found:")
    assert "ssh -X" in text and "DISPLAY=:0 afdesk" in text
    # Qt asked for X11 or Wayland without its display is no display either
    assert platform_check.no_display({"QT_QPA_PLATFORM": "xcb"}, system="linux") == text
    only_wayland = {"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}
    assert platform_check.no_display(only_wayland, system="linux") == text
    assert platform_check.no_display({"QT_QPA_PLATFORM": "wayland;xcb"}, system="linux") == text


@pytest.mark.parametrize(
    "env",
    [
        {"DISPLAY": ":0"},
        {"WAYLAND_DISPLAY": "wayland-0"},
        {"QT_QPA_PLATFORM": "offscreen"},
        {"QT_QPA_PLATFORM": "vnc"},
        {"QT_QPA_PLATFORM": "xcb:nograb", "DISPLAY": ":1"},
        {"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"},
    ],
)
def test_a_display_is_found(env):
    assert platform_check.no_display(env, system="linux") == ""


def test_windows_and_macos_always_have_a_display():
    assert platform_check.no_display(NOTHING, system="win32") == ""
    assert platform_check.no_display(NOTHING, system="darwin") == ""
