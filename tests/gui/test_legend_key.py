"""The map legend's key (what the colours and glyphs mean) sits at the panel's foot: a turn
or a round moving on repaints the header alone, on the GM's map and the players', though
the header grows and shrinks (a two-line round line while the cards are played, an
actor's name on one line or two). Before, the key followed the header and was painted
again whole at most turns: the largest part of a turn's repaint, and of an undo across a
round. In a panel too short for both, the key follows the header as before."""

from __future__ import annotations

import random

import pytest
from PySide6.QtWidgets import QApplication

from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.state import Phase
from afdesk.gui.map import theme
from afdesk.gui.map.overlays import KEY_HEIGHT, LegendItem
from afdesk.gui.map.view import MapView
from tests.gui.conftest import wait_exposed
from tests.gui.test_incremental_views import same_legend_picture


def _key_paints(view) -> list[int]:
    """Counts the key's section titles painted in ``view``'s scene from now on."""
    legend = view.map_scene.legend
    count = [0]
    section = legend._section

    def counted(painter, y, text):
        count[0] += 1
        return section(painter, y, text)

    legend._section = counted
    return count


@pytest.mark.parametrize("size", [(1100, 760), (560, 380)])
def test_turns_and_rounds_repaint_the_header_alone(doc, qtbot, size):
    """At a laptop's zoom and at a small one (a view repaints whole pixels and a margin
    around what changed: more of the scene, the smaller the zoom)."""
    views = [MapView(doc), MapView(doc, player=True)]
    for view in views:
        qtbot.addWidget(view)
        view.resize(*size)
        view.show()
        wait_exposed(qtbot, view)
    for _ in range(3):  # painted whole once
        QApplication.processEvents()
    enc = doc.encounter
    rng = random.Random(5)
    counts = [_key_paints(view) for view in views]
    heights = set()
    for _ in range(24):  # three rounds and more: cards, turns, the next deal
        if enc.turn.phase is Phase.TURNS:
            doc.push(NextTurn())
        elif enc.turn.phase is Phase.CARDS:
            doc.push(play_cards(enc, rng=rng))
        else:
            doc.push(deal_hands(enc, rng))
        for _ in range(3):
            QApplication.processEvents()
        legend = views[0].map_scene.legend
        heights.add((len(legend.turn_lines()), legend._actor))
    assert len(heights) > 3  # the header changed height and words
    assert [c[0] for c in counts] == [0, 0]
    assert all(view.map_scene.legend._anchor is not None for view in views)
    for view in views:  # and what shows is what a fresh paint shows
        same_legend_picture(view)


def test_a_short_panel_puts_the_key_under_the_header():
    legend = LegendItem(theme.GM)
    legend.sync("River ford", "Exchange 1 · Round 1", "Bandit Chief Gao", None, 600)
    assert legend._anchor is None  # 608 tall: the key follows the header
    legend.sync("River ford", "Exchange 1 · Round 1", "Bandit Chief Gao", None, 950)
    assert legend._anchor == 950 - 16 - KEY_HEIGHT


def test_the_key_is_as_tall_as_the_room_left_for_it():
    """KEY_HEIGHT, which places the key at the panel's foot, is what painting it takes: a
    row added to the key without it would run past the panel."""
    from PySide6.QtGui import QImage, QPainter

    image = QImage(400, 800, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        for t in (theme.GM, theme.PLAYER):
            assert LegendItem(t).paint_key(painter, 100.0) == 100.0 + KEY_HEIGHT
    finally:
        painter.end()


def test_a_round_line_is_wrapped_once(monkeypatch):
    """A turn asks the round line's wrapping four times (the header's height, whether it
    kept its height, the paint): each try of a word measured the line again."""
    from PySide6.QtGui import QFontMetricsF

    legend = LegendItem(theme.GM)
    long_line = "Exchange 12 · reflex cards for round 3 · the band has the edge in the ruins"
    legend.sync("River ford", long_line, "Bandit Chief Gao", None, 950)
    wrapped = legend.turn_lines()
    assert len(wrapped) > 1 and " ".join(wrapped) == long_line
    measured = []
    own = QFontMetricsF.horizontalAdvance
    monkeypatch.setattr(
        QFontMetricsF, "horizontalAdvance", lambda fm, *a: measured.append(a) or own(fm, *a)
    )
    for _ in range(4):
        assert legend.turn_lines() == wrapped
    assert measured == []
    wrapped[0] = "changed by a caller"  # a copy: what is kept stays as wrapped
    assert legend.turn_lines()[0] != "changed by a caller"
    other = legend.turn_lines("Exchange 2 · Round 1")  # another line: wrapped (measured)
    assert " ".join(other) == "Exchange 2 · Round 1"
    assert measured
