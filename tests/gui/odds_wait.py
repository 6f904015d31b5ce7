"""Waiting for the check dialog's odds, which are computed off the UI thread."""

from __future__ import annotations

ODDS_MS = 20000
"""How long a test waits for odds worked out off the UI thread. Generous on purpose: the
machine may be shared by many runs (2 cores, 8 engineers), and waitUntil returns as soon as
the odds are there, so a long limit costs nothing when all is well; pytest-qt's default
(5 s) leaves a starved run little room."""


def settled_odds(qtbot, dlg) -> str:
    """The odds text once the dialog's odds workers (its odds line, the Shifts panel's
    buttons and the retry of 6s) have nothing running or waiting."""
    workers = (dlg.odds_worker, dlg.shifts.odds_worker, dlg.sixes.odds_worker)
    qtbot.waitUntil(lambda: not any(w.busy for w in workers), timeout=ODDS_MS)
    return dlg.odds.text()
