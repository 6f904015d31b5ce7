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


def test_no_garbage_is_collected_in_the_render_thread(qtbot, tmp_path, monkeypatch):
    """A collection in the worker would destroy the UI thread's unreachable Qt objects off
    the UI thread (a crash): none runs while a thumbnail renders, and collecting is back on
    once it is done."""
    import gc

    from afdesk.gui import export

    real = export.render_scene
    during: list[bool] = []

    def watched(*args, **kwargs):
        during.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(export, "render_scene", watched)
    path = tmp_path / "ambush.afenc"
    save(path, Encounter(zone=empty_zone(tileset("wilderness"))).state())
    thumbs = Thumbnails()
    seen: list = []
    thumbs.ready.connect(lambda p, image, problem: seen.append(image))
    assert gc.isenabled()
    thumbs.request(path)
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=20000)
    assert during == [False] and seen[0] is not None
    qtbot.waitUntil(gc.isenabled)  # back on once the UI thread hears the render is done


def test_the_scenes_are_made_and_destroyed_on_the_ui_thread_one_at_a_time(
    qtbot, tmp_path, monkeypatch
):
    """A QGraphicsScene enters itself in a list the application keeps without a lock: one
    made or destroyed in the worker raced the window's own scenes. The UI thread builds each
    thumbnail's scene, one at a time (one per turn of its event loop, not a campaign's worth
    in a row), the worker only paints it, and the UI thread destroys it."""
    import threading

    from afdesk.gui.map import scene as map_scene

    made: list[int] = []
    destroyed_in: list[int] = []
    alive: set[int] = set()
    most = [0]
    real_init = map_scene.MapScene.__init__

    def counted(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append(threading.get_ident())
        key = id(self)
        alive.add(key)
        most[0] = max(most[0], len(alive))
        self.destroyed.connect(
            lambda *_a: (alive.discard(key), destroyed_in.append(threading.get_ident()))
        )

    monkeypatch.setattr(map_scene.MapScene, "__init__", counted)
    paths = []
    for name in ("one", "two", "three"):
        path = tmp_path / f"{name}.afenc"
        save(path, Encounter(zone=empty_zone(tileset("wilderness"))).state())
        paths.append(path)
    thumbs = Thumbnails()
    seen: list = []
    thumbs.ready.connect(lambda p, image, problem: seen.append((p, image, problem)))
    for path in paths:
        assert thumbs.request(path) is None
    qtbot.waitUntil(lambda: len(seen) == 3, timeout=20000)
    assert [p for p, _i, _w in seen] == [str(p) for p in paths], "in the order asked"
    assert all(image is not None and not problem for _p, image, problem in seen)
    ui = threading.get_ident()
    assert made == [ui] * 3, "every scene made on the UI thread"
    assert most[0] == 1 and not alive, "one at a time, each destroyed once painted"
    assert destroyed_in == [ui] * 3, "and destroyed on the UI thread"
    assert thumbs.render_threads and threading.get_ident() not in thumbs.render_threads


def test_a_file_that_cannot_be_read_says_why_and_the_next_one_still_comes(qtbot, tmp_path):
    broken = tmp_path / "broken.afenc"
    broken.write_text("{")
    good = tmp_path / "good.afenc"
    save(good, Encounter(zone=empty_zone(tileset("wilderness"))).state())
    thumbs = Thumbnails()
    seen: list = []
    thumbs.ready.connect(lambda p, image, problem: seen.append((p, image, problem)))
    thumbs.request(broken)
    thumbs.request(good)
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=20000)
    (p1, image1, problem1), (p2, image2, problem2) = seen
    assert p1 == str(broken) and image1 is None and problem1
    assert p2 == str(good) and image2 is not None and not problem2
    assert not thumbs.busy()


def test_a_tests_teardown_waits_until_every_thumbnail_is_made(qapp, tmp_path):
    """tests/gui/conftest.py takes a test apart only once no worker runs: the holds of
    gc_hold never fall to none between a thumbnail's steps, nor between two thumbnails."""
    from afdesk.storage import gc_hold
    from tests.gui.conftest import _wait_for_the_workers

    thumbs = Thumbnails()
    seen: list = []
    thumbs.ready.connect(lambda p, image, problem: seen.append(image))
    for name in ("one", "two", "three"):
        path = tmp_path / f"{name}.afenc"
        save(path, Encounter(zone=empty_zone(tileset("wilderness"))).state())
        thumbs.request(path)
    assert gc_hold.held()
    _wait_for_the_workers(qapp)
    assert gc_hold.held() == 0
    assert len(seen) == 3 and all(image is not None for image in seen)
    assert not thumbs.busy()


def test_thumbnails_closed_while_a_scene_is_painted_destroy_it_on_the_ui_thread(
    qtbot, tmp_path, monkeypatch
):
    """The campaign closed mid-thumbnail: the pool waits for the painting, and the scene,
    a child of the thumbnails, goes with them on the UI thread (never in the worker)."""
    import threading

    from shiboken6 import Shiboken

    from afdesk.gui import export
    from afdesk.gui.map import scene as map_scene
    from afdesk.storage import gc_hold

    started, release = threading.Event(), threading.Event()
    real = export.render_scene

    def held_up(*args, **kwargs):
        started.set()
        release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(export, "render_scene", held_up)
    destroyed_in: list[int] = []
    real_init = map_scene.MapScene.__init__

    def watched(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.destroyed.connect(lambda *_a: destroyed_in.append(threading.get_ident()))

    monkeypatch.setattr(map_scene.MapScene, "__init__", watched)
    path = tmp_path / "ambush.afenc"
    save(path, Encounter(zone=empty_zone(tileset("wilderness"))).state())
    thumbs = Thumbnails()
    thumbs.request(path)
    qtbot.waitUntil(started.is_set, timeout=20000)
    release.set()
    Shiboken.delete(thumbs)  # as the Campaign dock goes with a closed campaign
    assert destroyed_in == [threading.get_ident()]
    qtbot.waitUntil(lambda: gc_hold.held() == 0, timeout=20000)
