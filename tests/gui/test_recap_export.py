"""File > Export recap from the window: one self-contained HTML file with the map at the
start of each round (rendered by render_map, inlined), written atomically; an empty log
and a file that cannot be written get a clear message and change nothing."""

from __future__ import annotations

import base64
import random
import re

from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage

from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples as sample
from tests.gui.test_prepare_encounter import shown


def window(qtbot, monkeypatch, enc: Encounter) -> tuple[MainWindow, list[str]]:
    w = shown(qtbot, MainWindow(QSettings()))
    failures: list[str] = []
    monkeypatch.setattr(w.reporter, "failed", lambda title, err, **kw: failures.append(str(err)))
    w.set_document(EncounterDocument(enc, journal_factory=lambda d: None))
    return w, failures


def test_export_recap_writes_one_page_with_a_map_per_round(qtbot, monkeypatch, tmp_path):
    w, failures = window(qtbot, monkeypatch, sample.build())
    doc = w.doc
    doc.push(deal_hands(doc.encounter, random.Random(3)))
    doc.push(play_cards(doc.encounter, rng=random.Random(4)))
    for _ in range(3):
        doc.push(NextTurn())
    target = tmp_path / "recap.html"
    assert "Export &recap…" in [a.text() for a in w.file_menu.actions()]
    assert w.export_recap(target, players=False), failures
    page = target.read_text(encoding="utf-8")
    pictures = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    # The undo history began at the sample's preparation: the deal and round 1 get maps,
    # the lines before it are listed as they were.
    assert len(pictures) == 2
    assert page.index("Earlier") < page.index("Exchange 1: the deal") < page.index(pictures[0])
    image = QImage.fromData(base64.b64decode(pictures[-1]))
    assert (image.width(), image.height()) == (960, 540)
    assert "Exchange 1, round 1" in page and "GM notes" in page
    assert not re.findall(r'src="(?!data:)', page)
    assert w.export_recap(tmp_path / "players.html", players=True)
    assert "GM notes" not in (tmp_path / "players.html").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.html", "recap.html"]


def test_an_empty_log_or_an_unwritable_file_says_so(qtbot, monkeypatch, tmp_path):
    w, failures = window(qtbot, monkeypatch, Encounter())
    assert not w.export_recap(tmp_path / "empty.html", players=False)
    assert failures == ["the encounter's log is empty: nothing has been played to recap yet"]
    w.set_document(EncounterDocument(sample.build(), journal_factory=lambda d: None))
    folder = tmp_path / "taken"
    folder.mkdir()
    assert not w.export_recap(folder, players=False)
    assert "could not save taken" in failures[-1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
