"""Down and out on the token itself (E17), on the GM's map and the players': a down
character's token is drawn greyed and tilted with a DOWN plate across it; a character out
of the fight keeps a greyed, tilted token with OUT where it fell (the undo history holds
the place), gone again when the decision is undone. Before, the players had a ticker line."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.roster import AddState, AdjustCounter
from afdesk.gui import style
from afdesk.gui.map.fallen import OutItem
from afdesk.gui.map.view import MapView
from tests.gui.conftest import wait_exposed


def _views(doc, qtbot):
    views = (MapView(doc), MapView(doc, player=True))
    for v in views:
        qtbot.addWidget(v)
        v.resize(1100, 760)
        v.show()
        wait_exposed(qtbot, v)
    return views


def _shows(view, rect: QRectF, colour: QColor) -> int:
    """How many pixels of ``colour`` (within a small tolerance) the view paints of the
    scene's ``rect`` (every other pixel)."""
    where = view.mapFromScene(rect).boundingRect().intersected(view.viewport().rect())
    image = view.viewport().grab(where).toImage().convertToFormat(QImage.Format.Format_RGB32)
    want = colour.rgb() & 0xFFFFFF
    hits = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            px = image.pixel(x, y) & 0xFFFFFF
            hits += all(abs(((px >> s) & 255) - ((want >> s) & 255)) <= 6 for s in (0, 8, 16))
    return hits


def _out(doc, cid):
    grit = doc.encounter.combatants[cid].grit
    assert doc.push(AdjustCounter(cid, "hits", grit)) == ""
    assert doc.push(DecideHarm(cid, "out")) == ""


def test_a_down_token_is_greyed_tilted_and_says_down_on_both_maps(playing_doc, qtbot):
    views = _views(playing_doc, qtbot)
    plate = style.FALLEN["down"]
    for v in views:
        assert _shows(v, v.map_scene.tokens["bandit-1"].sceneBoundingRect(), plate) == 0
    assert playing_doc.push(AddState("bandit-1", StateKind.DOWN)) == ""
    for v in views:
        token = v.map_scene.tokens["bandit-1"]
        assert token.fallen == "DOWN"
        assert "DOWN" not in token.badge_texts()  # the plate says it, large
        assert _shows(v, token.sceneBoundingRect(), plate) > 20
        assert v.map_scene.tokens["bandit-2"].fallen == ""
    playing_doc.undo()
    assert all(v.map_scene.tokens["bandit-1"].fallen == "" for v in views)


def test_out_of_the_fight_leaves_an_out_token_where_it_fell(playing_doc, qtbot):
    views = _views(playing_doc, qtbot)
    area = playing_doc.encounter.combatants["bandit-2"].area
    _out(playing_doc, "bandit-2")
    assert playing_doc.encounter.combatants["bandit-2"].area is None
    scenes = [v.map_scene for v in views]
    for v, scene in zip(views, scenes, strict=True):
        assert "bandit-2" not in scene.tokens  # no token to select or drag
        item = scene.fallen.items["bandit-2"]
        assert isinstance(item, OutItem) and item.area == area
        assert _shows(v, item.sceneBoundingRect(), style.FALLEN["out"]) > 20
        assert scene.character_at(item.pos()) == ""
    # a scene made now (the players' window opened later) shows it too
    later = _views(playing_doc, qtbot)  # kept: a dropped view's scene goes with it
    fresh = later[1].map_scene
    assert fresh.fallen.items["bandit-2"].area == area
    playing_doc.undo()  # the decision undone: back on its feet, no OUT token
    for scene in (*scenes, fresh):
        assert "bandit-2" not in scene.fallen.items and "bandit-2" in scene.tokens
    playing_doc.redo()
    assert all(s.fallen.items["bandit-2"].area == area for s in (*scenes, fresh))


def test_the_players_never_see_a_hidden_characters_out_token(playing_doc, qtbot):
    views = _views(playing_doc, qtbot)  # kept: a dropped view's scene goes with it
    gm, players = (v.map_scene for v in views)
    assert playing_doc.push(AddState("bandit-2", StateKind.HIDDEN)) == ""
    _out(playing_doc, "bandit-2")
    assert "bandit-2" in gm.fallen.items and "bandit-2" not in players.fallen.items


def test_where_they_fell_is_followed_step_by_step_not_read_again():
    """The OUT tokens' places (E17) follow the undo history change by change: after every
    step done, undone, redone, merged or forgotten at the undo limit they are those of the
    whole history read afresh, and each change reads the places of the steps it brought
    only (the whole history was read on every change: the third hour cost more)."""
    import random

    from afdesk.encounter.errors import IllegalOp
    from afdesk.encounter.fallen import fell_at
    from afdesk.encounter.history import History
    from afdesk.encounter.ops.reflex import deal_hands, play_cards
    from afdesk.encounter.ops.roster import SetFacing
    from afdesk.gui.map.fallen import FallPlaces
    from afdesk.storage import samples
    from tests.benchmarks import long_session

    enc = samples.build()
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    history = History(enc, limit=40)  # a short limit: the oldest steps are forgotten
    places = FallPlaces()
    rng = random.Random(8)
    ids = list(enc.combatants)
    merges = brought = 0

    def check() -> None:
        expected = fell_at(history.steps[: history.index])
        assert {cid: places.place(cid) for cid in ids if places.place(cid)} == expected

    for _ in range(400):
        before = places.read
        kind, ops = long_session.change(enc, rng, "wide")
        try:
            if kind == "undo" and history.can_undo():
                history.undo()
            elif kind == "redo" and history.can_redo():
                history.redo()
                brought += 1
            elif ops and rng.random() < 0.1:  # a burst of turns: one merged step
                c = rng.choice([c for c in enc.roster() if c.on_map] or [None])
                if c is not None:
                    history.push(SetFacing(c.id, rng.choice((0.0, 90.0)), True), merge_key="f")
                    merges += 1
            elif ops:
                history.push(ops)
        except IllegalOp:
            pass
        places.follow(history.steps, history.index)
        assert places.read - before <= 1  # the step done or redone, if any
        check()
    assert merges and brought and len(history.steps) == 40
    assert any(fell_at(history.steps[: history.index]).values())
