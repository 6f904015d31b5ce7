"""The map tools' decisions and the typed selection, as plain functions (no widget, no
event loop): napari-style tests of what a press starts, where a key steps, who Tab picks,
and which thing lies under a point."""

from __future__ import annotations

import pytest

from afdesk.encounter.zone import Edge
from afdesk.gui.map import gestures, selection
from afdesk.gui.map.gestures import Gesture
from afdesk.storage import samples as sample


@pytest.mark.parametrize(
    ("on_handle", "token", "character", "gesture"),
    [
        (True, "gao", "gao", Gesture.TURN),  # the knob wins over the token under it
        (False, "gao", "gao", Gesture.DRAG),
        (False, "", "archer", Gesture.SELECT),  # a decoy: select its owner, never drag
        (False, "", "", Gesture.BAND),  # empty ground: a rubber band
    ],
)
def test_press_gesture(on_handle, token, character, gesture):
    assert gestures.press_gesture(on_handle=on_handle, token=token, character=character) is gesture


def test_is_drag_uses_the_manhattan_distance():
    assert not gestures.is_drag(3, -5, 10)
    assert gestures.is_drag(-4, 6, 10)


@pytest.mark.parametrize(
    ("pointer", "facing"),
    [((0.0, -10.0), 0.0), ((10.0, 0.0), 90.0), ((0.0, 10.0), 180.0), ((-7.0, -7.2), 316.0)],
)
def test_pointer_facing_is_whole_degrees(pointer, facing):
    assert gestures.pointer_facing((0.0, 0.0), pointer) == facing


def test_turned_and_stepped():
    assert gestures.turned(350.0, 15.0) == 5.0
    assert gestures.turned(0.0, -15.0) == 345.0
    assert gestures.stepped((8, 3), (1, -1)) == (9, 2)


def test_next_character_wraps_and_starts_at_an_end():
    order = ["gao", "huang", "chen"]
    assert gestures.next_character(order, "huang", 1) == "chen"
    assert gestures.next_character(order, "chen", 1) == "gao"
    assert gestures.next_character(order, "gao", -1) == "chen"
    assert gestures.next_character(order, "", 1) == "gao"
    assert gestures.next_character(order, "", -1) == "chen"
    assert gestures.next_character([], "gao", 1) == ""


def test_selection_values_compare_plainly():
    assert selection.Character("gao") == selection.Character("gao")
    assert selection.Character("gao") != selection.Area((0, 0))
    assert selection.character_id(selection.Character("gao")) == "gao"
    assert selection.character_id(selection.Tile((0, 0))) == ""
    assert selection.of_character("") is selection.NOTHING
    with pytest.raises(AttributeError):
        selection.Area((0, 0)).area = (1, 1)  # frozen


def test_what_lies_under_a_point():
    zone = sample.build().zone
    assert selection.at(zone, (7, 11), "huang", selection.Character) == selection.Character("huang")
    assert selection.at(zone, (7, 11), "", selection.Character) is selection.NOTHING
    assert selection.at(zone, (7, 11), "", selection.Area) == selection.Area((7, 11))
    assert selection.at(zone, (7, 11), "", selection.Tile) == selection.Tile((1, 2))
    assert selection.at(zone, (-1, 4), "", selection.Edge) == selection.Edge(Edge.WEST)
    assert selection.at(zone, (7, 11), "", selection.Edge) is selection.NOTHING
    assert selection.at(zone, (-1, 4), "", selection.Area) is selection.NOTHING
    tile = zone.tile_at(1, 2)
    assert tile.segments
    for i, seg in enumerate(tile.segments):
        area = tile.global_areas(seg)[0]
        assert selection.at(zone, area, "", selection.Segment) == selection.Segment((1, 2), i)


def test_alt_makes_empty_ground_pan_and_only_empty_ground():
    press = gestures.press_gesture
    assert press(on_handle=False, token="", character="", pan=True) is Gesture.PAN
    assert press(on_handle=False, token="gao", character="gao", pan=True) is Gesture.DRAG


def test_banded_takes_the_centres_inside_either_way_round_in_roster_order():
    centres = {"a": (10.0, 10.0), "b": (50.0, 20.0), "c": (90.0, 90.0), "d": (20.0, 40.0)}
    order = ["d", "c", "b", "a", "gone"]
    assert gestures.banded(((0.0, 0.0), (60.0, 40.0)), centres, order) == ["d", "b", "a"]
    assert gestures.banded(((60.0, 40.0), (0.0, 0.0)), centres, order) == ["d", "b", "a"]
    assert gestures.banded(((11.0, 11.0), (12.0, 12.0)), centres, order) == []
