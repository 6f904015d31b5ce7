"""Screen control and real size: Hold, Push, Follow and the frame on the GM's map;
calibration gives the right pixel size for a screen size and DPI; the zoom is locked at real
size and panning goes by whole areas; the view turns; a ping pulses an area and goes."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from afdesk.gui import mapgeom
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.gui.player_view import PlayerWindow
from afdesk.gui.table.realsize import (
    CalibrationError,
    area_pixels,
    area_pixels_from_line,
    pixels_per_inch,
)
from afdesk.gui.table.screen import PingItem
from afdesk.storage import samples as sample
from tests.gui.conftest import wait_exposed

AREA = mapgeom.AREA


# ------------------------------------------------------------------- calibration


def test_a_55_inch_1080p_tv_has_40_pixels_to_the_inch():
    assert pixels_per_inch(55, 1920, 1080) == pytest.approx(math.hypot(1920, 1080) / 55)
    assert area_pixels(55, 1920, 1080) == pytest.approx(40.05, abs=0.01)
    assert area_pixels(55, 1920, 1080, unit="25mm") == pytest.approx(40.05 * 25 / 25.4, abs=0.01)


def test_a_scaled_desktop_halves_the_logical_pixels():
    # A 27" 4K monitor shown at 200 %: 163 physical pixels to the inch, 81.6 logical.
    assert area_pixels(27, 3840, 2160) == pytest.approx(163.2, abs=0.1)
    assert area_pixels(27, 3840, 2160, device_pixel_ratio=2.0) == pytest.approx(81.6, abs=0.1)


def test_a_measured_line_gives_the_size_too():
    assert area_pixels_from_line(400, 100) == pytest.approx(101.6)
    assert area_pixels_from_line(400, 100, unit="25mm") == pytest.approx(100.0)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: area_pixels(0, 1920, 1080), "diagonal must be more than 0"),
        (lambda: area_pixels(55, 0, 1080), "size must be positive"),
        (lambda: area_pixels(55, 1920, 1080, unit="cubit"), "not 'cubit'"),
        (lambda: area_pixels_from_line(400, 0), "measured length must be more than 0"),
    ],
)
def test_bad_numbers_say_what_is_wrong(call, words):
    with pytest.raises(CalibrationError, match=words):
        call()


# -------------------------------------------------------------- the players' view


@pytest.fixture
def player(doc, qtbot):
    w = PlayerWindow(doc)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    wait_exposed(qtbot, w)
    return w


def on_screen_vector(view, dx: float, dy: float) -> QPointF:
    a = view.mapFromScene(QPointF(0, 0))
    b = view.mapFromScene(QPointF(dx, dy))
    return QPointF(b - a)


def test_real_size_locks_the_zoom_and_pans_by_whole_areas(player):
    cam = player.camera
    px = area_pixels(55, 1920, 1080)
    cam.set_real_size(px)
    view = player.view
    assert view.transform().m11() * AREA == pytest.approx(px)
    one = on_screen_vector(view, AREA * 10, 0)
    assert one.x() == pytest.approx(px * 10, abs=1)  # ten areas, 400 px: one per inch
    zoom = view.transform().m11()
    wheel = QWheelEvent(
        QPointF(200, 200),
        QPointF(view.viewport().mapToGlobal(QPoint(200, 200))),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.transform().m11() == zoom  # locked
    centre = view.mapToScene(view.viewport().rect().center())
    assert mapgeom.area_at(centre.x(), centre.y()) == mapgeom.area_at(
        cam._centre.x(), cam._centre.y()
    )
    before = cam._centre
    cam.pan_areas(1, 0)
    assert cam._centre - before == QPointF(AREA, 0)
    cam.pan_areas(0, -2)
    assert cam._centre - before == QPointF(AREA, -2 * AREA)
    # Turned a quarter for a TV lying flat: still one inch an area, the map on its side;
    # "right" on the screen is still right.
    cam.set_rotation(90)
    turned = on_screen_vector(view, AREA, 0)
    assert abs(turned.x()) < 0.5 and abs(turned.y()) == pytest.approx(px, abs=0.5)
    at = cam._centre
    cam.pan_areas(1, 0)
    step = on_screen_vector(view, (cam._centre - at).x(), (cam._centre - at).y())
    assert step.x() == pytest.approx(px, abs=0.5) and abs(step.y()) < 0.5
    cam.set_real_size(None)
    whole = player.view.map_scene.map_rect()
    shown = cam.shown().boundingRect()
    assert shown.contains(whole.adjusted(1, 1, -1, -1))  # fitted again, turned


def test_hold_shows_a_title_card_or_black(player):
    player.hold("title")
    assert player.stack.currentWidget() is player.hold_card
    assert player.hold_card.title == "Ambush at the river ford"
    assert player.strip.isHidden()
    player.hold("black")
    assert player.hold_card.kind == "black"
    player.hold("")
    assert player.stack.currentWidget() is player.view
    with pytest.raises(ValueError):
        player.hold("sepia")


def test_a_ping_pulses_and_goes(player, qtbot):
    item = player.ping((7, 7))
    assert isinstance(item, PingItem) and item.scene() is player.view.map_scene
    qtbot.waitUntil(lambda: item.scene() is None, timeout=5000)


# ----------------------------------------------------------- from the GM's window


@pytest.fixture
def gm(qtbot):
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.set_document(EncounterDocument(sample.build(), journal_factory=lambda d: None))
    w.show()
    wait_exposed(qtbot, w)
    return w


def centre_of(polygon) -> QPointF:
    return polygon.boundingRect().center()


def test_push_follow_and_the_frame_on_the_gm_map(gm, qtbot):
    screen = gm.table.screen
    gm.map.zoom_in()
    gm.map.zoom_in()
    gm.map.centerOn(QPointF(*mapgeom.area_centre((3, 3))))
    screen.push()
    pw = gm.player_window
    qtbot.addWidget(pw)
    wait_exposed(qtbot, pw)
    gm_centre = screen.gm_rect().center()
    tv = centre_of(pw.camera.shown())
    assert abs(tv.x() - gm_centre.x()) < AREA / 2 and abs(tv.y() - gm_centre.y()) < AREA / 2
    # The frame on the GM's map is what the TV shows.
    frame = screen.frame
    assert frame.isVisible() and frame.scene() is gm.map.map_scene
    assert frame.polygon() == pw.camera.shown()
    # Push is once: the GM moves on, the TV stays ...
    gm.map.centerOn(QPointF(*mapgeom.area_centre((11, 11))))
    QApplication.processEvents()
    assert centre_of(pw.camera.shown()) == tv
    # ... Follow keeps up.
    screen.follow_act.trigger()
    assert screen.following
    gm.map.centerOn(QPointF(*mapgeom.area_centre((4, 10))))
    want = screen.gm_rect().center()
    qtbot.waitUntil(
        lambda: (
            abs(centre_of(pw.camera.shown()).x() - want.x()) < AREA / 2
            and abs(centre_of(pw.camera.shown()).y() - want.y()) < AREA / 2
        )
    )
    assert frame.polygon() == pw.camera.shown()
    screen.follow_act.trigger()
    assert not screen.following
    # Hold hides the frame (the TV shows no map).
    screen.hold("black")
    assert pw.held == "black" and not screen.frame.isVisible()
    screen.hold("")
    assert screen.frame.isVisible()
    # A new document: the frame is on the new scene.
    gm.set_document(EncounterDocument(sample.build(), journal_factory=lambda d: None))
    assert screen.frame.scene() is gm.map.map_scene and screen.frame.isVisible()
    # The players' window closed: no frame.
    pw.close()
    assert not screen.frame.isVisible()
    screen.push()  # opens it again
    assert screen.frame.isVisible()


def test_the_ping_tool_pings_where_the_gm_clicks(gm, qtbot):
    from PySide6.QtTest import QTest

    screen = gm.table.screen
    screen.ping_act.trigger()
    assert gm.map.active_tool().name == "ping"
    point = gm.map.mapFromScene(QPointF(*mapgeom.area_centre((7, 7))))
    QTest.mouseClick(
        gm.map.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point
    )
    pw = gm.player_window
    qtbot.addWidget(pw)
    pings = [i for i in pw.view.map_scene.items() if isinstance(i, PingItem)]
    assert [p.area for p in pings] == [(7, 7)]


def test_the_real_size_dialog(player, qtbot):
    from afdesk.gui.table.realsize_dialog import RULER_PX, RealSizeDialog

    dialog = RealSizeDialog(player)
    qtbot.addWidget(dialog)
    assert dialog.ruler.isVisible() and dialog.ruler.parent() is player
    dialog.diagonal.setValue(0)
    dialog.measured.setValue(0)
    dialog.apply()
    assert "diagonal must be more than 0" in dialog.problem.text()
    assert player.camera.area_px is None  # nothing applied
    dialog.measured.setValue(100)
    dialog.unit.setCurrentIndex(dialog.unit.findData("25mm"))
    dialog.apply()
    assert player.camera.area_px == pytest.approx(RULER_PX / 100 * 25)
    again = RealSizeDialog(player)
    qtbot.addWidget(again)
    again.off()
    assert player.camera.area_px is None
