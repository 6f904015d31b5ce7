"""The map scene: one item per model object, kept in step with the document's signals.

A change to one character touches only its own items and the areas it left and entered;
a zone change replaces only the tiles that changed. Nothing here decides a rule: overlaps
come from :meth:`Encounter.opponents_in`, reach from :mod:`afdesk.encounter.drag` (the move tool).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPixmapCache
from PySide6.QtWidgets import QGraphicsScene

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.geometry import Area
from afdesk.encounter.labels import ID_AND_NAME, short_labels
from afdesk.encounter.modes import current_mode
from afdesk.encounter.summary import headline
from afdesk.encounter.visibility import decoys_shown_to_players, shown_to_players
from afdesk.encounter.zone import Edge
from afdesk.gui import mapgeom
from afdesk.gui.follow import Links
from afdesk.gui.map.art import ArtLayer
from afdesk.gui.map.fog_layer import FogLayer
from afdesk.gui.map.marks import FacingMark, Harm, player_harm_sides
from afdesk.gui.map.overlays import LEGEND_WIDTH, LegendItem, PathItem, ReachCell, ReachItem
from afdesk.gui.map.terrain import EDGE_DEPTH, EdgeItem, GridItem, SegmentItem, TileItem
from afdesk.gui.map.theme import GM, PLAYER, MapTheme
from afdesk.gui.map.tokens import (
    ActorMark,
    DecoyItem,
    FacingHandle,
    FlankItem,
    OverlapItem,
    RearArcItem,
    TokenItem,
)

MARGIN = EDGE_DEPTH + 12
PIXMAP_CACHE_KB = 256 * 1024
"""The item caches live in QPixmapCache; Qt's default 10 MB holds less than one 1080p
screen of tiles, and a cache that thrashes repaints every tile on every frame."""


class MapScene(QGraphicsScene):
    """The encounter drawn for the GM (``player=False``) or for the table: the player
    scene has no item at all for a hidden character's true place, only its decoys, and no
    GM notes in tooltips."""

    def __init__(self, doc, *, player: bool = False, theme: MapTheme | None = None, parent=None):
        super().__init__(parent)
        if QPixmapCache.cacheLimit() < PIXMAP_CACHE_KB:
            QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)
        self.doc = doc
        self.player = player
        self.theme = theme or (PLAYER if player else GM)
        self.setBackgroundBrush(self.theme.background)
        self.tiles: dict[tuple[int, int], TileItem] = {}
        self.segments: dict[tuple[int, int, int], SegmentItem] = {}
        self.grid: GridItem | None = None
        self.edges: dict[Edge, EdgeItem] = {}
        self.tokens: dict[str, TokenItem] = {}
        self.flanks: dict[str, FlankItem] = {}
        self.decoys: dict[tuple[str, int], DecoyItem] = {}
        self.overlaps: dict[Area, OverlapItem] = {}
        self.rears: dict[str, RearArcItem] = {}
        self.marks: dict[str, FacingMark] = {}
        """Facing pointers and flank stubs of tokens in an overlap, above every token."""
        self.harm_sides = player_harm_sides() if player else frozenset(Side)
        """Whose grit and hits the tokens show: all for the GM, as the GM chose for the
        players."""
        self.legend = LegendItem(self.theme)
        self.addItem(self.legend)
        self.reach = ReachItem()
        self.reach.setVisible(False)
        self.addItem(self.reach)
        self.path = PathItem()
        self.path.setVisible(False)
        self.addItem(self.path)
        self.actor_mark = ActorMark(self.theme)
        self.addItem(self.actor_mark)
        self.handle: FacingHandle | None = None
        if not player:
            self.handle = FacingHandle()
            self.handle.setVisible(False)
            self.addItem(self.handle)
        self._rear_arcs = False
        self._placed: dict[str, tuple[Area | None, tuple[Area, ...]]] = {}
        self._decoy_at: dict[Area, list[tuple[str, int]]] = {}
        self._actor = self.enc.actor
        self._selected = "" if player else doc.selected
        self._names: tuple = ()
        self.labels: dict[str, str] = {}
        """Each character's distinct token label (afdesk.encounter.labels)."""
        self.fog = FogLayer(self)  # the players' scene draws nothing under fog
        self.fog.sync()
        self.art = ArtLayer(self)  # the GM's pictures under the tiles (map art)
        self._links = Links()
        for signal, slot in (
            (doc.artChanged, self.art.sync),
            (doc.fogChanged, self.on_fog),
            (doc.combatantChanged, self.on_combatant),
            (doc.rosterChanged, self.on_roster),
            (doc.zoneChanged, self.on_zone),
            (doc.turnChanged, self.on_turn),
            (doc.metaChanged, self._sync_legend),
            (doc.modeChanged, self.on_mode),
        ):
            self._links.connect(signal, slot)
        if not player:
            self._links.connect(doc.selectionChanged, self.on_selection)
        self.on_zone()
        self.on_roster()
        from afdesk.gui.map.fallen import FallenLayer

        self.fallen = FallenLayer(self)
        """The tokens of those out of the fight, where they fell."""
        self.fallen.sync()
        if hasattr(doc, "undo_stack"):  # the scene receives: gone with it
            self._links.connect(doc.undo_stack.indexChanged, self._sync_fallen)
        self._sync_handle()
        self._sync_actor_mark()

    @property
    def enc(self):
        """The encounter drawn (read only)."""
        return self.doc.encounter

    def detach(self) -> None:
        """Stop following the document (before the scene is dropped)."""
        self._links.clear()

    # ------------------------------------------------------------------- visibility

    def shows(self, c: Combatant) -> bool:
        """Whether this scene draws the character at its true place."""
        if self.player:
            return shown_to_players(c) and not self.fog.hides(c.area)
        return c.on_map

    def _decoy_areas(self, c: Combatant) -> tuple[Area, ...]:
        if self.player and not decoys_shown_to_players(c):
            return ()
        if c.on_map and c.hidden:
            return tuple(tuple(d) for d in c.decoys if not self.fog.hides(tuple(d)))
        return ()

    def focus(self) -> str:
        """The character whose whole rear half-plane is shaded: the selection, else the
        character whose turn it is."""
        for cid in (self._selected, self._actor):
            if cid and cid in self.tokens:
                return cid
        return ""

    # ----------------------------------------------------------------------- zone

    def zone_rect(self) -> QRectF:
        """The zone's areas in scene units."""
        zone = self.enc.zone
        if not zone.tiles:
            return QRectF(0, 0, 0, 0)
        return QRectF(*mapgeom.bounds_rect(zone.area_bounds()))

    def map_rect(self) -> QRectF:
        """The zone, its edge bands and the legend: what "fit to zone" shows."""
        z = self.zone_rect()
        rect = z.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
        if not self.legend.isVisible():  # folded away: the zone gets the room
            return rect
        return rect.united(self.legend.sceneBoundingRect().adjusted(0, 0, 12, 0))

    def on_zone(self) -> None:
        """Replace the tiles that changed, then the grid, edges and legend."""
        zone = self.enc.zone
        new = {(t.col, t.row): t for t in zone.tiles}
        for key in {*self.tiles, *self.fog.drawn}:
            drawn = self.tiles[key].tile if key in self.tiles else self.fog.drawn[key]
            if key not in new or new[key] != drawn:
                self._drop_tile(key)
        self._add_tiles(new)
        if self.grid is not None:
            self.removeItem(self.grid)
        self.grid = GridItem(zone, self.theme)
        self.addItem(self.grid)
        for item in self.edges.values():
            self.removeItem(item)
        self.edges = {}
        if zone.tiles:
            for edge in Edge:
                self.edges[edge] = item = EdgeItem(zone, zone.edge_rule(edge), self.theme)
                self.addItem(item)
        z = self.zone_rect()
        self.legend.setPos(z.right() + MARGIN + 6, z.top() - MARGIN + 6)
        self._sync_legend()
        self.setSceneRect(self.map_rect().adjusted(-4 * 64, -4 * 64, 4 * 64, 4 * 64))
        if self._rear_arcs:
            self._sync_rears()
        self.on_fog()
        self.art.sync()

    def _drop_tile(self, key: tuple[int, int]) -> None:
        item = self.tiles.pop(key, None)
        if item is not None:
            self.removeItem(item)
        self.fog.drop_tile(key)
        for skey in [s for s in self.segments if s[:2] == key]:
            self.removeItem(self.segments.pop(skey))

    def _add_tiles(self, new: dict) -> None:
        """Items for the tiles of ``new`` that have none; in the players' scene none for a
        fogged tile and none for a segment with a fogged area."""
        tagged: dict[Area, int] = {}
        for seg_key in sorted(self.segments):
            item = self.segments[seg_key]
            a = mapgeom.anchor(item.areas)
            tagged[a] = tagged.get(a, 0) + 1
        for key, tile in new.items():
            hidden = self.fog.tile_hidden(key)
            if self.fog.takes_tile(tile, hidden):
                pass  # drawn in pieces, one per clear area
            elif key in self.tiles:
                continue
            else:
                self.tiles[key] = item = TileItem(tile, self.theme)
                self.addItem(item)
            for i, seg in enumerate(tile.segments):
                areas = tile.global_areas(seg)
                if (*key, i) in self.segments or any(tuple(a) in hidden for a in areas):
                    continue
                a = mapgeom.anchor(areas)
                slot = tagged.get(a, 0)
                tagged[a] = slot + 1
                self.segments[(*key, i)] = s_item = SegmentItem(tile, i, self.theme, slot)
                self.addItem(s_item)

    def on_fog(self) -> None:
        """The fog changed: its items, and in the players' scene whatever stands in the
        areas fogged or revealed (only those)."""
        changed = self.fog.sync()
        if not changed or not self.player:
            return
        tiles = {(t.col, t.row): t for t in self.enc.zone.tiles}
        keys = self.fog.tiles_of(changed)
        covered = [a for a in changed if a in self.fog.under]
        for key in self.fog.tiles_of(covered):
            if key in self.tiles:  # a whole tile gets fog: it is drawn in pieces from now
                self.removeItem(self.tiles.pop(key))
        self.fog.cover(covered)
        for skey in [k for k in self.segments if k[:2] in keys]:
            if any(a in self.fog.under for a in self.segments[skey].areas):
                self.removeItem(self.segments.pop(skey))
        self._add_tiles({k: tiles[k] for k in keys if k in tiles})
        for c in self.enc.roster():
            places = (c.area, *(tuple(d) for d in c.decoys))
            if any(p is not None and tuple(p) in changed for p in places):
                self.on_combatant(c.id)
        self._sync_overlaps(changed)
        self._sync_legend()
        self.art.sync()

    # --------------------------------------------------------------------- roster

    def on_roster(self) -> None:
        """Characters joined or left: add and drop their items."""
        ids = set(self.enc.combatants)
        for cid in [c for c in self._placed if c not in ids]:
            self.on_combatant(cid)
        for cid in self.enc.order:
            if cid not in self._placed:
                self.on_combatant(cid)

    def on_combatant(self, cid: str) -> None:
        """One character changed: its items, and the layout of the areas it touches."""
        c = self.enc.combatants.get(cid)
        old_area, old_decoys = self._placed.get(cid, (None, ()))
        if c is None:
            new_area, new_decoys = None, ()
            self._placed.pop(cid, None)
        else:
            new_area = c.area if self.shows(c) else None
            new_decoys = self._decoy_areas(c)
            self._placed[cid] = (new_area, new_decoys)
        token = self.tokens.get(cid)
        if new_area is None and token is not None:
            self.removeItem(self.tokens.pop(cid))
            self.removeItem(self.flanks.pop(cid))
            if cid in self.marks:
                self.removeItem(self.marks.pop(cid))
        elif new_area is not None and token is None:
            # Placed before they join the scene: nothing is repainted at the scene's origin.
            where = QPointF(*mapgeom.area_centre(new_area))
            self.tokens[cid] = token = TokenItem(cid, self.theme)
            token.setPos(where)
            self.addItem(token)
            self.flanks[cid] = flank = FlankItem(cid, self.theme)
            flank.setPos(where)
            self.addItem(flank)
        if token is not None and new_area is not None and not self.player:
            token.set_tooltip(c)
        self._sync_decoys(cid, old_decoys, new_decoys)
        affected = {a for a in (old_area, new_area, *old_decoys, *new_decoys) if a is not None}
        affected |= self._sync_labels()
        for area in affected:
            self._layout(area)
        self._sync_overlaps(affected)
        if self._rear_arcs:
            self._sync_rear(cid)
        if cid == self._selected:
            self._sync_handle()
        if cid == self._actor:
            self._sync_actor_mark()
            if self.player:
                self._sync_legend()  # the actor hid, or came out of hiding

    def _sync_fallen(self, _index: int = 0) -> None:
        self.fallen.sync()

    def on_mode(self) -> None:
        """The mode changed: the decoys show their owners or not (N2)."""
        for area in list(self._decoy_at):
            self._layout(area)

    def _sync_labels(self) -> set[Area]:
        """Work the token labels out again when a name changed; the areas of the tokens
        whose label changed with it (a rename can end or start a clash of initials)."""
        names = tuple(map(ID_AND_NAME, self.enc.roster()))  # read in C: 4 times a change
        if names == self._names:
            return set()
        self._names = names
        old, self.labels = self.labels, short_labels(self.enc.roster())
        out: set[Area] = set()
        for cid, label in self.labels.items():
            if old.get(cid) != label:
                area, decoys = self._placed.get(cid, (None, ()))
                out.update(a for a in (area, *decoys) if a is not None)
        return out

    def _sync_decoys(self, cid: str, old: tuple, new: tuple) -> None:
        for i, area in enumerate(old):
            spots = self._decoy_at.get(area)
            if spots and (cid, i) in spots:
                spots.remove((cid, i))
                if not spots:
                    del self._decoy_at[area]
        for i in range(len(new), len(old)):
            item = self.decoys.pop((cid, i), None)
            if item is not None:
                self.removeItem(item)
        for i, area in enumerate(new):
            self._decoy_at.setdefault(area, []).append((cid, i))
            if (cid, i) not in self.decoys:
                self.decoys[(cid, i)] = item = DecoyItem(cid, i, self.theme)
                self.addItem(item)

    def _layout(self, area: Area) -> None:
        """Put everyone drawn in ``area`` side by side (mapgeom.slots), never on top of
        each other; decoys take a place like tokens."""
        enc = self.enc
        pieces: list[tuple[str, int]] = [
            (cid, -1)
            for cid in enc.occupancy.get(area, ())
            if cid in self.tokens and self._placed.get(cid, (None,))[0] == area
        ]
        pieces += self._decoy_at.get(area, [])
        if not pieces:
            return
        offsets, radius = mapgeom.slots(len(pieces))
        alone = len(pieces) == 1
        # The players never learn whose decoy it is where the mode keeps it secret (N2).
        secret = self.player and current_mode(enc).decoy_owners_secret
        for (cid, index), offset in zip(pieces, offsets, strict=False):
            c = enc.combatants[cid]
            if index < 0:
                actor, selected = cid == self._actor, cid == self._selected
                harm = Harm.of(c) if c.side in self.harm_sides else None
                token = self.tokens[cid]
                token.sync(
                    c,
                    offset=offset,
                    radius=radius,
                    actor=actor,
                    selected=selected,
                    flank=alone,
                    harm=harm,
                    label=self.labels.get(cid, ""),
                )
                self._sync_mark(c, token, alone)
                # Alone, the token draws its own flank line (one cached item, not two);
                # sharing the area, the line goes under every token.
                flank = self.flanks[cid]
                flank.setVisible(not alone)
                if not alone:
                    flank.sync(c, strong=actor or selected)
            else:
                self.decoys[(cid, index)].sync(
                    c,
                    area,
                    offset=offset,
                    radius=radius,
                    link=not self.player,
                    label=None if secret else self.labels.get(cid, ""),
                )

    def _sync_mark(self, c, token: TokenItem, alone: bool) -> None:
        """In an overlap the pointer and flank stubs go above every token."""
        mark = self.marks.get(c.id)
        if alone:
            if mark is not None:
                self.removeItem(self.marks.pop(c.id))
            return
        if mark is None:
            self.marks[c.id] = mark = FacingMark(c.id, self.theme)
            self.addItem(mark)
        mark.sync(c, token.pos(), token.radius)

    def set_harm_sides(self, sides) -> None:
        """Show grit and hits on the tokens of ``sides`` only (the player view's choice)."""
        self.harm_sides = frozenset(sides)
        for area in {a for a, _ in self._placed.values() if a is not None}:
            self._layout(area)

    def _sync_overlaps(self, areas) -> None:
        enc = self.enc
        for area in areas:
            visible = [c for c in enc.occupants(area) if not c.hidden]
            contested = any(enc.opponents_in(area, c) for c in visible)
            contested = contested and not self.fog.hides(area)
            item = self.overlaps.get(area)
            if contested and item is None:
                self.overlaps[area] = item = OverlapItem(area, self.theme)
                self.addItem(item)
            elif not contested and item is not None:
                self.removeItem(self.overlaps.pop(area))

    # ---------------------------------------------------------- turn and selection

    def on_turn(self) -> None:
        """The actor's ring moves; the legend says whose turn it is."""
        actor = self.enc.actor
        if actor != self._actor:
            old, self._actor = self._actor, actor
            self._resync(old, actor)
        self._sync_actor_mark()
        self._sync_legend()

    def on_selection(self, cid: str) -> None:
        """The selection ring and the facing handle follow the GM's selection."""
        if cid == self._selected:
            return
        old, self._selected = self._selected, cid
        self._resync(old, cid)
        self._sync_handle()

    def _resync(self, *cids: str | None) -> None:
        areas = {self._placed[c][0] for c in cids if c and c in self._placed}
        for area in areas - {None}:
            self._layout(area)
        if self._rear_arcs:
            self._sync_rears()

    def _sync_actor_mark(self) -> None:
        token = self.tokens.get(self._actor) if self._actor else None
        self.actor_mark.sync(token.area if token is not None else None)

    def _sync_handle(self) -> None:
        if self.handle is None:
            return
        token = self.tokens.get(self._selected)
        if token is None:
            self.handle.setVisible(False)
            return
        self.handle.sync(token.cid, token.pos(), token.radius, token.facing)
        self.handle.setVisible(True)

    def _sync_legend(self) -> None:
        enc = self.enc
        turn = headline(enc, brief=True)
        actor = enc.combatants.get(enc.actor) if enc.actor else None
        if actor is not None and self.player:
            from afdesk.encounter.visibility import player_visible

            if not player_visible(enc, actor.id):
                actor = None  # a hidden or fogged actor is not named to the table
        self.legend.sync(
            enc.meta.name,
            turn,
            actor.name if actor else "",
            actor.side if actor else None,
            self.zone_rect().height() + 2 * MARGIN - 12,
        )

    # ------------------------------------------------------------------- rear arcs

    def set_rear_arcs(self, on: bool) -> None:
        """Shade what lies behind each character's flank (E11)."""
        self._rear_arcs = bool(on)
        if on:
            self._sync_rears()
        else:
            for item in self.rears.values():
                self.removeItem(item)
            self.rears = {}

    def rear_arcs(self) -> bool:
        return self._rear_arcs

    def _sync_rears(self) -> None:
        for cid in set(self.rears) | set(self.tokens):
            self._sync_rear(cid)

    def _sync_rear(self, cid: str) -> None:
        c = self.enc.combatants.get(cid)
        item = self.rears.get(cid)
        if c is None or cid not in self.tokens or c.area is None:
            if item is not None:
                self.removeItem(self.rears.pop(cid))
            return
        if item is None:
            self.rears[cid] = item = RearArcItem(cid)
            self.addItem(item)
        z = self.zone_rect()
        rect = (z.x(), z.y(), z.width(), z.height())
        item.sync(c.area, c.facing, rect, full=cid == self.focus())

    # --------------------------------------------------------------------- preview

    def show_reach(self, cells: dict[Area, ReachCell]) -> None:
        """Shade the areas a drag can reach (empty: hide)."""
        self.reach.sync(cells)

    def show_path(
        self, points, ghost, *, ok: bool, label: str = "", colour=None, ring: float = 0.0
    ) -> None:
        """Preview a drag's path and landing place (``ring``: an attack line's target)."""
        self.path.sync(points, ghost, ok=ok, label=label, colour=colour, ring=ring)

    def clear_preview(self) -> None:
        """Hide the reach and path of a finished drag."""
        self.reach.sync({})
        self.path.sync([], None, ok=True)

    def preview_facing(self, cid: str, facing: float) -> None:
        """Show ``cid`` turned to ``facing`` while the GM drags the handle (the model
        is untouched; the next sync shows the model again)."""
        token = self.tokens.get(cid)
        if token is None:
            return
        token.preview_facing(facing)
        if self.flanks[cid].isVisible():
            self.flanks[cid].preview(facing)
        if self.handle is not None:
            self.handle.sync(cid, token.pos(), token.radius, facing)

    # -------------------------------------------------------------------- queries

    def character_at(self, pos: QPointF) -> str:
        """The character under a scene point: a token, or (GM) a decoy's owner."""
        for item in self.items(pos):
            if isinstance(item, TokenItem):
                return item.cid
            if isinstance(item, DecoyItem) and not self.player:
                return item.cid
        return ""

    def token_at(self, pos: QPointF) -> str:
        """The character whose token (not decoy) is under a scene point."""
        for item in self.items(pos):
            if isinstance(item, TokenItem):
                return item.cid
        return ""


__all__ = ["LEGEND_WIDTH", "MapScene"]
