"""A map view dropped while it is shown is never destroyed in the middle of its own paint.

A MapView with no parent lives in reference cycles (its tools, its group and its links hold
it), so the garbage collector frees it once it is dropped, at whichever collection comes
next. A collection can start in any Python that a paint runs (an item's ``paint``), and a
paint started by an expose event has no Python frame of the view's own on the stack: the
collector destroyed the view, and its window's backing store with it, while Qt was still
painting it ("QPaintDevice: Cannot destroy paint device that is being painted", then a
segfault in QGraphicsView::paintEvent). In the suite on Python 3.13 this came when a test
dropped its views and pytest-qt's processEvents after the test painted them for the first
time (tests/gui/test_fallen_tokens.py), depending on where the collector's thresholds fell.

The child process forces the collection into the first item painted after the views were
dropped, so the crash, if the view lets it happen, is certain; a segfault there fails this
test instead of ending the whole run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import gc, random, sys, weakref

from PySide6.QtWidgets import QApplication, QWidget

from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map import tokens
from afdesk.gui.map.view import MapView
from afdesk.storage import samples

app = QApplication([])
enc = samples.build()
enc.apply(deal_hands(enc, random.Random(3)))
enc.apply(play_cards(enc, rng=random.Random(4)))
doc = EncounterDocument(enc, journal_factory=lambda d: None)

state = {"armed": False, "alive": None}
paint = tokens.TokenItem.paint


def collecting_paint(self, painter, option, widget=None):
    if state["armed"]:  # a collection starts here, in the middle of the view's paint
        state["armed"] = False
        gc.collect()
        state["alive"] = [r() is not None for r in refs]
    return paint(self, painter, option, widget)


tokens.TokenItem.paint = collecting_paint
if sys.argv[1] == "windows":  # the views are the windows
    views = [MapView(doc), MapView(doc, player=True)]
else:  # each view inside a window of its own that only a cycle holds
    views = []
    for player in (False, True):
        window = QWidget()
        window.me = window  # a cycle: only the collector frees it
        MapView(doc, player=player, parent=window).resize(1100, 760)
        views.append(window)
    del window
for v in views:
    v.resize(1100, 760)
    v.show()  # exposed at the next processEvents, and painted then
refs = [weakref.ref(v) for v in views]
del views, v  # dropped while shown, not yet painted: the expose paints them
state["armed"] = True
app.processEvents()
assert state["armed"] is False, "no token was painted after the views were dropped"
assert True in state["alive"], state["alive"]  # the one under its paint was held
gc.collect()
assert not any(r() for r in refs), "the dropped views were never freed"
print("ok", flush=True)
"""


@pytest.mark.parametrize("held_by", ["windows", "parents"])
def test_a_dropped_view_is_not_freed_in_the_middle_of_its_paint(tmp_path, held_by):
    """The views are the windows, or each is in a window of its own that a cycle holds."""
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", CHILD, held_by],
        cwd=ROOT,  # this checkout's afdesk, whichever is installed
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "QT_LOGGING_RULES": "qt.qpa.*=false",
            "AFDESK_DATA_DIR": str(tmp_path / "data"),
        },
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Cannot destroy paint device" not in done.stderr, done.stderr
    assert done.stdout.splitlines()[-1] == "ok", done.stdout + done.stderr
