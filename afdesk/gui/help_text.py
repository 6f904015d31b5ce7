"""The words of Help > Keyboard."""

from __future__ import annotations

KEYBOARD = (
    "Space: next turn (or play the cards / deal when a round or exchange starts)\n"
    "Ctrl+K: find any command · Ctrl+D: deal reflex · Ctrl+Shift+D: play cards\n"
    "M: keyboard to the map · Tab: the next character · arrows: step one area\n"
    "Q / E: turn 15° · 1-9 (as on a keypad): face a direction; after a move, Enter "
    "accepts the facing\n"
    "Hold Shift (Ctrl with the digits) to move or turn anyone: a GM override\n"
    "Alt+C: the Character menu (attacks, Defend, Screen, snaps, states)\n"
    "F: fit the map · L: show or fold the legend · R: shade rear arcs · F11: player view\n"
    "G: the fog tool (click a segment, Shift+click a tile, Ctrl+drag to brush; H flips "
    "the selected region) · Ctrl+Shift+I: the ping tool\n"
    "Ctrl+Shift+P: push my view to the players · Ctrl+Shift+F: the players follow my map · "
    "Ctrl+Shift+R: show the last check to the table\n"
    "Ctrl+Z / Ctrl+Shift+Z: undo / redo"
)


def about() -> str:
    """The words of Help > About."""
    from afdesk import __version__
    from afdesk.rules.rulesets import DEFAULT, all_rulesets

    rules = ", ".join(r.name + (" (default)" if r is DEFAULT else "") for r in all_rulesets())
    return f"afdesk {__version__}: an encounter manager for Action Frameworks.\nRules: {rules}."
