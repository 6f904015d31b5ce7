"""Map items built around bare models: each reflects a model change, and a change to one
character touches only that character's items."""

from __future__ import annotations

import math
import random

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsScene

from afdesk.encounter.combatant import Combatant, Side, State, StateKind
from afdesk.encounter.geometry import facing_vector
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddMomentum,
    AddState,
    PlaceCombatant,
    RemoveCombatant,
    RemoveState,
    SetDecoys,
    SetFacing,
)
from afdesk.encounter.ops.zone import ExtendZone, SetEdgeRule, SetSegmentProps
from afdesk.encounter.zone import Edge, EdgeRule, SegmentProps, grid_zone
from afdesk.gui import mapgeom
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.scene import MapScene
from afdesk.gui.map.theme import GM
from afdesk.gui.map.tokens import DecoyItem, OverlapItem, RearArcItem, TokenItem
from afdesk.storage.tilesets import tileset

MEADOWS = (("meadow",) * 3,) * 3


def bare(*combatants: Combatant, layout=MEADOWS) -> EncounterDocument:
    enc = Encounter(zone=grid_zone(tileset("wilderness"), layout))
    for c in combatants:
        enc.apply(AddCombatant(c))
    return EncounterDocument(enc, journal_factory=lambda d: None)


def hero(cid="ann", area=(2, 2), facing=0.0, **kw) -> Combatant:
    return Combatant(
        cid, kw.pop("name", cid.capitalize()), Side.BAND, area=area, facing=facing, **kw
    )


def foe(cid="orc", area=(4, 2), facing=180.0) -> Combatant:
    return Combatant(cid, cid.capitalize(), Side.OPPONENT, group="Foes", area=area, facing=facing)


def snapshot(item) -> QImage:
    """The item alone, painted into a small image."""
    scene = QGraphicsScene()
    scene.addItem(item)
    rect = item.sceneBoundingRect()
    image = QImage(int(rect.width()) + 2, int(rect.height()) + 2, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    scene.removeItem(item)
    return image


# ------------------------------------------------------------------------------ tokens


def test_token_item_reflects_move_facing_and_states(qapp):
    c = hero(area=(2, 3), name="Ann Bell")
    item = TokenItem("ann", GM)
    item.sync(c)
    assert item.pos() == QPointF(*mapgeom.area_centre((2, 3)))
    assert item.badge_texts() == []
    before = snapshot(item)

    item.sync(c.replace(area=(4, 3)))
    assert item.pos() == QPointF(*mapgeom.area_centre((4, 3)))

    item.sync(c.replace(area=(4, 3), facing=90.0))
    assert item.facing == 90.0
    assert snapshot(item) != before

    marked = c.with_state(State(StateKind.BLEEDING, 2)).with_state(State(StateKind.PREPARED))
    item.sync(marked)
    assert item.badge_texts() == ["BLEED 2", "PREP"]
    item.sync(c.with_state(State(StateKind.DOWN)).replace(momentum=()))
    # down (E17) is the plate across the greyed, tilted token, not a small badge
    assert item.badge_texts() == [] and item.fallen == "DOWN"


def test_scene_token_follows_the_documents_ops(qapp):
    doc = bare(hero(), foe())
    scene = MapScene(doc)
    token = scene.tokens["ann"]
    assert doc.push(PlaceCombatant("ann", (6, 7))) == ""
    assert token.pos() == QPointF(*mapgeom.area_centre((6, 7)))
    assert doc.push(SetFacing("ann", 135.0)) == ""
    assert token.facing == 135.0
    assert token.draws_flank and not scene.flanks["ann"].isVisible()  # alone in its area
    assert doc.push(AddState("ann", StateKind.BLEEDING, markers=2)) == ""
    assert doc.push(AddMomentum("ann", 2)) == ""
    assert token.badge_texts() == ["BLEED 2", "+2"]
    assert doc.push(RemoveState("ann", StateKind.BLEEDING)) == ""
    assert token.badge_texts() == ["+2"]
    doc.undo_stack.undo()
    assert token.badge_texts() == ["BLEED 2", "+2"]
    assert doc.push(RemoveCombatant("orc")) == ""
    assert "orc" not in scene.tokens
    assert not [i for i in scene.items() if getattr(i, "cid", "") == "orc"]


def test_a_change_resyncs_only_that_character(qapp, monkeypatch):
    doc = bare(hero(), foe(), hero("bob", (0, 0)), foe("elf", (10, 10)))
    scene = MapScene(doc)
    items = {cid: scene.tokens[cid] for cid in scene.tokens}
    tiles = dict(scene.tiles)
    synced = []
    real = TokenItem.sync

    def spy(self, c, **kw):
        synced.append(self.cid)
        return real(self, c, **kw)

    monkeypatch.setattr(TokenItem, "sync", spy)
    assert doc.push(PlaceCombatant("ann", (2, 4))) == ""
    assert set(synced) == {"ann"}
    assert scene.tokens == items and scene.tiles == tiles


def test_overlap_tokens_side_by_side_and_highlighted(qapp):
    doc = bare(hero(), foe(), hero("bob", (6, 6)))
    scene = MapScene(doc)
    assert not scene.overlaps
    assert doc.push(PlaceCombatant("orc", (2, 2))) == ""
    assert doc.push(PlaceCombatant("bob", (2, 2))) == ""
    assert set(scene.overlaps) == {(2, 2)}
    assert isinstance(scene.overlaps[(2, 2)], OverlapItem)
    # Sharing the area, the flank lines go under the tokens, through the area's centre.
    centre = QPointF(*mapgeom.area_centre((2, 2)))
    for cid in ("ann", "orc", "bob"):
        flank = scene.flanks[cid]
        assert flank.isVisible() and flank.pos() == centre and not scene.tokens[cid].draws_flank
        assert flank.zValue() < scene.tokens[cid].zValue()
    assert doc.push(SetFacing("ann", 135.0)) == ""
    a, b = scene.flanks["ann"]._ends
    assert abs((b.x() - a.x()) + (b.y() - a.y())) < 1e-6  # perpendicular to facing SE
    assert abs(b.x() - a.x()) > 1
    tokens = [scene.tokens[c] for c in ("ann", "orc", "bob")]
    x, y, w, h = mapgeom.area_rect((2, 2))
    area = QRectF(x, y, w, h)
    for t in tokens:
        disc = QRectF(t.pos().x() - t.radius, t.pos().y() - t.radius, 2 * t.radius, 2 * t.radius)
        assert area.contains(disc)
    for i, a in enumerate(tokens):
        for b in tokens[i + 1 :]:
            d = math.dist((a.pos().x(), a.pos().y()), (b.pos().x(), b.pos().y()))
            assert d >= a.radius + b.radius
    assert doc.push(PlaceCombatant("orc", (5, 5))) == ""
    assert not scene.overlaps
    assert scene.tokens["orc"].draws_flank and not scene.flanks["orc"].isVisible()
    assert scene.tokens["ann"].pos() != scene.tokens["bob"].pos()


def test_hidden_opponent_makes_no_overlap_mark(qapp):
    doc = bare(hero(), foe(area=(2, 2)))
    assert doc.push(AddState("orc", StateKind.HIDDEN)) == ""
    scene = MapScene(doc)
    assert not scene.overlaps


def test_actor_ring_and_selection_follow_the_document(qapp):
    doc = bare(hero(), foe(), hero("bob", (6, 6)))
    scene = MapScene(doc)
    assert not any(t.actor for t in scene.tokens.values())
    doc.encounter.apply(deal_hands(doc.encounter, random.Random(1)))
    doc.encounter.apply(play_cards(doc.encounter, rng=random.Random(2)))
    actor = doc.encounter.actor
    assert [c for c, t in scene.tokens.items() if t.actor] == [actor]
    assert scene.actor_mark.isVisible()
    assert scene.actor_mark.area == doc.encounter.combatants[actor].area
    doc.encounter.apply(NextTurn())
    actor = doc.encounter.actor
    assert [c for c, t in scene.tokens.items() if t.actor] == [actor]
    assert scene.actor_mark.area == doc.encounter.combatants[actor].area
    assert doc.push(PlaceCombatant(actor, (7, 7))) == ""
    assert scene.actor_mark.area == (7, 7)
    doc.select("bob")
    assert scene.tokens["bob"].selected and scene.handle.isVisible()
    assert scene.handle.cid == "bob"
    doc.select("")
    assert not scene.tokens["bob"].selected and not scene.handle.isVisible()


def test_hidden_character_and_its_decoys_in_the_gm_scene(qapp):
    doc = bare(hero(), foe(area=(8, 8)))
    scene = MapScene(doc)
    assert doc.push(AddState("orc", StateKind.HIDDEN)) == ""
    assert doc.push(SetDecoys("orc", ((7, 8), (9, 9)))) == ""
    assert "orc" in scene.tokens
    decoys = [i for i in scene.items() if isinstance(i, DecoyItem)]
    assert sorted(d.area for d in decoys) == [(7, 8), (9, 9)]
    for d in decoys:
        assert d.pos() == QPointF(*mapgeom.area_centre(d.area))
    assert doc.push(RemoveState("orc", StateKind.HIDDEN)) == ""
    assert not [i for i in scene.items() if isinstance(i, DecoyItem)]


def test_decoy_sharing_an_area_sits_beside_the_token(qapp):
    doc = bare(hero(), foe(area=(3, 2)))
    scene = MapScene(doc)
    assert doc.push(AddState("orc", StateKind.HIDDEN)) == ""
    assert doc.push(SetDecoys("orc", ((2, 2),))) == ""
    decoy = next(i for i in scene.items() if isinstance(i, DecoyItem))
    assert decoy.pos() != scene.tokens["ann"].pos()
    assert decoy.radius == scene.tokens["ann"].radius < 0.36 * mapgeom.AREA


# ---------------------------------------------------------------------------- terrain


def test_zone_items_follow_zone_changes(qapp):
    doc = bare(hero())
    scene = MapScene(doc)
    assert len(scene.tiles) == 9
    n_segments = sum(len(t.segments) for t in doc.encounter.zone.tiles)
    assert len(scene.segments) == n_segments
    before = dict(scene.tiles)
    assert doc.push(ExtendZone(Edge.EAST, ("forest", "river", "meadow"))) == ""
    assert len(scene.tiles) == 12
    assert all(scene.tiles[k] is item for k, item in before.items())
    assert scene.zone_rect().width() == 4 * 5 * mapgeom.AREA
    assert doc.push(SetSegmentProps(0, 0, 0, SegmentProps(water=True, rough=True))) == ""
    seg = scene.segments[(0, 0, 0)]
    assert "Rough" in seg.toolTip() and "Water" in seg.toolTip()
    assert scene.tiles[(1, 0)] is before[(1, 0)]
    assert doc.push(SetEdgeRule(EdgeRule(Edge.NORTH, True, "the cliff road"))) == ""
    assert "the cliff road" in scene.edges[Edge.NORTH].text()
    assert "EXIT" in scene.edges[Edge.NORTH].text()
    doc.undo_stack.undo()
    assert "the cliff road" not in scene.edges[Edge.NORTH].text()


def test_rear_arcs_shade_behind_the_flank(qapp):
    doc = bare(hero(facing=0.0), foe())
    scene = MapScene(doc)
    scene.set_rear_arcs(True)
    assert set(scene.rears) == {"ann", "orc"}
    doc.select("ann")
    arc = scene.rears["ann"]
    assert isinstance(arc, RearArcItem) and arc.full and not scene.rears["orc"].full
    cx, cy = mapgeom.area_centre((2, 2))
    poly = arc._poly
    assert all(poly.at(i).y() >= cy - 1e-6 for i in range(poly.count()))
    assert doc.push(SetFacing("ann", 90.0)) == ""
    assert all(arc._poly.at(i).x() <= cx + 1e-6 for i in range(arc._poly.count()))
    scene.set_rear_arcs(False)
    assert not scene.rears and not [i for i in scene.items() if isinstance(i, RearArcItem)]


# ---------------------------------------------------------------------------- mapgeom


@given(st.integers(min_value=1, max_value=16))
def test_slots_never_overlap_and_stay_inside(n):
    offsets, radius = mapgeom.slots(n)
    assert len(offsets) == n
    for x, y in offsets:
        assert x - radius >= -0.5 and x + radius <= 0.5
        assert y - radius >= -0.5 and y + radius <= 0.5
    for i, a in enumerate(offsets):
        for b in offsets[i + 1 :]:
            assert math.dist(a, b) >= 2 * radius - 1e-9


@given(
    st.floats(min_value=0, max_value=359.9),
    st.floats(min_value=-50, max_value=400),
    st.floats(min_value=-50, max_value=400),
)
def test_half_plane_is_behind_the_flank(facing, cx, cy):
    pts = mapgeom.half_plane((cx, cy), facing, (0.0, 0.0, 320.0, 320.0))
    fx, fy = facing_vector(facing)
    for x, y in pts:
        assert (x - cx) * fx + (y - cy) * fy <= 1e-6
        assert -1e-6 <= x <= 320 + 1e-6 and -1e-6 <= y <= 320 + 1e-6


def test_half_disc_lies_behind():
    for facing in (0.0, 45.0, 200.0):
        fx, fy = facing_vector(facing)
        for x, y in mapgeom.half_disc((0.0, 0.0), facing, 10.0):
            assert x * fx + y * fy <= 1e-9


def test_outline_of_an_l_shape():
    pieces = mapgeom.outline([(0, 0), (0, 1), (1, 1)])
    assert len(pieces) == 8
    a = mapgeom.AREA
    assert ((a, a), (2 * a, a)) in pieces
    assert ((0, a), (a, a)) not in pieces
