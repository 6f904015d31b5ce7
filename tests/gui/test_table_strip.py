"""The reflex strip on the players' screen (E2): this round's cards in play
order, the current actor highlighted; hidden and fogged characters never appear, a hidden
actor's turn shows as "?" or not at all (the GM's choice); a toggle hides the strip."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QRect

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.fog import tile_region
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.fog import SetFog
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.roster import AddState, SetDecoys
from afdesk.encounter.state import Mode
from afdesk.encounter.visibility import player_visible
from afdesk.gui.player_view import PlayerWindow
from afdesk.gui.table.settings import TableSettings
from afdesk.gui.table.strip import strip_state
from tests.gui.conftest import wait_exposed


def names(state) -> list[str]:
    return [c.name for c in state.cards]


def test_the_strip_lists_the_round_in_play_order_with_cards(playing_doc, qtbot):
    w = PlayerWindow(playing_doc)
    qtbot.addWidget(w)
    enc = playing_doc.encounter
    state = w.strip.state
    assert state.head == "Exchange 1 · Round 1 of 5"
    assert names(state) == [enc.combatants[cid].name for cid in enc.turn.order]
    assert [c.current for c in state.cards] == [cid == enc.actor for cid in enc.turn.order]
    assert all(c.card for c in state.cards)  # every hand played a card (E2)
    assert playing_doc.push(NextTurn()) == ""
    state = w.strip.state
    assert state.cards[0].done and not state.cards[0].current and state.cards[1].current


def test_hidden_and_fogged_characters_never_appear(playing_doc, qtbot):
    w = PlayerWindow(playing_doc)
    qtbot.addWidget(w)
    enc = playing_doc.encounter
    assert playing_doc.push(AddState("archer", StateKind.HIDDEN)) == ""
    assert playing_doc.push(SetDecoys("archer", ((11, 0), (12, 1)))) == ""
    assert not player_visible(enc, "archer")
    assert "Bandit Archer" not in w.strip.texts()
    # Fog over the Meadow tile (1, 0): Gao and both bandits stand there.
    assert playing_doc.push(SetFog.of(tile_region(enc.zone.tile_at(1, 0)), True)) == ""
    shown = names(w.strip.state)
    assert not {"Bandit Chief Gao", "Bandit 1", "Bandit 2", "Bandit Archer"} & set(shown)
    assert shown == [
        enc.combatants[c].name
        for c in enc.turn.order
        if c not in {"gao", "bandit-1", "bandit-2", "archer"}
    ]
    assert playing_doc.push(SetFog.of(tile_region(enc.zone.tile_at(1, 0)), False)) == ""
    assert "Bandit Chief Gao" in names(w.strip.state)


def test_a_hidden_actors_turn_shows_as_the_gm_chooses(playing_doc, qtbot):
    enc = playing_doc.encounter
    assert playing_doc.push(AddState("archer", StateKind.HIDDEN)) == ""
    while enc.actor != "archer":
        assert playing_doc.push(NextTurn()) == ""
    w = PlayerWindow(playing_doc)
    qtbot.addWidget(w)
    current = [c for c in w.strip.state.cards if c.current]
    assert [(c.name, c.card, c.side) for c in current] == [("?", "", None)]
    assert "Bandit Archer" not in w.strip.texts()
    TableSettings().hidden_turn = "skip"
    w.refresh_strip()
    assert not [c for c in w.strip.state.cards if c.current]
    assert "?" not in w.strip.texts()
    # The map's legend does not name the hidden actor either.
    assert w.view.map_scene.legend._actor == ""
    assert strip_state(enc, "?").cards != w.strip.state.cards


def test_a_toggle_hides_the_strip_and_is_remembered(playing_doc, qtbot):
    w = PlayerWindow(playing_doc)
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    assert w.strip.isVisible()
    w.strip_box.setChecked(False)
    assert not w.strip.isVisible()
    assert TableSettings().strip_shown is False
    again = PlayerWindow(playing_doc)
    qtbot.addWidget(again)
    again.show()
    wait_exposed(qtbot, again)
    assert not again.strip.isVisible() and not again.strip_box.isChecked()
    again.set_strip_shown(True)
    assert again.strip.isVisible() and again.strip_box.isChecked()


def test_setup_and_card_play_say_so(doc, qtbot):
    w = PlayerWindow(doc)
    qtbot.addWidget(w)
    assert w.strip.state.cards == () and w.strip.state.head == "Setting up"
    assert w.strip.state.note == "The battle has not started"
    doc.push(ChangeMode(Mode.DISPUTE))  # the players read the mode's own word
    assert strip_state(doc.encounter).note == "The dispute has not started"


def test_the_strip_short_names_are_the_maps_labels_not_plain_initials(playing_doc, qtbot):
    """Two characters with the same initials get distinct labels on the map
    (afdesk.encounter.labels); the strip's short names are the same ones."""
    from afdesk.encounter.ops.roster import EditCombatant
    from afdesk.gui.map.view import MapView

    enc = playing_doc.encounter
    bao = enc.combatants["bao"]
    assert playing_doc.push(EditCombatant(bao.replace(name="Brother Gao"))) == ""
    assert enc.combatants["bao"].initials == enc.combatants["gao"].initials == "BG"
    w = PlayerWindow(playing_doc)
    qtbot.addWidget(w)
    view = MapView(playing_doc, player=True)
    qtbot.addWidget(view)
    shown = {c.name: c.label for c in w.strip.state.cards}
    map_labels = view.map_scene.labels
    assert shown["Brother Gao"] == map_labels["bao"] != "BG"
    assert shown["Bandit Chief Gao"] == map_labels["gao"]
    assert shown["Brother Gao"] != shown["Bandit Chief Gao"]
    assert len(set(shown.values())) == len(shown)


def _round_of(n: int, current: int):
    """A round of ``n`` cards, the one at ``current`` in play, those before it done."""
    from afdesk.encounter.combatant import Side
    from afdesk.gui.table.strip import StripCard, StripState

    cards = tuple(
        StripCard(f"Extra {i}", f"E{i}", "6♥", True, Side.OPPONENT, i == current, i < current)
        for i in range(n)
    )
    return StripState("Exchange 1 · Round 1 of 5", cards)


def test_a_round_longer_than_the_strip_shows_a_readable_page_and_the_count_to_come(qtbot):
    """200 cards were 200 slivers (E2): the strip draws as many as it has room for at a
    readable width, from the card before the actor's, and "+N" for those to come."""
    from afdesk.gui.table.strip import MIN_CARD, ReflexStrip

    strip = ReflexStrip()
    qtbot.addWidget(strip)
    strip.resize(1920, 120)
    strip.set_state(_round_of(200, 0))
    strip.resize(1920, strip.height())
    first, count = strip._window(strip.state)
    _x, card_w, card_h = strip._layout()
    assert first == 0 and 3 <= count < 200
    assert card_w >= MIN_CARD * card_h
    assert strip.texts()[-1] == f"+{200 - count}"
    pages = []
    for actor in range(0, 60):
        strip.set_state(_round_of(200, actor))
        first, count = strip._window(strip.state)
        assert first <= max(actor - 1, 0) and actor + 1 < first + count  # the actor, and next
        assert f"Extra {actor}" in strip.texts()
        pages.append(first)
    # a page at a time: the cards stay put for most turns (two cards repainted a turn)
    assert len(set(pages)) <= 60 // (count - 2) + 1
    assert all(a <= b for a, b in itertools.pairwise(pages))  # never back


def test_a_turn_within_a_page_repaints_two_cards(qtbot):
    from afdesk.gui.table.strip import ReflexStrip, _card_span

    strip = ReflexStrip()
    qtbot.addWidget(strip)
    strip.resize(1920, 120)
    strip.set_state(_round_of(200, 3))
    strip.resize(1920, strip.height())
    old, new = strip.state, _round_of(200, 4)
    assert strip._window(old) == strip._window(new)
    dirty = strip.changed_rect(old, new)
    x0, card_w, _h = strip._layout()
    first, count = strip._window(new)
    touched = [
        i
        for i in range(count)
        if dirty.intersects(QRect(*_span_rect(_card_span(x0 + i * (card_w + 8), card_w))))
    ]
    assert first + touched[0] <= 3 and first + touched[-1] >= 4 and len(touched) <= 4


def _span_rect(span: tuple[int, int]) -> tuple[int, int, int, int]:
    lo, hi = span
    return lo, 0, hi - lo, 10


def test_the_count_to_come_fits_beside_the_cards_on_a_tall_strip(qtbot):
    """On a tall strip (a big screen) "+1985" is wider than the room kept for it by
    default: the room follows the number's width in its font."""
    from PySide6.QtGui import QFontMetricsF

    from afdesk.gui.table.strip import ReflexStrip

    for n in (200, 2000):
        strip = ReflexStrip()
        qtbot.addWidget(strip)
        strip.state = _round_of(n, 0)
        strip.setFixedSize(1920, 150)
        x0, card_w, card_h = strip._layout()
        _first, count = strip._window(strip.state)
        after_cards = x0 + count * (card_w + 8)
        more = strip._more(strip.state)
        wide = QFontMetricsF(strip._more_font(card_h)).horizontalAdvance(more)
        assert more == f"+{n - count}" and after_cards + wide <= strip.width() - 12


def test_the_head_is_measured_once_for_its_words_and_font(qtbot, monkeypatch):
    """The head's width is kept for its words and font (a paint and a turn ask for it
    eight times): asked again, it is not measured again; new words or a new font are
    measured anew, and the width is always the one a fresh measure gives."""
    from PySide6.QtGui import QFontMetricsF

    from afdesk.gui.table import strip as strip_module
    from afdesk.gui.table.strip import ReflexStrip, StripState

    strip = ReflexStrip()
    qtbot.addWidget(strip)
    strip.resize(1920, 120)
    measured: list[str] = []

    class Counting(QFontMetricsF):
        def horizontalAdvance(self, text, *args):
            measured.append(text)
            return super().horizontalAdvance(text, *args)

    monkeypatch.setattr(strip_module, "QFontMetricsF", Counting)

    def fresh() -> float:
        metrics = QFontMetricsF(strip._head_font())
        lines = strip.state.head.replace(" · ", "\n").split("\n")
        return max(120.0, max(metrics.horizontalAdvance(line) for line in lines) + 12)

    def asked() -> float:
        return strip._head_rect(strip._head_font()).width()

    strip.set_state(StripState("Round 1", ()))
    assert asked() == fresh() == 120.0  # a short head: the least width
    before = len(measured)
    for _ in range(8):
        assert asked() == 120.0
    assert len(measured) == before  # asked eight times, measured none

    strip.set_state(StripState("Exchange 12 · Round 4 of 5 · the bridge over the gorge", ()))
    wide = asked()
    assert len(measured) > before and wide == fresh() > 120.0
    before = len(measured)
    assert asked() == wide and len(measured) == before

    font = strip.font()
    font.setFamily("DejaVu Serif")
    font.setItalic(True)
    strip.setFont(font)  # another font, the same words: measured anew
    assert asked() == fresh()
    assert len(measured) > before
