"""Words as the GM reads them: a word a wrapped label cannot break gets places to break;
text put in rich-text labels and the exported log is escaped as ``html.escape`` does."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from afdesk.gui.text import ZWSP, breakable, escape


def test_breakable_splits_only_long_runs_and_keeps_the_text():
    assert breakable("short words stay") == "short words stay"
    long = "x" * 40
    out = breakable(f"see {long} now", every=16)
    assert out.replace(ZWSP, "") == f"see {long} now"
    assert all(len(part) <= 16 for part in out.split(" ")[1].split(ZWSP))
    assert out.count(ZWSP) == 2


@given(st.text())
def test_escape_is_what_html_escape_gives(text):
    assert escape(text) == html.escape(text)


def test_escape_makes_markup_text():
    assert escape("""<b>Huang & "Mei" 'Li'</b>""") == (
        "&lt;b&gt;Huang &amp; &quot;Mei&quot; &#x27;Li&#x27;&lt;/b&gt;"
    )
