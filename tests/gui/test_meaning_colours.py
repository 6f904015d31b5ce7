"""The Character dock, the Reflex dock, the check dialog and the log's export take their
colours from the meanings of afdesk.gui.style, so they read in a light and in a dark
theme (4.5:1, WCAG AA): no colour of their own that suits only a light window."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication
from test_contrast import DARK, LIGHT

from afdesk.encounter.ops.flow import NextTurn
from afdesk.gui.style import (
    EXPORT_PAGE,
    FILLS,
    MIN_CONTRAST,
    contrast,
    fill_style,
    meaning_colour,
    meaning_fill,
)

GUI = Path(__file__).resolve().parents[2] / "afdesk" / "gui"
MODULES = [
    "docks/combatant.py",
    "dialogs/contest/dice.py",
    "dialogs/contest/dialog.py",
    "docks/log.py",
    "docks/reflex.py",
]
HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")


@pytest.fixture(params=["light", "dark"])
def themed(request, qapp):
    palette = {"light": LIGHT, "dark": DARK}[request.param]
    old = QApplication.palette()
    QApplication.setPalette(palette)
    yield palette
    QApplication.setPalette(old)


def _colours(sheet: str) -> dict[str, QColor]:
    return {k: QColor(v) for k, v in re.findall(r"(background|color): (#[0-9a-f]{6})", sheet)}


@pytest.mark.parametrize("module", MODULES)
def test_no_colour_of_their_own(module):
    source = (GUI / module).read_text(encoding="utf-8")
    code = "\n".join(line.split("  #")[0] for line in source.splitlines())
    assert not HEX.findall(code), f"{module} holds colours: use afdesk.gui.style's meanings"


@pytest.mark.parametrize("kind", sorted(FILLS))
@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_every_fill_reads_and_follows_the_theme(kind, palette):
    back, fore = meaning_fill(kind, palette)
    assert contrast(fore, back) >= MIN_CONTRAST, (kind, back.name(), fore.name())
    window = palette.color(QPalette.ColorRole.Window)
    assert (back.lightness() < 128) == (window.lightness() < 128) or kind == "on"
    with pytest.raises(ValueError, match="no background means 'loud'"):
        meaning_fill("loud", palette)


def test_the_character_dock_reads_in_the_theme(themed, playing_doc, qtbot):
    from afdesk.gui.docks.combatant import CombatantPanel

    panel = CombatantPanel(None)
    qtbot.addWidget(panel)
    panel.set_document(playing_doc)
    playing_doc.select(playing_doc.encounter.actor)
    window = themed.color(QPalette.ColorRole.Window)
    for label in (panel.refusal, panel.notes):
        assert contrast(_colours(label.styleSheet())["color"], window) >= MIN_CONTRAST
    fill = _colours(panel.prompts.styleSheet())
    assert contrast(fill["color"], fill["background"]) >= MIN_CONTRAST
    assert fill["background"] == meaning_fill("prompt", themed)[0]
    on = _colours(panel.guard.styleSheet())
    assert contrast(on["color"], on["background"]) >= MIN_CONTRAST
    turn = meaning_colour("turn", themed)
    assert f"color:{turn.name()}'>their turn" in panel.title.text()
    assert contrast(turn, window) >= MIN_CONTRAST


def test_the_reflex_dock_greys_and_actor_read_in_the_theme(themed, playing_doc, qtbot):
    from afdesk.gui.docks.reflex import _ROW, ReflexPanel

    assert playing_doc.push(NextTurn()) == ""  # the first character's turn is done
    panel = ReflexPanel(None)
    qtbot.addWidget(panel)
    panel.set_document(playing_doc)
    base = themed.color(QPalette.ColorRole.Base)
    order = panel.order
    looks = {}
    for i in range(order.count()):
        item = order.item(i)
        looks.setdefault(item.data(_ROW).look, item)
    assert {"actor", "done"} <= set(looks)
    actor = looks["actor"]
    back, fore = actor.background().color(), actor.foreground().color()
    assert (back, fore) == meaning_fill("actor", themed)
    assert contrast(fore, back) >= MIN_CONTRAST
    done = looks["done"].foreground().color()
    assert done == meaning_colour("done", themed) and contrast(done, base) >= MIN_CONTRAST


def test_the_check_dialog_reads_in_the_theme(themed, playing_doc, qtbot):
    from afdesk.encounter.contest.assembly import CheckKind
    from afdesk.gui.dialogs.contest import ContestDialog

    enc = playing_doc.encounter
    target = next(c.id for c in enc.roster() if c.side != enc.combatants[enc.actor].side)
    dlg = ContestDialog(playing_doc, enc.actor, CheckKind.HACK, target)
    qtbot.addWidget(dlg)
    odds = _colours(dlg.odds.styleSheet())
    assert (odds["background"], odds["color"]) == meaning_fill("panel", themed)
    window = themed.color(QPalette.ColorRole.Window)
    for note in (True, False):
        dlg._show_reason("out of reach", note=note)
        assert contrast(_colours(dlg.reason.styleSheet())["color"], window) >= MIN_CONTRAST
    assert fill_style("panel", dlg.odds).startswith("background: ")


def test_the_exported_logs_dates_read_on_white_paper(playing_doc, tmp_path):
    from afdesk.gui.docks.log import export_log

    path = tmp_path / "log.html"
    export_log(playing_doc, path, list(playing_doc.encounter.log))
    page = path.read_text(encoding="utf-8")
    assert f".w{{color:{EXPORT_PAGE['hint']};" in page
    assert contrast(QColor(EXPORT_PAGE["hint"]), QColor("#ffffff")) >= MIN_CONTRAST
