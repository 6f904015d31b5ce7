"""Words as the GM reads them: a word a wrapped label cannot break gets places to break."""

from __future__ import annotations

from afdesk.gui.text import ZWSP, breakable


def test_breakable_splits_only_long_runs_and_keeps_the_text():
    assert breakable("short words stay") == "short words stay"
    long = "x" * 40
    out = breakable(f"see {long} now", every=16)
    assert out.replace(ZWSP, "") == f"see {long} now"
    assert all(len(part) <= 16 for part in out.split(" ")[1].split(ZWSP))
    assert out.count(ZWSP) == 2
