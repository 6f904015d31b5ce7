"""Colours that carry meaning read in a light and in a dark theme: every error, hint,
success, note and turn colour has at least 4.5:1 contrast (WCAG AA) against the palette's
backgrounds, the dialogs' refusals take theirs from the palette, and the players' screen's
words read on their dark panels."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from afdesk.gui.style import MEANINGS, MIN_CONTRAST, contrast, meaning_colour, meaning_style


def _palette(window: str, base: str, text: str) -> QPalette:
    p = QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        p.setColor(group, QPalette.ColorRole.Window, QColor(window))
        p.setColor(group, QPalette.ColorRole.Base, QColor(base))
        p.setColor(group, QPalette.ColorRole.WindowText, QColor(text))
        p.setColor(group, QPalette.ColorRole.Text, QColor(text))
    return p


LIGHT = _palette("#efefef", "#ffffff", "#000000")
DARK = _palette("#353535", "#2a2a2a", "#f0f0f0")
"""Fusion's light palette and a common dark one (KDE Breeze Dark and GNOME's are close)."""


def test_contrast_is_wcags():
    assert contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert contrast(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    assert contrast(QColor("#123456"), QColor("#123456")) == 1.0


@pytest.mark.parametrize("kind", sorted(MEANINGS))
@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_every_meaning_reads_on_light_and_dark(kind, palette):
    colour = meaning_colour(kind, palette)
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
        back = palette.color(role)
        assert contrast(colour, back) >= MIN_CONTRAST, (kind, colour.name(), back.name())


def test_the_old_fixed_colours_failed_in_a_dark_theme():
    """What this replaced: a fixed dark red and grey drop below 3:1 on a dark window."""
    back = DARK.color(QPalette.ColorRole.Window)
    assert contrast(QColor("#b00020"), back) < 3 and contrast(QColor("#555555"), back) < 3
    assert meaning_colour("error", DARK) != QColor("#b00020")


def test_an_unknown_meaning_is_refused():
    with pytest.raises(ValueError, match="no text colour means 'loud'"):
        meaning_colour("loud", LIGHT)


def _colour_of(sheet: str) -> QColor:
    found = re.search(r"color: (#[0-9a-f]{6})", sheet)
    assert found, sheet
    return QColor(found.group(1))


@pytest.fixture(params=["light", "dark"])
def themed(request, qapp):
    palette = {"light": LIGHT, "dark": DARK}[request.param]
    old = QApplication.palette()
    QApplication.setPalette(palette)
    yield palette
    QApplication.setPalette(old)


def test_dialogs_refusals_and_the_status_bar_follow_the_theme(themed, doc, qtbot):
    from afdesk.gui.dialogs.character import CharacterDialog
    from afdesk.gui.docks.reserves import ReservesPanel

    dialog = CharacterDialog(doc, None)
    qtbot.addWidget(dialog)
    back = themed.color(QPalette.ColorRole.Window)
    assert contrast(_colour_of(dialog.error.styleSheet()), back) >= MIN_CONTRAST
    panel = ReservesPanel()
    qtbot.addWidget(panel)
    for label in (panel.notes, panel.reason):
        assert contrast(_colour_of(label.styleSheet()), back) >= MIN_CONTRAST
    assert "font-weight: bold;" in meaning_style("error", extra="font-weight: bold;")
    status = _colour_of(meaning_style("error"))
    assert contrast(status, back) >= MIN_CONTRAST


def test_the_players_screen_words_read_on_their_panels():
    from afdesk.gui.table import roll_panel, ticker_panel

    panel = QColor(12, 14, 18)
    for colour in (roll_panel.GOOD, roll_panel.BAD, QColor(*ticker_panel.TEXT)):
        assert contrast(QColor(colour), panel) >= 7.0, colour
    assert contrast(QColor("#f0f0f0"), QColor("#1b1b1b")) >= 7.0  # the players' bar
