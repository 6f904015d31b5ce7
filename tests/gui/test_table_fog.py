"""Fog by tile and by segment on the players' screen: a fogged region has no
item at all in the players' scene and no pixel in the exported player image; the GM sees it
translucent; every change is an Op (undo, log)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.fog import fogged, region_at, tile_region
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.fog import SetFog
from afdesk.encounter.ops.roster import AddState, PlaceCombatant, SetDecoys
from afdesk.gui import mapgeom
from afdesk.gui.document import EncounterDocument
from afdesk.gui.export import render_map
from afdesk.gui.map.fog_layer import PLAYER_FOG, PLAYER_FOG_LINE, FogItem, TilePiece
from afdesk.gui.map.scene import MapScene
from afdesk.gui.map.terrain import GridItem, SegmentItem, TileItem
from afdesk.gui.map.tokens import DecoyItem, OverlapItem, TokenItem
from afdesk.storage import decode, encode
from afdesk.storage import samples as sample

FORD = (7, 7)
"""An area of the Ford segment of the Ford tile (1, 1)."""


def fogged_doc() -> EncounterDocument:
    """The sample with the Meadow tile (1, 0) fogged (Gao and both bandits stand there),
    the Ford segment fogged, one area brushed where Huang stands, and the archer hidden
    with a decoy under the fog."""
    enc = sample.build()
    enc.apply(AddState("archer", StateKind.HIDDEN))
    enc.apply(SetDecoys("archer", ((11, 0), (12, 1))))
    enc.apply(SetFog.of(tile_region(enc.zone.tile_at(1, 0)), True))
    enc.apply(SetFog.of(region_at(enc.zone, FORD), True))
    enc.apply(SetFog(((7, 11), (11, 0)), True, "2 areas"))
    return EncounterDocument(enc, journal_factory=lambda d: None)


def assert_nothing_under_fog(scene: MapScene) -> None:
    under = fogged(scene.enc.zone, scene.enc.fog)
    assert under
    for item in scene.items():
        if isinstance(item, (TokenItem, DecoyItem)):
            assert item.area not in under, item
        elif isinstance(item, SegmentItem):
            assert not set(item.areas) & under, item.segment.name
        elif isinstance(item, TilePiece):
            assert item.area not in under
        elif isinstance(item, TileItem):
            assert not set(item.tile.areas()) & under, item.tile.name
        elif isinstance(item, OverlapItem):
            assert item.area not in under
    for area in under:
        at = scene.items(QPointF(*mapgeom.area_centre(area)))
        # A clear segment's box may span a fogged area it does not hold (checked above).
        at = [i for i in at if not (isinstance(i, SegmentItem) and area not in i.areas)]
        kinds = {type(i) for i in at}
        assert kinds <= {FogItem, GridItem}, (area, kinds)
        assert FogItem in kinds
    for cid, c in scene.enc.combatants.items():
        if c.area in under:
            assert cid not in scene.tokens


def test_the_players_scene_has_no_item_under_the_fog(qapp):
    doc = fogged_doc()
    player = MapScene(doc, player=True)
    gm = MapScene(doc)
    assert_nothing_under_fog(player)
    assert {"gao", "bandit-1", "bandit-2", "huang"} & set(player.tokens) == set()
    # The GM still sees everyone and every tile, under translucent fog items.
    assert {"gao", "bandit-1", "bandit-2", "huang", "archer"} <= set(gm.tokens)
    assert len(gm.tiles) == 9
    assert len(gm.fog.items) == len(fogged(doc.encounter.zone, doc.encounter.fog))
    assert all(not i.player for i in gm.fog.items.values())
    # A decoy under the fog is gone for the table, the other one stays.
    assert sorted(i.area for i in player.decoys.values()) == [(12, 1)]


def test_reveal_and_hide_follow_the_document_undo_and_log(qapp):
    doc = fogged_doc()
    player = MapScene(doc, player=True)
    ford = region_at(doc.encounter.zone, FORD)
    assert doc.push(SetFog.of(ford, False)) == ""
    assert doc.encounter.log[-1].text == "Revealed the Ford"
    assert_nothing_under_fog(player)
    assert not set(ford.areas) & set(player.fog.items)
    assert any(isinstance(s, SegmentItem) and s.segment.name == "Ford" for s in player.items())
    doc.undo_stack.undo()
    assert set(ford.areas) <= set(player.fog.items)
    assert_nothing_under_fog(player)
    # Revealing the Meadow brings Gao and the bandits back; fogging where the table's
    # characters stand takes them away again.
    meadow = tile_region(doc.encounter.zone.tile_at(1, 0))
    assert doc.push(SetFog.of(meadow, False)) == ""
    assert {"gao", "bandit-1", "bandit-2"} <= set(player.tokens)
    assert doc.push(PlaceCombatant("gao", (8, 4))) == ""
    assert doc.push(SetFog(((8, 4),), True, "area (8, 4)")) == ""
    assert "gao" not in player.tokens and "bandit-1" in player.tokens
    assert_nothing_under_fog(player)
    # Moving into the fog hides; out of it shows.
    assert doc.push(PlaceCombatant("gao", (8, 3))) == ""
    assert "gao" in player.tokens
    assert doc.push(PlaceCombatant("bandit-1", (8, 4))) == ""
    assert "bandit-1" not in player.tokens
    assert_nothing_under_fog(player)


def test_refused_fog_changes_say_why(qapp):
    doc = fogged_doc()
    ford = region_at(doc.encounter.zone, FORD)
    assert "is already fogged" in doc.push(SetFog.of(ford, True))
    assert "outside the zone" in doc.push(SetFog(((99, 99),), True))
    assert "No areas" in doc.push(SetFog((), False))


def test_fog_is_part_of_the_file_and_old_files_have_none():
    doc = fogged_doc()
    again = Encounter.from_state(decode(encode(doc.encounter.state())))
    assert again.fog == doc.encounter.fog
    assert Encounter.from_state(decode(encode(sample.build().state()))).fog.areas == ()


FOG_PIXELS = {PLAYER_FOG.rgb(), PLAYER_FOG_LINE.rgb()}


def area_pixels(image, scene_rect: QRectF, area, size):
    """The pixels well inside ``area`` of an image that fitted ``scene_rect`` into ``size``."""
    w, h = size
    scale = min(w / scene_rect.width(), h / scene_rect.height())
    ox = (w - scene_rect.width() * scale) / 2 - scene_rect.x() * scale
    oy = (h - scene_rect.height() * scale) / 2 - scene_rect.y() * scale
    x, y, aw, ah = mapgeom.area_rect(area)
    x0, y0 = int(ox + x * scale) + 3, int(oy + y * scale) + 3
    x1, y1 = int(ox + (x + aw) * scale) - 3, int(oy + (y + ah) * scale) - 3
    return {image.pixel(px, py) & 0xFFFFFF for px in range(x0, x1) for py in range(y0, y1)}


@pytest.mark.parametrize("player", [True, False])
def test_the_exported_player_image_has_no_pixel_under_the_fog(qapp, player):
    doc = fogged_doc()
    size = (1600, 900)
    image = render_map(doc.encounter, size, player=player)
    scene = MapScene(doc, player=player)
    rect = scene.map_rect()
    fog = {QColor(c).rgb() & 0xFFFFFF for c in FOG_PIXELS}
    for area in sorted(fogged(doc.encounter.zone, doc.encounter.fog)):
        pixels = area_pixels(image, rect, area, size)
        if player:
            assert pixels <= fog, area  # the fog's two colours and nothing else
        else:
            assert not pixels <= fog  # the GM sees the ground through it


# ------------------------------------------------------------------- the GM's fog tool


def test_the_fog_tool_flips_a_segment_a_tile_the_selection_and_brushes(qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from test_map_view import LEFT, NO, SHIFT, at, open_view

    from afdesk.gui.table.fog_tool import FogTool

    view, doc = open_view(qtbot, sample.build())
    view.add_tool(FogTool(view))
    view.set_tool("fog")
    vp = view.viewport()
    QTest.mouseClick(vp, LEFT, NO, at(view, FORD))
    assert doc.encounter.log[-1].text == "Fogged the Ford"
    ford = set(region_at(doc.encounter.zone, FORD).areas)
    assert fogged(doc.encounter.zone, doc.encounter.fog) == ford
    QTest.keyClick(view, Qt.Key.Key_H)  # the selected region flips back
    assert doc.encounter.log[-1].text == "Revealed the Ford"
    assert not doc.encounter.fog.areas
    QTest.mouseClick(vp, LEFT, SHIFT, at(view, FORD))
    assert doc.encounter.log[-1].text == "Fogged the Ford tile (1, 1)"
    assert len(fogged(doc.encounter.zone, doc.encounter.fog)) == 25
    doc.undo_stack.undo()
    assert not doc.encounter.fog.areas
    # Ctrl+drag: the brush, one undo step for the stroke.
    ctrl = Qt.KeyboardModifier.ControlModifier
    steps = doc.undo_stack.index()
    QTest.mousePress(vp, LEFT, ctrl, at(view, (0, 0)))
    for c in range(1, 4):
        QTest.mouseMove(vp, at(view, (c, 0)))
    QTest.mouseRelease(vp, LEFT, ctrl, at(view, (3, 0)))
    assert doc.encounter.fog.areas == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert doc.undo_stack.index() == steps + 1
    assert doc.encounter.log[-1].text == "Fogged 4 areas"
    doc.undo_stack.undo()
    assert not doc.encounter.fog.areas


def test_the_table_menu_fogs_and_reveals_the_whole_zone(qtbot):
    from PySide6.QtCore import QSettings

    from afdesk.gui.main_window import MainWindow

    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.set_document(EncounterDocument(sample.build(), journal_factory=lambda d: None))
    acts = {a.text().replace("&", ""): a for a in w.table.menu.actions()}
    acts["Fog the whole zone"].trigger()
    assert len(fogged(w.doc.encounter.zone, w.doc.encounter.fog)) == 15 * 15
    assert w.doc.encounter.log[-1].text == "Fogged the whole zone"
    acts["Reveal the whole zone"].trigger()
    assert not w.doc.encounter.fog.areas
    acts["Fog tool"].trigger()
    assert w.map.active_tool().name == "fog"
    acts["Fog tool"].trigger()
    assert w.map.active_tool().name == "move"
    acts["Fog regions…"].trigger()
    dialog = w.table.regions_dialog
    assert dialog.isVisible() and dialog.doc is w.doc
    w.set_document(EncounterDocument(sample.build(), journal_factory=lambda d: None))
    assert not dialog.isVisible()  # it showed the other document's fog


def test_export_png_player_of_a_fogged_file_has_no_pixel_under_the_fog(qapp, tmp_path):
    from PySide6.QtGui import QImage

    from afdesk.gui.export import main
    from afdesk.storage import save

    doc = fogged_doc()
    path = tmp_path / "fogged.afenc"
    save(path, doc.encounter.state())
    out = tmp_path / "player.png"
    assert main([str(path), str(out), "--player", "--size", "1600x900"]) == 0
    image = QImage(str(out))
    rect = MapScene(doc, player=True).map_rect()
    fog = {QColor(c).rgb() & 0xFFFFFF for c in FOG_PIXELS}
    for area in sorted(fogged(doc.encounter.zone, doc.encounter.fog)):
        assert area_pixels(image, rect, area, (1600, 900)) <= fog, area


def test_the_fog_regions_dialog_ticks_what_is_fogged_and_fogs_what_is_ticked(qtbot):
    from PySide6.QtCore import Qt

    from afdesk.gui.table.fog_regions import FogRegionsDialog

    doc = fogged_doc()
    refused: list = []
    dialog = FogRegionsDialog(doc, refused.append)
    qtbot.addWidget(dialog)
    ford = dialog.item_named("the Ford")
    assert ford.checkState(0) == Qt.CheckState.Checked and ford.text(1) == "hidden"
    ford_tile = ford.parent()
    assert ford_tile.checkState(0) == Qt.CheckState.PartiallyChecked
    meadow = dialog.item_named("the Meadow tile (1, 0)")
    assert meadow.checkState(0) == Qt.CheckState.Checked
    ford.setCheckState(0, Qt.CheckState.Unchecked)
    assert doc.encounter.log[-1].text == "Revealed the Ford"
    assert ford_tile.checkState(0) == Qt.CheckState.Unchecked
    doc.undo_stack.undo()
    assert dialog.item_named("the Ford").checkState(0) == Qt.CheckState.Checked
    forest = dialog.item_named("the Forest tile (0, 0)")
    forest.setCheckState(0, Qt.CheckState.Checked)
    assert doc.encounter.log[-1].text == "Fogged the Forest tile (0, 0)"
    assert not refused
