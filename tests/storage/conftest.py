"""Storage tests never touch the real user data folder: journals go to a temporary one."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """``AFDESK_DATA_DIR`` for this test (the crash journals live under it)."""
    folder = tmp_path / "afdesk-data"
    monkeypatch.setenv("AFDESK_DATA_DIR", str(folder))
    return folder
