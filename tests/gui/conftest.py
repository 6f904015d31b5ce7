"""GUI test fixtures: offscreen Qt (tests/conftest.py), isolated settings and data folders,
and documents built around the sample encounter."""

from __future__ import annotations

import gc
import random

import pytest
from PySide6.QtCore import QCoreApplication, QSettings

from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.gui.document import EncounterDocument
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


@pytest.fixture(autouse=True)
def collected_after_each_test():
    """One garbage collection at the end of each test (after its widgets are closed).

    Whatever a test leaves in reference cycles is freed here, at the same point of every
    run, instead of whenever a later allocation passes the collector's threshold: in a later
    test, or in a thread. Code that keeps a Qt object only through a cycle then breaks at
    once and always, in the test that made it; before, it broke one run in many, somewhere
    else (a QScreen deleted with a collected widget crashed the test after the one that
    asked for it: afdesk.gui.screens.screen_of)."""
    yield
    gc.collect()
    # What outlived the test is frozen out of later walks (as the app freezes what its
    # start made): each test's collection then walks only what that test made. Walking the
    # whole session's heap took 0.22 s a test, 142 s of a 233 s run of tests/gui.
    gc.freeze()


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
