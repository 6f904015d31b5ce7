"""Waiting for the check dialog's odds, which are computed off the UI thread."""

from __future__ import annotations


def settled_odds(qtbot, dlg) -> str:
    """The odds text once the dialog's odds workers (its odds line, the Shifts panel's
    buttons and the retry of 6s) have nothing running or waiting."""
    workers = (dlg.odds_worker, dlg.shifts.odds_worker, dlg.sixes.odds_worker)
    qtbot.waitUntil(lambda: not any(w.busy for w in workers), timeout=20000)
    return dlg.odds.text()
