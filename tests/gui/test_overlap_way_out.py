"""Dragging out of an overlap (E14) is refused with the way out: the refusal names the
"Leave the overlap (move check)" check, which comes first in the character's menu on the
map; the overlap refusals that reach the GM are whole sentences."""

from __future__ import annotations

import re

import pytest
from test_map_view import drag, token_at

from afdesk.encounter import drag as drag_plan
from afdesk.encounter import movement
from afdesk.encounter.errors import IllegalOp
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.view import MapView
from afdesk.gui.token_menu import install as install_token_menu
from tests.encounter.conftest import band, foe, make, start_round


def _held(qtbot):
    enc = make(band("a", (6, 5), facing=0.0), foe("x", (6, 5), facing=0.0))
    start_round(enc, ["a", "opponent:Foes"])
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    view = MapView(doc)
    install_token_menu(view)
    qtbot.addWidget(view)
    view.resize(1100, 760)
    with qtbot.waitExposed(view):
        view.show()
    return view, doc


def _whole_sentences(text: str) -> None:
    assert text[0].isupper(), text
    assert text.endswith("."), text
    # every sentence inside starts with a capital after its full stop
    for later in re.findall(r"\.\s+(\S)", text):
        assert later.isupper() or later == '"', text


def test_E14_a_drag_out_of_an_overlap_names_the_move_check_that_opens_it(qtbot):
    view, doc = _held(qtbot)
    before = doc.encounter.state()
    drag(view, token_at(view, "a"), [(6, 6), (6, 7)])
    text = view.refusal_text()
    assert "overlap with X" in text and f'"{drag_plan.LEAVE_OVERLAP}"' in text
    _whole_sentences(text)
    assert doc.encounter.state() == before  # refused: nothing changed
    menu = view.context_menu("a")
    first = next(a for a in menu.actions() if not a.isSeparator())
    assert first.data() == "leave"
    assert first.text().startswith(drag_plan.LEAVE_OVERLAP) and first.isEnabled()


def test_the_menu_keeps_its_order_outside_an_overlap(qtbot):
    _view, doc = _held(qtbot)
    assert drag_plan.must_leave_overlap(doc.encounter, "a")
    enc = make(band("a", (6, 5), facing=0.0), foe("x", (9, 9), facing=0.0))
    start_round(enc, ["a", "opponent:Foes"])
    assert not drag_plan.must_leave_overlap(enc, "a")
    assert drag_plan.way_out(enc, "a") == ""
    doc2 = EncounterDocument(enc, journal_factory=lambda d: None)
    view2 = MapView(doc2)
    install_token_menu(view2)
    qtbot.addWidget(view2)
    first = next(a for a in view2.context_menu("a").actions() if not a.isSeparator())
    assert first.data() != "leave"


def _refusals() -> list[str]:
    """Every overlap refusal of the model (E14) that a drag or a key reaches."""
    enc = make(band("a", (6, 5), facing=0.0), foe("x", (6, 5)), foe("y", (6, 7)))
    start_round(enc, ["a", "opponent:Foes"])
    c = enc.combatants["a"]
    texts = []

    def refused(call) -> None:
        with pytest.raises(IllegalOp) as info:
            call()
        texts.append(str(info.value))

    refused(lambda: movement.exit_limits(enc, c))
    lost = c.with_economy(exit_to=((6, 4),))
    refused(lambda: movement.path_cost(enc, lost, [(6, 5), (5, 5)]))
    refused(lambda: movement.path_cost(enc, lost, [(6, 5), (6, 4), (6, 3)]))
    refused(lambda: movement.jump_cost(enc, lost, (6, 5), (5, 4)))
    free = c.with_economy(exit_free=True)
    refused(lambda: movement.path_cost(enc, free, [(6, 5), (6, 6), (6, 7), (6, 8)]))
    plan = drag_plan.plan_drag(enc, "a")
    assert plan.kind is drag_plan.DragKind.REFUSED
    texts.append(plan.reason)
    return texts


def test_E14_overlap_refusals_are_whole_sentences():
    texts = _refusals()
    assert len(texts) == 6
    for text in texts:
        _whole_sentences(text)
        assert "(E14)" in text
