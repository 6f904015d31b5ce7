"""The fog goes through the crash journal like any Op: a session that hides and
reveals regions, with undo and redo, recovers exactly after a crash."""

from __future__ import annotations

from afdesk.encounter.fog import all_regions, fogged
from afdesk.encounter.ops.fog import SetFog
from afdesk.storage.journal import Journal, recover
from afdesk.storage.samples import build
from tests.storage.test_journal import Live, _crash, _only_pending


def test_fog_changes_are_journaled_and_recovered():
    enc = build()
    live = Live(enc, Journal.start("Foggy ford", base=enc.state()))
    regions = [r for r in all_regions(enc.zone) if r.kind == "tile"]
    for region in regions:
        live.do(SetFog.of(region, True))
    ford = next(r for r in all_regions(enc.zone) if r.name == "the Ford")
    live.do(SetFog.of(ford, False))
    live.undo()
    live.redo()
    live.do(SetFog(((0, 0), (1, 0)), False, "2 areas"))
    assert len(fogged(enc.zone, enc.fog)) == 15 * 15 - 6 - 2
    _crash(live.journal)
    assert recover(_only_pending()) == live.enc.state()
    assert [e.text for e in enc.log[-2:]] == ["Revealed the Ford", "Revealed 2 areas"]
