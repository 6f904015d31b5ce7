"""Where the players' window opens: full screen on the projector when there is a second
screen, on the screen and in the mode the GM left it last (QSettings), and on a single
1280x720 laptop screen a window that fits inside it with its whole bar readable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractButton, QComboBox

from afdesk.gui import screens
from afdesk.gui.player_view import PlayerWindow
from tests.gui.conftest import wait_exposed


def _cut(w: PlayerWindow) -> list[str]:
    """The bar's controls that are narrower than their text needs, or stick out of it."""
    bad = []
    bar = w.bar.rect()
    for c in w.bar.findChildren(QAbstractButton) + w.bar.findChildren(QComboBox):
        if not c.isVisible():
            continue
        text = c.currentText() if isinstance(c, QComboBox) else c.text()
        if c.width() < c.sizeHint().width() or not bar.contains(c.geometry()):
            bad.append(f"{text!r} {c.geometry().getRect()} needs {c.sizeHint().width()}")
    return bad


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768), (1920, 1080), (960, 720)])
def test_on_one_screen_it_opens_as_a_window_inside_it_with_its_bar_whole(
    doc, qtbot, monkeypatch, size
):
    area = QRect(0, 0, *size)
    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(area))
    w = PlayerWindow(doc)
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    assert not w.isFullScreen() and w.bar.isVisible()
    # Room for the window manager's title bar and frame, inside the screen.
    outer = w.geometry().adjusted(-screens.FRAME, -screens.TITLE_BAR, screens.FRAME, screens.FRAME)
    assert area.contains(outer), (w.geometry().getRect(), size)
    assert w.width() >= w.bar.minimumSizeHint().width()
    assert _cut(w) == []
    # Both harm boxes read whole ("opponents", never "oppo…").
    assert [b.text() for b in w.harm_boxes.values()] == ["players", "opponents"]
    # Narrower than the one-row bar: the view options go to a second row.
    below = w.rear_box.geometry().center().y() - w.fullscreen_button.geometry().center().y()
    assert (below > w.fullscreen_button.height() // 2) == (size[0] < 1050), below


def test_leaving_full_screen_fits_the_window_back_inside_its_screen(doc, qtbot, monkeypatch):
    w = PlayerWindow(doc)
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    w.show_fullscreen_on(screens.screen_of(w))
    assert w.isFullScreen() and w.table.player_fullscreen
    w.leave_fullscreen()
    assert not w.isFullScreen() and not w.table.player_fullscreen
    assert screens.screen_of(w).availableGeometry().contains(w.geometry())
    assert w.table.player_screen == screens.screen_of(w).name()
    assert _cut(w) == []


TWO_SCREENS = {
    "screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96},
        {"name": "tv", "x": 1280, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96},
    ]
}

SCRIPT = textwrap.dedent(
    """
    import sys
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    app.setOrganizationName("afdesk-tests"); app.setApplicationName("afdesk-tests")
    from afdesk.gui.document import EncounterDocument
    from afdesk.gui.player_view import PlayerWindow
    from afdesk.gui.screens import screen_of
    from afdesk.storage import samples
    w = PlayerWindow(EncounterDocument(samples.build(), journal_factory=lambda d: None))
    w.show(); app.processEvents()
    print(w.isFullScreen(), screen_of(w).name(), *w.geometry().getRect(), w.bar.isVisible())
    for step in sys.argv[1:]:
        if step == "leave":
            w.leave_fullscreen()
        elif step == "full":
            w.show_fullscreen_on(screen_of(w))
        app.processEvents()
    """
)


def _start(tmp_path, *steps: str) -> list[str]:
    """The players' window opened in a fresh app on a laptop with a TV beside it (the
    offscreen platform with two screens), then ``steps``; its first place."""
    config = tmp_path / "screens.json"
    config.write_text(json.dumps(TWO_SCREENS))
    env = dict(
        os.environ,
        QT_QPA_PLATFORM=f"offscreen:configfile={config}",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        AFDESK_DATA_DIR=str(tmp_path / "data"),
    )
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, *steps],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return out.stdout.split()


def test_with_a_second_screen_it_opens_full_screen_there_and_remembers(tmp_path):
    # First start: full screen on the TV, the bar hidden.
    assert _start(tmp_path, "leave") == ["True", "tv", "1280", "0", "1920", "1080", "False"]
    # The GM left full screen on the TV: next time a window on the TV, inside it.
    full, name, x, y, width, height, bar = _start(tmp_path, "full")
    assert (full, name, bar) == ("False", "tv", "True")
    assert QRect(1280, 0, 1920, 1080).contains(QRect(int(x), int(y), int(width), int(height)))
    # ... and after full screen again, full screen on the TV again.
    assert _start(tmp_path)[:2] == ["True", "tv"]
