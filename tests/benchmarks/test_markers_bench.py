"""A character holding many Momentum markers (R12) no longer makes every GM action slow: the
token shows one badge and the Character dock one row per kind of marker, with its count.

Goal: with 840 markers on the selected character (the report that found it: 266 ms an
action), one GM action (SetFacing on that character, pushed and its events processed, the
whole window open) costs at most 3x the same action with no markers, measured in the same
run. Measured November 2026 on the shared 2-core machine: 1.1x to 1.8x (20-26 ms and
29-37 ms); before the counts 9.9x (18 ms and 178 ms). What is left grows with the model's
check of every number a changed character holds (afdesk.encounter.limits), not the views.

Run with ``.venv/bin/pytest tests/benchmarks/test_markers_bench.py -s``.
"""

from __future__ import annotations

import random
import statistics
import time

import msgspec
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from afdesk.encounter.combatant import MomentumMarker
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import SetFacing
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples


@pytest.fixture(autouse=True)
def _scratch(monkeypatch, tmp_path):
    monkeypatch.setenv("AFDESK_DATA_DIR", str(tmp_path / "data"))


def _median_action(qtbot, tmp_path, markers: int) -> float:
    enc = samples.build()
    enc.apply(deal_hands(enc, random.Random(3)))
    enc.apply(play_cards(enc, rng=random.Random(4)))
    actor = enc.actor
    assert actor is not None
    held = tuple(MomentumMarker(2 if i % 3 else -2, "bench") for i in range(markers))
    c = enc.combatant(actor)
    enc.combatants[actor] = msgspec.structs.replace(c, momentum=held)  # a loaded file's
    window = MainWindow(QSettings(str(tmp_path / f"{markers}.ini"), QSettings.Format.IniFormat))
    window.maybe_save = lambda: True
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    window.set_document(doc)
    window.complete()
    doc.select(actor)
    app = QApplication.instance()
    app.processEvents()
    times = []
    for i in range(25):
        t = time.perf_counter()
        assert doc.push(SetFacing(actor, float(10 * (i % 30 + 1)))) == ""
        app.processEvents()
        times.append((time.perf_counter() - t) * 1e3)
    window.close()
    return statistics.median(times[5:])


def test_an_action_with_840_markers_costs_a_few_times_one_with_none(qtbot, tmp_path):
    none = _median_action(qtbot, tmp_path, 0)
    many = _median_action(qtbot, tmp_path, 840)
    print(
        f"\none GM action, selected character with no markers {none:.1f} ms, with 840 "
        f"markers {many:.1f} ms: {many / none:.2f}x"
    )
    assert many <= 3 * none
