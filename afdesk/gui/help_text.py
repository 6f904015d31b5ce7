"""The words of Help > Keyboard and Help > About.

The keyboard card (:func:`afdesk.gui.help.keyboard_rows`) lists every menu action's own
shortcut as the window has it, and the chase board's tabs by their own mnemonics, so those
cannot go stale; the keys below are those the map, the zone editor's tool and the players'
window read themselves (key handlers, not actions), kept beside the code that reads them:
gui/map/view.py, gui/map/tools/move.py, facing.py, editor.py, gui/table/fog_tool.py and
gui/player_view.py.
"""

from __future__ import annotations

MAP_KEYS = (
    ("Tab / Shift+Tab", "the next / previous character"),
    ("Drag on empty ground", "select the tokens in the rubber band (Ctrl: add to them)"),
    ("Alt+drag, middle button", "pan the map"),
    ("Arrows", "step one area (Home, End, Page Up, Page Down: diagonally)"),
    ("Q / E, [ / ]", "turn 15°"),
    ("1-9", "face a direction, as on a keypad (8 north, 6 east, ...)"),
    ("Enter", "accept the facing after a move (E11)"),
    ("Shift (Ctrl with the digits)", "move or turn anyone: a GM override the log shows"),
    ("Esc", "cancel a drag or the facing offer; clear the selection"),
    ("+ / - / 0", "zoom in / out / fit the zone"),
    ("Alt+C", "the Character menu (attacks, Defend, Screen, snaps, states)"),
)
"""The map's own keys (the move and facing tools, the view)."""

FOG_KEYS = (
    ("Click", "fog or reveal a segment"),
    ("Shift+click", "the whole tile"),
    ("Ctrl+drag", "brush areas"),
    ("H", "flip the selected region"),
)
"""The fog tool's keys (Table > Fog tool)."""

EDITOR_KEYS = (
    ("Arrows", "select the next tile slot"),
    ("R / Shift+R", "turn the selected tile clockwise / counter-clockwise"),
    ("M", "mirror the selected tile"),
    ("Delete / Backspace", "empty the selected slot"),
    ("Double-click a tile", "put it in the selected slot (the palette)"),
    ("Alt+click", "with the area brush: take the segment under the pointer"),
)
"""The zone editor's keys on the map (View > Zone editor)."""

PLAYER_KEYS = (
    ("F11", "full screen on the chosen screen, or back"),
    ("Esc", "leave full screen"),
    ("Arrows", "pan the players' map by one area"),
)
"""Keys of the players' window itself."""

BOARD_HINT = "Every control on the tabs has its underlined letter: Alt+letter."


def about() -> str:
    """The words of Help > About."""
    from afdesk import __version__
    from afdesk.rules.rulesets import DEFAULT, all_rulesets

    rules = ", ".join(r.name + (" (default)" if r is DEFAULT else "") for r in all_rulesets())
    return f"afdesk {__version__}: an encounter manager for Action Frameworks.\nRules: {rules}."
