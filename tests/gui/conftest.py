"""GUI test fixtures: offscreen Qt (tests/conftest.py), isolated settings and data folders,
and documents built around the sample encounter."""

from __future__ import annotations

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
