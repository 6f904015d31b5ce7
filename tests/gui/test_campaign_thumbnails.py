"""A prepared encounter's thumbnail in the Campaign dock follows its last save: the file
is watched, a save renders it afresh and says so, even when two saves fall in the same
tick of the file system's clock (an atomic save makes a new file)."""

from __future__ import annotations

import os

from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.editor import fill_with
from afdesk.encounter.zone import empty_zone
from afdesk.gui.campaign.thumbnails import Thumbnails
from afdesk.storage import save
from afdesk.storage.tilesets import tileset


def test_a_saved_encounter_gets_a_fresh_thumbnail_without_asking(qtbot, tmp_path):
    path = tmp_path / "ambush.afenc"
    enc = Encounter(zone=empty_zone(tileset("wilderness")))
    save(path, enc.state())
    thumbs = Thumbnails()
    seen: list = []
    thumbs.ready.connect(lambda p, image, problem: seen.append((p, image, problem)))
    assert thumbs.request(path) is None
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=20000)
    first = seen[0][1]
    assert seen[0][0] == str(path) and first is not None
    before = os.stat(path)
    enc.apply(fill_with(enc, tileset("wilderness").kind("ford"), only_empty=True))
    save(path, enc.state())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same clock tick
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=20000)  # nobody asked again
    second = seen[1][1]
    assert second is not None and second != first
    assert thumbs.cached(path) == second
    assert thumbs.request(path) == second  # the dock's next refresh shows it at once
    thumbs.wait()


def test_no_garbage_is_collected_in_the_render_thread(qtbot, tmp_path, monkeypatch):
    """A collection in the worker would destroy the UI thread's unreachable Qt objects off
    the UI thread (a crash): none runs while a thumbnail renders, and collecting is back on
    once it is done."""
    import gc

    from afdesk.gui import export

    real = export.render_map
    during: list[bool] = []

    def watched(*args, **kwargs):
        during.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(export, "render_map", watched)
    path = tmp_path / "ambush.afenc"
    save(path, Encounter(zone=empty_zone(tileset("wilderness"))).state())
    thumbs = Thumbnails()
    seen: list = []
    thumbs.ready.connect(lambda p, image, problem: seen.append(image))
    assert gc.isenabled()
    thumbs.request(path)
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=20000)
    thumbs.wait()
    assert during == [False] and seen[0] is not None
    qtbot.waitUntil(gc.isenabled)  # back on once the UI thread hears the render is done
