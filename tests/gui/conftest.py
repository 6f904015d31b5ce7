"""GUI test fixtures: offscreen Qt (tests/conftest.py), isolated settings and data folders,
and documents built around the sample encounter."""

from __future__ import annotations

import gc
import os
import random
import subprocess
import sys
import time

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings

from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.gui.document import EncounterDocument
from afdesk.storage import gc_hold
from afdesk.storage import samples as sample


@pytest.fixture(autouse=True)
def isolated_app_state(tmp_path, monkeypatch, qapp):
    """QSettings and the crash journal live in this test's temporary folder."""
    monkeypatch.setenv("AFDESK_DATA_DIR", str(tmp_path / "data"))
    QCoreApplication.setOrganizationName("afdesk-tests")
    QCoreApplication.setApplicationName("afdesk-tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings")
    )
    yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """What the test function dropped is collected as soon as it returns, before
    pytest-qt's event processing after the call (this wrapper runs inside pytest-qt's).

    A window a test showed and dropped (held only by cycles, as a map view is by its tools)
    is otherwise painted for the first time there, with no frame of the test holding it,
    and a collection that starts in the middle of that paint destroyed the window under
    its painter: a segfault in QGraphicsView::paintEvent that came or went with the
    collector's thresholds (tests/gui/test_map_view_lifetime.py). While a worker of
    afdesk's runs, its collection waits for the tear-down (see below). What the test gave
    qtbot stays until pytest-qt closes it at the tear-down (registered_widgets_kept)."""
    try:
        return (yield)
    finally:
        if not gc_hold.held():
            gc.collect()


@pytest.fixture(autouse=True)
def registered_widgets_kept(qtbot):
    """The widgets a test gives ``qtbot.addWidget`` are held until the tear-down, where
    pytest-qt closes them (it holds them weakly): the collection after the test function
    frees only what the test dropped without giving it to qtbot, and a registered window
    is still there to be closed, its close handled as the test's."""
    kept = []
    add = qtbot.addWidget

    def add_and_keep(widget, *, before_close_func=None):
        kept.append(widget)
        add(widget, before_close_func=before_close_func)

    qtbot.addWidget = qtbot.add_widget = add_and_keep
    yield
    kept.clear()


@pytest.fixture(autouse=True)
def collected_after_each_test(qapp):
    """At the end of each test (after pytest-qt closed its widgets): wait until none of
    afdesk's workers runs, destroy the closed widgets, then one garbage collection.

    pytest-qt closes a test's widgets with ``deleteLater``, which no later
    ``processEvents`` carries out: every window of the run stayed alive, with its timers,
    file watchers and thumbnail pool, and a later test's events reached them all. And a
    thumbnail still rendering when the test ended ran beside the collection and the windows'
    destruction. Now a test is taken apart with nothing running beside it.

    Whatever a test leaves in reference cycles is freed here, at the same point of every
    run, instead of whenever a later allocation passes the collector's threshold: in a later
    test, or in a thread. Code that keeps a Qt object only through a cycle then breaks at
    once and always, in the test that made it; before, it broke one run in many, somewhere
    else (a QScreen deleted with a collected widget crashed the test after the one that
    asked for it: afdesk.gui.screens.screen_of)."""
    yield
    _wait_for_the_workers(qapp)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    # What outlived the test is frozen out of later walks (as the app freezes what its
    # start made): each test's collection then walks only what that test made. Walking the
    # whole session's heap took 0.22 s a test, 142 s of a 233 s run of tests/gui.
    gc.freeze()


WORKERS_LIMIT_S = 60.0


def _wait_for_the_workers(app) -> None:
    """Until no hold of :mod:`afdesk.storage.gc_hold` is in force: no thumbnail or odds
    worker runs or waits to be heard of, and no journal fsync is under way. A hold still
    there after :data:`WORKERS_LIMIT_S` is a worker that never ended (or a hold never let
    go): the run ends there, rather than every later test waiting as long."""
    deadline = time.monotonic() + WORKERS_LIMIT_S
    while gc_hold.held():
        if time.monotonic() > deadline:
            pytest.exit(
                f"{gc_hold.held()} hold(s) of gc_hold still in force {WORKERS_LIMIT_S:.0f} s "
                "after the test: a worker of afdesk's never ended or a hold was never let go",
                returncode=1,
            )
        app.processEvents()  # what a worker sends the UI thread (its result, its end)
        time.sleep(0.002)  # the worker runs meanwhile (processEvents does not wait)


def wait_exposed(qtbot, widget, timeout: int = 5000) -> None:
    """Until ``widget``'s window is exposed (on the screen, its first paint due or done).
    pytest-qt's ``qtbot.waitExposed`` waits only as a ``with`` block around the ``show()``:
    called after it, it returns a context manager and waits for nothing."""

    def exposed() -> bool:
        handle = widget.window().windowHandle()
        return handle is not None and handle.isExposed()

    qtbot.waitUntil(exposed, timeout=timeout)


@pytest.fixture
def doc():
    """The sample encounter in a document without a crash journal."""
    return EncounterDocument(sample.build(), journal_factory=lambda d: None)


@pytest.fixture
def playing_doc():
    """The sample encounter mid-round: dealt and cards played (seeded)."""
    enc = sample.build()
    enc.apply(deal_hands(enc, random.Random(3)))
    enc.apply(play_cards(enc, rng=random.Random(4)))
    return EncounterDocument(enc, journal_factory=lambda d: None)


def character_panel(doc, qtbot):
    """A Character dock panel showing ``doc``, its commands run as the window runs them
    (a seeded roll, refusals said to no one), kept alive with its parent by ``qtbot``."""
    from PySide6.QtWidgets import QWidget

    from afdesk.gui.commands import CommandContext
    from afdesk.gui.docks.combatant import CombatantPanel
    from afdesk.gui.errors import Reporter

    parent = QWidget()
    qtbot.addWidget(parent)
    ctx = CommandContext(parent, Reporter(parent, lambda _m: None), random.Random(5))
    ctx.doc = doc
    panel = CombatantPanel(ctx)
    qtbot.addWidget(panel)
    panel.set_document(doc)
    return panel


def start_to_the_whole_window(tmp_path, code: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``code`` (which starts afdesk through ``afdesk.cli.run``) in a process of its own
    with ``args``, offscreen, with this test's settings and data folders, quitting once the
    window is whole; it must exit 0 with no traceback."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QT_LOGGING_RULES": "qt.qpa.*=false",
        "AFDESK_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "AFDESK_EXIT_AFTER_FIRST_FRAME": "complete",  # quit once the start is over
    }
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done
