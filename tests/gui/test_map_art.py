"""Map art in the GUI: a picture made here with QImage is imported through the window's
Encounter > Import map art... (the dialog's alignment, its live preview, OK as one undo
step), drawn under the terrain on the GM's map, on the players' screen and by export-png;
a .uvtt map's walls become segments (E10); a file too large or unreadable is refused with
its name and nothing changes (afdesk.gui.editor.art_import, afdesk.gui.map.art)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QImage, QPainter

from afdesk.encounter.art import ART_SIDE, Alignment
from afdesk.gui.editor import art_import
from afdesk.gui.editor.art_dialog import MapArtDialog
from afdesk.gui.main_window import MainWindow
from afdesk.gui.map import art as map_art
from afdesk.gui.map.patterns import TILE_SIZE
from afdesk.gui.map.scene import MapScene
from afdesk.storage import uvtt
from tests.gui.test_prepare_encounter import shown
from tests.pictures import uvtt_document

RED, BLUE = QColor("#d01010"), QColor("#1010d0")


def quadrants(side: int = 300) -> QImage:
    """A picture whose left half is red and right half blue (a cut shows where it fell)."""
    image = QImage(side, side, QImage.Format.Format_RGB32)
    image.fill(RED)
    painter = QPainter(image)
    painter.fillRect(side // 2, 0, side - side // 2, side, BLUE)
    painter.end()
    return image


def saved(image: QImage, path, fmt: str = "PNG"):
    assert image.save(str(path), fmt)
    return path


def window(qtbot, doc) -> MainWindow:
    w = shown(qtbot, MainWindow(QSettings()))
    w.set_document(doc)
    return w


def scene_colour(scene: MapScene, x: float, y: float) -> QColor:
    """The colour the scene draws at a scene point (a 1:1 render of a small square)."""
    out = QImage(4, 4, QImage.Format.Format_ARGB32)
    out.fill(QColor("#000000"))
    painter = QPainter(out)
    from PySide6.QtCore import QRectF

    scene.render(painter, QRectF(0, 0, 4, 4), QRectF(x - 2, y - 2, 4, 4))
    painter.end()
    return out.pixelColor(2, 2)


def test_a_png_for_the_whole_zone_is_cut_into_its_tiles_and_undone_in_one_step(
    qtbot, doc, tmp_path
):
    w = window(qtbot, doc)
    menu = w.zone_editor.art
    assert menu.import_action in w.encounter_menu.actions()
    assert menu.show_action in w.view_menu.actions()
    dialog = menu.dialog_for(saved(quadrants(300), tmp_path / "keep.png"))
    assert isinstance(dialog, MapArtDialog)
    qtbot.addWidget(dialog)
    # the picture fitted to the 3 x 3 zone: 300 px / 15 areas
    assert dialog.alignment() == Alignment(cell=20.0, x=0.0, y=0.0)
    before = dialog.preview_image()
    dialog.cell.setValue(10.0)  # the live preview follows the numbers
    assert dialog.preview_image() != before
    dialog.cell.setValue(20.0)
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    k = dialog.preview_image().width() / 300  # preview pixels per picture pixel
    QTest.mousePress(dialog.preview, Qt.MouseButton.LeftButton, pos=QPoint(50, 50))
    QTest.mouseMove(dialog.preview, QPoint(50 + round(10 * k), 50))
    QTest.mouseRelease(
        dialog.preview, Qt.MouseButton.LeftButton, pos=QPoint(50 + round(10 * k), 50)
    )
    assert dialog.alignment().x == pytest.approx(10, abs=0.5)  # a drag moves the areas
    dialog.x.setValue(0)
    dialog.apply()
    assert dialog.result() == MapArtDialog.DialogCode.Accepted
    art = doc.encounter.art
    assert [a.slot for a in art.tiles] == [(c, r) for r in range(3) for c in range(3)]
    assert {(a.width, a.height, a.mime) for a in art.tiles} == {(100, 100, "image/jpeg")}
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Map art (9 tiles)"
    # drawn under the terrain: the left tile reddish, the right one bluish, terrain see-through
    scene = w.map.map_scene
    assert set(scene.art.items) == {a.slot for a in art.tiles}
    assert scene.tiles[(0, 0)].opacity() == map_art.TERRAIN_OVER_ART
    left = scene_colour(scene, TILE_SIZE * 0.3, TILE_SIZE * 1.5)
    right = scene_colour(scene, TILE_SIZE * 2.7, TILE_SIZE * 1.5)
    assert left.red() > left.blue() and right.blue() > right.red()
    # View > Show map art off: the GM's map draws the tiles as before
    menu.show_action.setChecked(False)
    assert scene.art.items == {} and scene.tiles[(0, 0)].opacity() == 1.0
    menu.show_action.setChecked(True)
    assert len(scene.art.items) == 9
    doc.undo_stack.undo()
    assert doc.encounter.art.tiles == () and scene.art.items == {}
    assert scene.tiles[(0, 0)].opacity() == 1.0


def test_one_tile_gets_a_large_picture_scaled_down_and_the_players_screen_shows_it(
    qtbot, doc, tmp_path
):
    big = QImage(2400, 2400, QImage.Format.Format_ARGB32)
    big.fill(QColor(20, 160, 40, 255))
    dialog = MapArtDialog(doc, big, "meadow.png", tile=(1, 2))
    qtbot.addWidget(dialog)
    assert dialog.tile() == (1, 2) and dialog.alignment() == Alignment(cell=480.0)
    dialog.apply()
    (art,) = doc.encounter.art.tiles
    assert art.slot == (1, 2) and (art.width, art.height) == (ART_SIDE, ART_SIDE)
    assert art.mime == "image/png"  # the picture has an alpha channel: kept as PNG
    players = MapScene(doc, player=True)
    assert set(players.art.items) == {(1, 2)}
    colour = scene_colour(players, TILE_SIZE * 1.5, TILE_SIZE * 2.5)
    assert colour.green() > colour.red()


def test_afdesk_check_accepts_a_file_with_art_and_export_png_draws_it(qtbot, doc, tmp_path):
    from afdesk.gui.export import load_encounter, render_map
    from afdesk.storage import save
    from afdesk.storage.check import check_file

    plain = tmp_path / "plain.afenc"
    save(plain, doc.encounter.state())
    dialog = MapArtDialog(doc, quadrants(300), "keep.png")
    qtbot.addWidget(dialog)
    dialog.apply()
    painted = tmp_path / "painted.afenc"
    save(painted, doc.encounter.state())
    assert check_file(str(painted)) == ""
    with_art = render_map(load_encounter(painted), size=(400, 300))
    without = render_map(load_encounter(plain), size=(400, 300))
    assert with_art != without
    # the left of the zone reddish, the right bluish in the exported picture
    y = 150
    row = [with_art.pixelColor(x, y) for x in range(0, 400, 4)]
    reds = [i for i, c in enumerate(row) if c.red() > c.blue() + 40]
    blues = [i for i, c in enumerate(row) if c.blue() > c.red() + 40]
    assert reds and blues and max(reds) < max(blues)


def test_a_uvtt_map_gives_the_art_and_its_walls_as_segments(qtbot, doc, tmp_path):
    w = window(qtbot, doc)
    document = uvtt_document(
        walls=[[(0, 5), (3, 5)]],
        portals=[{"bounds": [{"x": 3, "y": 5}, {"x": 4, "y": 5}], "closed": True}],
        image=None,
    )
    path = tmp_path / "cellar.dd2vtt"
    path.write_text(json.dumps(document))
    dialog = w.zone_editor.art.dialog_for(path)
    qtbot.addWidget(dialog)
    assert dialog.alignment() == Alignment(cell=4) and dialog.walls.isChecked()
    dialog.apply()
    assert len(doc.encounter.art.tiles) == 9
    from afdesk.encounter.zone import segment_areas, segment_props

    zone = doc.encounter.zone
    assert segment_areas(zone, uvtt.WALLS) == {(0, 5), (1, 5), (2, 5)}
    assert segment_props(zone, uvtt.WALLS).cover
    assert segment_areas(zone, uvtt.DOORS) == {(3, 5)}
    assert doc.undo_stack.count() == 1  # the art and the segments: one step
    doc.undo_stack.undo()
    assert segment_areas(doc.encounter.zone, uvtt.WALLS) == set()
    assert doc.encounter.art.tiles == ()


def test_a_too_large_or_unreadable_file_is_refused_by_name_and_nothing_changes(
    qtbot, doc, tmp_path, monkeypatch
):
    w = window(qtbot, doc)
    menu = w.zone_editor.art
    told: list[str] = []
    menu.report = told.append
    before = doc.encounter.state()
    monkeypatch.setattr(art_import, "MAX_PICTURE_BYTES", 1000)
    menu.import_art(saved(quadrants(300), tmp_path / "huge.png", "BMP"))
    assert told[-1].startswith("huge.png: it is ") and "at most 0 MiB" in told[-1]
    monkeypatch.undo()
    monkeypatch.setattr(art_import, "MAX_PICTURE_SIDE", 200)
    menu.import_art(saved(quadrants(300), tmp_path / "wide.png"))
    assert told[-1] == (
        "wide.png: the picture is 300 x 300 pixels; afdesk imports pictures of at most 200 "
        "pixels a side (nothing changed)"
    )
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    menu.import_art(broken)
    assert told[-1].startswith("broken.png: the picture cannot be read")
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture at all")
    menu.import_art(text)
    assert told[-1].startswith("notes.jpg: this is no picture afdesk can read")
    gif = tmp_path / "old.gif"
    gif.write_bytes(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
    menu.import_art(gif)
    assert "afdesk imports PNG, JPEG and WebP" in told[-1] and told[-1].startswith("old.gif: ")
    bad_uvtt = tmp_path / "cellar.uvtt"
    bad_uvtt.write_text(json.dumps({"image": "AAAA"}))
    menu.import_art(bad_uvtt)
    assert told[-1] == "cellar.uvtt: resolution: the field is missing"
    assert len(told) == 6
    assert doc.encounter.state() == before and doc.undo_stack.count() == 0


def test_a_refused_alignment_is_said_in_the_dialog_which_stays_open(qtbot, doc):
    dialog = MapArtDialog(doc, quadrants(100), "keep.png")
    qtbot.addWidget(dialog)
    dialog.x.setValue(5000)  # the picture lies left of every tile
    dialog.apply()
    assert "covers no tile" in dialog.why.text()
    assert dialog.result() != MapArtDialog.DialogCode.Accepted
    assert doc.encounter.art.tiles == ()


def test_clearing_is_an_op_and_a_picture_that_will_not_decode_is_left_out(qtbot, doc):
    dialog = MapArtDialog(doc, quadrants(300), "keep.png")
    qtbot.addWidget(dialog)
    dialog.apply()
    w = window(qtbot, doc)
    menu = w.zone_editor.art
    w.zone_editor.action.setChecked(True)  # the editor's dock holds the Map art box
    from PySide6.QtWidgets import QGroupBox

    boxes = [b.title() for b in w.zone_editor.panel.findChildren(QGroupBox)]
    assert "Map art" in boxes
    assert menu.clear_selected().startswith("Select a tile")  # never every tile's art
    assert len(doc.encounter.art.tiles) == 9
    assert menu.clear((1, 1)) == ""
    assert len(doc.encounter.art.tiles) == 8
    assert menu.clear() == "" and doc.encounter.art.tiles == ()
    assert "no map art" in menu.clear()
    doc.undo_stack.undo()
    assert len(doc.encounter.art.tiles) == 8
    # bytes that start as a PNG but are not one: no item draws them, nothing breaks
    from afdesk.encounter.art import TileArt

    assert map_art.decoded(TileArt(0, 0, "image/png", 4, 4, b"\x89PNG\r\n\x1a\n....")) is None


@pytest.mark.parametrize("fmt", ["JPEG", "WEBP"])
def test_jpeg_and_webp_pictures_import(qtbot, doc, tmp_path, fmt):
    w = window(qtbot, doc)
    dialog = w.zone_editor.art.dialog_for(saved(quadrants(150), tmp_path / f"k.{fmt.lower()}", fmt))
    qtbot.addWidget(dialog)
    dialog.apply()
    assert len(doc.encounter.art.tiles) == 9


def test_the_players_scene_draws_no_art_under_fog(qtbot, doc):
    """Nothing under fog exists on the players' screen: the picture of a tile with a
    fogged area is drawn over its clear areas only, and follows a reveal."""
    from afdesk.encounter.ops.fog import SetFog

    dialog = MapArtDialog(doc, quadrants(300), "keep.png")
    qtbot.addWidget(dialog)
    dialog.apply()
    doc.push(SetFog(((0, 0),), True, "a corner"))
    players = MapScene(doc, player=True)
    item = players.art.items[(0, 0)]

    def drawn() -> QImage:
        out = QImage(int(TILE_SIZE), int(TILE_SIZE), QImage.Format.Format_ARGB32)
        out.fill(QColor(0, 0, 0, 0))
        painter = QPainter(out)
        item.paint(painter, None)
        painter.end()
        return out

    corner, clear = (20, 20), (int(TILE_SIZE) - 20, int(TILE_SIZE) - 20)
    image = drawn()
    assert image.pixelColor(*corner).alpha() == 0 and image.pixelColor(*clear).alpha() == 255
    assert players.tiles.get((0, 0)) is None  # the tile is drawn in pieces, see-through too
    assert {p.opacity() for p in players.fog.pieced[(0, 0)].values()} == {map_art.TERRAIN_OVER_ART}
    doc.push(SetFog(((0, 0),), False, "a corner"))
    assert drawn().pixelColor(*corner).alpha() == 255
    gm = MapScene(doc)  # the GM's scene draws the whole picture under the fog
    assert len(gm.art.items) == 9


def test_a_tile_whose_picture_takes_too_many_bytes_is_stored_smaller(monkeypatch):
    """A tile's stored picture keeps under the per-tile byte limit: it is scaled down
    further until it fits (seeded noise does not compress)."""
    import random

    rng = random.Random(5)
    noise = QImage(1200, 1200, QImage.Format.Format_RGB32)
    for y in range(0, 1200, 4):
        for x in range(0, 1200, 4):
            noise.setPixelColor(x, y, QColor(rng.randrange(256), rng.randrange(256), 90))
    monkeypatch.setattr(art_import, "ART_TILE_BYTES", 60_000)
    art = art_import.tile_picture(noise, Alignment(cell=240.0), 0, 0)
    assert art is not None and art.mime == "image/jpeg"
    assert len(art.data) <= 60_000 and art.width < ART_SIDE and art.width == art.height
    assert art_import.tile_picture(noise, Alignment(cell=240.0), 3, 0) is None  # beyond it
