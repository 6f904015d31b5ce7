"""Help: F1's card lists every key (built from the window's own actions, so it cannot go
stale; the zone editor's and the chase board's included), and Help > Manual shows the
illustrated guide shipped with the app, within the app and without the network."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from PySide6.QtCore import QSettings, QUrl
from PySide6.QtGui import QAction, QImage, QTextDocument
from PySide6.QtWidgets import QTextBrowser

from afdesk.gui.help import keyboard_html, keyboard_rows, mnemonic
from afdesk.gui.main_window import MainWindow
from afdesk.gui.screens import screen_of
from afdesk.paths import manual_dir


def whole_window(qtbot, doc) -> MainWindow:
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.set_document(doc)
    assert w.completed
    return w


def _plain(text: str) -> str:
    return text.replace("&", "").rstrip("…").strip()


def test_every_action_with_a_shortcut_is_on_the_card(qtbot, doc):
    w = whole_window(qtbot, doc)
    rows = keyboard_rows(w)
    card = {(keys, what) for _where, keys, what in rows}
    actions = [a for a in w.findChildren(QAction) if not a.shortcut().isEmpty()]
    assert len(actions) >= 20  # the menus' and the Table menu's, the zone editor's, ...
    for act in actions:
        keys = act.shortcut().toString()
        assert any(keys in k.split(" or ") and what == _plain(act.text()) for k, what in card), (
            f"{act.text()!r} ({keys}) is not on the card"
        )
    # A shortcut given to an action later is on the next card too: nothing is copied by hand.
    late = QAction("&Roll for initiative", w)
    late.setShortcut("Ctrl+Alt+I")
    w.addAction(late)
    assert ("Window", "Ctrl+Alt+I", "Roll for initiative") in keyboard_rows(w)


def test_the_card_holds_the_map_the_zone_editor_and_the_chase_board(qtbot, doc):
    w = whole_window(qtbot, doc)
    rows = keyboard_rows(w)
    sections = {where for where, _k, _w in rows}
    assert {"File", "Encounter", "Table", "Table > Players' screen", "View"} <= sections
    assert {"On the map", "Fog tool", "Zone editor", "Chase board", "Players' window"} <= sections
    assert (
        "Zone editor",
        "R / Shift+R",
        "turn the selected tile clockwise / counter-clockwise",
    ) in (rows)
    # The chase board's tabs by their own mnemonics ("Sta&ge" is Alt+G).
    chase = {k: what for where, k, what in rows if where == "Chase board"}
    assert chase["Alt+G"] == "the Stage tab" and chase["Alt+U"] == "the Turn tab"
    assert mnemonic("Sta&ge") == "Alt+G" and mnemonic("Fish && chips") == ""
    html = keyboard_html(rows)
    assert "<b>Ctrl+Shift+E</b>" in html and "Zone editor" in html


def test_f1_opens_the_card_inside_the_screen(qtbot, doc):
    w = whole_window(qtbot, doc)
    f1 = next(a for a in w.findChildren(QAction) if a.shortcut().toString() == "F1")
    f1.trigger()
    card = w.help_dialog
    qtbot.addWidget(card)
    assert card.isVisible() and card.objectName() == "keyboardCard"
    assert screen_of(card).availableGeometry().contains(card.geometry())
    text = card.browser.toPlainText()
    assert "Deal reflex" in text and "Ctrl+D" in text and "Alt+C" in text


def _images(html: str) -> list[str]:
    return re.findall(r'<img src="([^"]+)"', html)


def test_the_manual_is_shipped_with_its_pictures():
    index = manual_dir() / "index.html"
    html = index.read_text(encoding="utf-8")
    pictures = _images(html)
    assert len(pictures) >= 6
    for name in pictures:
        assert "/" not in name and ":" not in name, name  # beside the guide, never fetched
        image = QImage(str(manual_dir() / name))
        assert not image.isNull() and image.width() >= 300, name
    for topic in ("Adding a character", "Overlaps", "The harm decision", "Screen timing"):
        assert f"{topic}</h2>" in html, topic
    assert "http" not in html
    # Installed like the other resources (pyproject.toml's data-files).
    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = data["data-files"]["share/afdesk/manual"]
    assert {Path(g).name for g in globs} == {"*.html", "*.png"}
    shipped = {p.name for g in globs for p in root.glob(g)}
    assert {"index.html", *pictures} <= shipped


def test_help_manual_shows_the_guide_in_the_app(qtbot, doc):
    w = whole_window(qtbot, doc)
    manual = next(a for a in w.findChildren(QAction) if a.text() == "&Manual")
    manual.trigger()
    dialog = w.help_dialog
    qtbot.addWidget(dialog)
    browser = dialog.findChild(QTextBrowser)
    assert dialog.isVisible() and browser is dialog.browser
    assert "The harm decision" in browser.toPlainText()
    assert not browser.openExternalLinks()
    for name in _images(manual_dir().joinpath("index.html").read_text(encoding="utf-8")):
        resource = browser.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
        assert resource is not None and not resource.isNull(), name  # a loaded picture
    # Its links stay within the guide: anchors that exist.
    html = manual_dir().joinpath("index.html").read_text(encoding="utf-8")
    links = re.findall(r'href="([^"]+)"', html)
    assert links and all(f'<a name="{link[1:]}">' in html for link in links), links
    assert screen_of(dialog).availableGeometry().contains(dialog.geometry())
