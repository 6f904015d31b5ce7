"""Map images: render_map for the main window, ``afdesk export-png`` for the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.roster import AddState, SetDecoys
from afdesk.gui import export
from afdesk.gui.export import main, parse_size, render_map
from afdesk.storage import samples as sample


def distinct_colours(image: QImage, step: int = 4) -> int:
    return len(
        {
            image.pixel(x, y)
            for y in range(0, image.height(), step)
            for x in range(0, image.width(), step)
        }
    )


def test_render_map_of_the_sample_has_the_size_and_is_not_blank(qapp):
    image = render_map(sample.build())
    assert (image.width(), image.height()) == (1920, 1080)
    assert distinct_colours(image) > 1000
    small = render_map(sample.build(), size=(640, 360), player=True)
    assert (small.width(), small.height()) == (640, 360)
    assert distinct_colours(small, 2) > 300


def test_player_image_leaves_out_the_hidden_true_place(qapp):
    enc = sample.build()
    enc.apply(AddState("archer", StateKind.HIDDEN))
    enc.apply(SetDecoys("archer", ((11, 0), (12, 1))))
    gm = render_map(enc, size=(960, 540))
    player = render_map(enc, size=(960, 540), player=True)
    assert gm != player
    again = render_map(enc, size=(960, 540), player=True)
    assert again == player  # deterministic: the same encounter, the same picture
    assert enc.combatants["archer"].hidden  # rendering changed nothing


@pytest.mark.parametrize(
    ("text", "size"), [("1920x1080", (1920, 1080)), ("800X600", (800, 600)), (" 64x48 ", (64, 48))]
)
def test_parse_size(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "big", "1920", "0x10", "10x-4", "99999x10", "1.5x2"])
def test_parse_size_refuses(text):
    with pytest.raises(export.ExportError, match="--size"):
        parse_size(text)


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_missing_file_exits_2_with_one_line(tmp_path, capsys):
    assert main([str(tmp_path / "nope.afenc"), str(tmp_path / "out.png")]) == 2
    assert "no such file" in one_line_error(capsys)
    assert not (tmp_path / "out.png").exists()


def test_bad_size_exits_2_with_one_line(tmp_path, capsys):
    f = tmp_path / "x.afenc"
    f.write_text("{}")
    assert main([str(f), str(tmp_path / "out.png"), "--size", "huge"]) == 2
    assert "--size" in one_line_error(capsys)


def test_bad_file_exits_2_with_one_line(tmp_path, capsys):
    f = tmp_path / "broken.afenc"
    f.write_bytes(b"\x00\x01 this is not an encounter")
    assert main([str(f), str(tmp_path / "out.png")]) == 2
    line = one_line_error(capsys)
    assert "broken.afenc" in line and "cannot read" in line


def test_missing_arguments_exit_2_with_one_line(capsys):
    assert main([]) == 2
    assert "required" in one_line_error(capsys)


def test_missing_output_folder_exits_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(export, "load_encounter", lambda path: sample.build())
    f = tmp_path / "x.afenc"
    f.write_text("{}")
    assert main([str(f), str(tmp_path / "no" / "out.png")]) == 2
    assert "does not exist" in one_line_error(capsys)


def test_export_png_writes_the_image(tmp_path, capsys, monkeypatch, qapp):
    monkeypatch.setattr(export, "load_encounter", lambda path: sample.build())
    f = tmp_path / "ford.afenc"
    f.write_text("{}")
    out = tmp_path / "ford.png"
    assert main([str(f), str(out), "--size", "800x450", "--player"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 450)
    assert distinct_colours(image) > 200
    assert "800x450 player map" in capsys.readouterr().out


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("QT_QPA_PLATFORM", None)  # the command must force offscreen by itself
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "afdesk", "export-png", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_command_line_errors_are_one_line_without_a_display(tmp_path):
    result = run_cli(str(tmp_path / "missing.afenc"), str(tmp_path / "out.png"))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr
    assert "no such file" in result.stderr


def test_rendering_forces_offscreen_without_a_display(tmp_path):
    # A fresh process with no display and no platform set: export must not need either.
    script = (
        "import sys\n"
        "from afdesk.storage import samples as sample\n"
        "from afdesk.gui import export\n"
        "export.load_encounter = lambda path: sample.build()\n"
        f"sys.exit(export.main([{str(tmp_path / 'x.afenc')!r}, {str(tmp_path / 'x.png')!r},"
        " '--size', '320x180']))\n"
    )
    (tmp_path / "x.afenc").write_text("{}")
    env = dict(os.environ)
    for key in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(key, None)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(tmp_path / "x.png"))
    assert (image.width(), image.height()) == (320, 180)


def test_export_png_of_a_saved_encounter(tmp_path, capsys, qapp):
    from afdesk.storage import save

    enc = sample.build()
    enc.apply(AddState("archer", StateKind.HIDDEN))
    enc.apply(SetDecoys("archer", ((11, 0), (12, 1))))
    f = tmp_path / "ford.afenc"
    save(f, enc.state())
    gm_png, player_png = tmp_path / "gm.png", tmp_path / "player.png"
    assert main([str(f), str(gm_png)]) == 0
    assert main([str(f), str(player_png), "--player", "--size", "1280x720"]) == 0
    gm, player = QImage(str(gm_png)), QImage(str(player_png))
    assert (gm.width(), gm.height()) == (1920, 1080)
    assert (player.width(), player.height()) == (1280, 720)
    assert distinct_colours(gm) > 1000
    rgb = QImage.Format.Format_RGB32
    expected = render_map(enc, size=(1280, 720), player=True).convertToFormat(rgb)
    assert player.convertToFormat(rgb) == expected  # exactly the saved encounter's map


def exported_and_followed(enc, size, player):
    """``render_map``'s picture, and the same scene following the app's own document (the
    main window's): both drawn the same way, straight (no item caches)."""
    from afdesk.gui.document import EncounterDocument
    from afdesk.gui.map.scene import MapScene

    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    scene = MapScene(doc, player=player)
    for item in scene.items():
        item.setCacheMode(item.CacheMode.NoCache)
    followed = export.render_scene(scene, size)
    scene.detach()
    doc.close(clean=True)
    return render_map(enc, size, player=player), followed


@pytest.mark.parametrize("player", [True, False])
def test_the_export_draws_what_a_scene_following_the_document_draws(qapp, player):
    from afdesk.encounter.ops.fog import SetFog

    enc = sample.build()
    enc.apply(AddState("archer", StateKind.HIDDEN))
    enc.apply(SetDecoys("archer", ((11, 0), (12, 1))))
    enc.apply(SetFog(((5, 0), (6, 0), (7, 11), (11, 0)), True, "4 areas"))
    exported, followed = exported_and_followed(enc, (960, 540), player)
    assert exported == followed
    assert exported.format() == QImage.Format.Format_RGB32  # opaque: no alpha channel
    plain = render_map(sample.build(), (960, 540), player=player)
    assert plain != exported  # the hidden archer, its decoys and the fog do show


EXPORT_MODULES = """
import json, sys
from afdesk.__main__ import main
status = main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)))
sys.exit(status)
"""


def test_export_png_imports_the_model_the_loader_and_the_scene_only(tmp_path):
    """The export draws the map: it loads no dialog, dock, command, document, undo history,
    odds worker or chase board (it stays near a bare PySide6 render)."""
    from afdesk.paths import sample_encounter

    out = tmp_path / "out.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AFDESK_DATA_DIR": str(tmp_path)}
    command = ["export-png", str(sample_encounter()), str(out), "--player"]
    done = subprocess.run(
        [sys.executable, "-c", EXPORT_MODULES, *command],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert QImage(str(out)).width() == 1920
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    gui = {m for m in loaded if m.startswith("afdesk.gui")}
    map_modules = {
        "actor_ring",  # the actor's glow, drawn by its token
        "art",
        "base",
        "fallen",
        "fog_layer",  # the players' fog
        "marks",
        "overlays",
        "patterns",
        "scene",
        "still",
        "terrain",
    }
    assert gui == {
        "afdesk.gui",
        "afdesk.gui.export",
        "afdesk.gui.follow",  # the scene's Links to its document (plain Python)
        "afdesk.gui.map",
        *(f"afdesk.gui.map.{m}" for m in (*map_modules, "theme", "tokens")),
        "afdesk.gui.mapgeom",
        "afdesk.gui.quick_enums",  # Qt's enums built quickly (afdesk.gui installs it)
        "afdesk.gui.quick_shiboken",  # shiboken6 imported through the cache (afdesk.gui)
        "afdesk.gui.style",
    }, gui
    not_needed = {
        "afdesk.encounter.history",  # undo: a picture changes nothing
        # a battle's file names no mode's Op: the loader imports only the Ops it names
        "afdesk.encounter.chase.ops",
        "afdesk.encounter.dispute.ops",
        "afdesk.encounter.infiltration.ops",
        "afdesk.storage.journal",
        "afdesk.storage.schema",
        "afdesk.storage.check",
        "afdesk.cli_check",
        "afdesk.fuzz",
        "ctypes",
        "subprocess",
        "concurrent.futures",
    }
    assert not loaded & not_needed, loaded & not_needed


def test_export_png_in_process_leaves_the_cycle_collector_as_it_was(tmp_path, monkeypatch, qapp):
    import gc

    monkeypatch.setattr(export, "load_encounter", lambda path: sample.build())
    (tmp_path / "x.afenc").write_text("{}")
    # Freezes are counted as calls: the number of frozen objects also falls whenever one
    # that an earlier test froze (the command line's run in this process) is freed.
    freezes = []
    monkeypatch.setattr(gc, "freeze", lambda: freezes.append(True))
    paused = []
    real_render = export.render_map

    def render(*args, **kwargs):
        paused.append(not gc.isenabled())  # no cycle collection while it draws
        return real_render(*args, **kwargs)

    monkeypatch.setattr(export, "render_map", render)
    assert main([str(tmp_path / "x.afenc"), str(tmp_path / "x.png"), "--size", "320x180"]) == 0
    assert paused == [True]
    assert gc.isenabled() and freezes == []  # only the command line freezes
    gc.disable()
    try:
        assert main([str(tmp_path / "x.afenc"), str(tmp_path / "y.png")]) == 0
        assert not gc.isenabled()  # as it was
    finally:
        gc.enable()
    assert main([str(tmp_path / "x.afenc"), str(tmp_path / "z.png")], last=True) == 0
    assert freezes == [True]  # the command line's run, the process's last: frozen once
