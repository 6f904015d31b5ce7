"""On the map: grit and hits on the tokens (the player view as the GM chooses),
the flag when hits reach grit, and every facing pointer and flank visible in an overlap."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from afdesk.encounter.combatant import Side, StateKind
from afdesk.encounter.geometry import facing_vector
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.roster import AdjustCounter
from afdesk.gui import style
from afdesk.gui.main_window import MainWindow
from afdesk.gui.map.marks import FacingMark, set_player_shows_harm
from afdesk.gui.map.scene import MapScene
from afdesk.gui.player_view import PlayerWindow
from tests.gui.test_map_items import bare, foe, hero


def pixel(scene: MapScene, at: QPointF) -> QColor:
    """The colour the scene shows at ``at`` (scene units)."""
    image = QImage(9, 9, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, 9, 9), QRectF(at.x() - 4.5, at.y() - 4.5, 9, 9))
    painter.end()
    return image.pixelColor(4, 4)


def distance(a: QColor, b: QColor) -> int:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())


def test_tokens_show_hits_against_grit_and_flag_when_they_reach_it(qapp):
    doc = bare(hero(hits=1), foe())
    scene = MapScene(doc)
    ann = scene.tokens["ann"]
    assert ann.harm_text() == "1/3" and scene.tokens["orc"].harm_text() == "0/3"
    doc.push(AdjustCounter("ann", "hits", 2))
    assert ann.harm_text() == "3/3 !"  # hits reach grit: flagged for the GM
    doc.push(DecideHarm("ann", "nothing"))
    assert ann.harm_text() == "3/3"
    doc.undo_stack.undo()
    assert ann.harm_text() == "3/3 !"
    scene.detach()


def test_the_player_view_shows_grit_and_hits_per_side_as_the_gm_chooses(qapp, qtbot):
    doc = bare(hero(hits=1), foe())
    table = MapScene(doc, player=True)
    assert table.tokens["ann"].harm_text() == "" and table.tokens["orc"].harm_text() == ""
    table.detach()
    set_player_shows_harm("band", True)
    table = MapScene(doc, player=True)  # the choice is kept in the settings
    assert table.tokens["ann"].harm_text() == "1/3" and table.tokens["orc"].harm_text() == ""
    table.detach()
    window = PlayerWindow(doc)
    qtbot.addWidget(window)
    window.harm_boxes["opponents"].setChecked(True)
    window.harm_boxes["band"].setChecked(False)
    live = window.view.map_scene
    assert live.tokens["orc"].harm_text() == "0/3" and live.tokens["ann"].harm_text() == ""


def test_in_an_overlap_every_pointer_is_drawn_above_the_tokens(qapp):
    # Facing each other in one area (one above the other, mapgeom.slots): without the
    # marks, Orc's disc covers Ann's pointer.
    doc = bare(hero(area=(2, 2), facing=180.0), foe(area=(2, 2), facing=0.0))
    scene = MapScene(doc)
    top = max(t.zValue() for t in scene.tokens.values())
    for cid, token in scene.tokens.items():
        mark = scene.marks[cid]
        assert isinstance(mark, FacingMark) and mark.isVisible() and mark.zValue() > top
        # The pointer starts outside its own disc.
        for p in mark.pointer():
            d = p - token.pos()
            assert (d.x() ** 2 + d.y() ** 2) ** 0.5 >= token.radius
    ann, orc = scene.tokens["ann"], scene.tokens["orc"]
    fx, fy = facing_vector(180.0)
    probe = ann.pos() + QPointF(fx, fy) * (ann.radius + 8.5)
    d = probe - orc.pos()
    assert (d.x() ** 2 + d.y() ** 2) ** 0.5 < orc.radius  # the probe lies on Orc's disc
    seen = pixel(scene, probe)
    ann_pointer = style.side_colour(Side.BAND).lighter(125)
    orc_fill = style.side_colour(Side.OPPONENT)
    assert distance(seen, ann_pointer) < distance(seen, orc_fill)


def test_alone_again_the_token_draws_its_own_pointer(qapp):
    from afdesk.encounter.ops.roster import PlaceCombatant

    doc = bare(hero(area=(2, 2)), foe(area=(2, 2)))
    scene = MapScene(doc)
    assert set(scene.marks) == {"ann", "orc"}
    doc.push(PlaceCombatant("orc", (4, 2)))
    assert set(scene.marks) == set()
    assert scene.tokens["ann"].draws_flank


@pytest.fixture
def window(qtbot, playing_doc):
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.set_document(playing_doc)
    w.show()
    return w


def test_the_character_dock_flags_hits_at_grit_and_the_gm_decides(window, qtbot):
    doc = window.doc
    panel = window.combatant_panel
    gao = doc.encounter.combatant("gao")
    doc.select("gao")
    assert not panel.harm_flag.isVisible()
    doc.push(AdjustCounter("gao", "hits", gao.grit))
    assert panel.harm_flag.isVisible() and "reach grit" in panel.harm_flag.text.text()
    assert window.map.map_scene.tokens["gao"].harm_text().endswith("!")
    qtbot.mouseClick(panel.harm_flag.buttons["down"], Qt.MouseButton.LeftButton)
    assert not panel.harm_flag.isVisible()
    assert doc.encounter.combatant("gao").has(StateKind.DOWN)
    assert "GM decides: Bandit Chief Gao is down" in doc.encounter.log[-1].text
    doc.undo_stack.undo()
    assert panel.harm_flag.isVisible()


def test_the_attack_lines_end_leaves_the_targets_initials_clear(qapp):
    doc = bare(hero(area=(2, 2)), foe(area=(2, 5)))
    scene = MapScene(doc)
    orc = scene.tokens["orc"]
    centre = orc.pos()
    probes = [centre + QPointF(dx, dy) for dx in (-6, 0, 6) for dy in (-6, 0, 6)]
    before = [pixel(scene, p) for p in probes]
    ring = centre + QPointF(orc.radius + 6, 0)
    ring_before = pixel(scene, ring)
    start = scene.tokens["ann"].pos()
    scene.show_path(
        [(start.x(), start.y()), (centre.x(), centre.y())],
        (centre.x(), centre.y()),
        ok=True,
        label="Hack → Orc",
        colour=style.side_colour(Side.BAND),
        ring=orc.radius,
    )
    assert scene.path.isVisible()
    assert [pixel(scene, p) for p in probes] == before  # initials untouched
    assert pixel(scene, ring) != ring_before  # the ring around the target is drawn


def test_in_a_crowded_overlap_every_flank_stub_shows(qapp):
    people = [
        hero("ann", (2, 2), 0.0),
        hero("bea", (2, 2), 90.0),
        foe("orc", (2, 2), 180.0),
        foe("gob", (2, 2), 270.0),
    ]
    scene = MapScene(bare(*people))
    for c in people:
        mark = scene.marks[c.id]
        want = style.side_colour(c.side).lighter(115)
        for a, b in mark.flank_stubs():
            mid = mark.mapToScene((a + b) / 2)
            seen = pixel(scene, mid)
            assert distance(seen, want) < 60, (c.id, seen.name(), want.name())


def test_the_characters_menu_offers_the_decision_while_flagged(playing_doc):
    from afdesk.gui import actions as gm_actions

    doc = playing_doc
    keys = [e.key for e in gm_actions.entries(doc, "gao")]
    assert not any(k.startswith("harm:") for k in keys)
    doc.push(AdjustCounter("gao", "hits", doc.encounter.combatant("gao").grit))
    harm = [e for e in gm_actions.entries(doc, "gao") if e.key.startswith("harm:")]
    assert [e.key for e in harm] == ["harm:down", "harm:out", "harm:nothing"]
    assert all(e.enabled for e in harm)
    assert doc.push(harm[1].op) == ""
    assert doc.encounter.combatant("gao").exited
    assert "GM decides: Bandit Chief Gao is out of the fight" in doc.encounter.log[-1].text
