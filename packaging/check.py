"""The packaging check: build the one-folder app, then check what a GM downloads.

On Linux the tarball is unpacked in a fresh folder and that copy is checked: no bundled
library or executable asks for a glibc newer than the floor (``objdump -T``; 2.35, Ubuntu
22.04 LTS, unless ``--glibc`` says otherwise) nor a C++ runtime newer than Ubuntu 22.04's,
the system's C++ runtime and expat are not bundled, the folder is at most 130 MB and the
tarball at most 50 MB. Then the BUILT program runs offscreen through ``--help``,
``--self-test``, ``check`` on the bundled samples and a tile set, ``export-png --player``
and its whole window on the two samples; with no display it says so (exit 2), and an
unknown option is a usage error (exit 2); install.sh installs it into a scratch home, where
it self-tests. Every run has a scratch home, settings and data folder: the check never
touches the developer's own. Any line on stderr that is not expected fails the check (a
smoke test in the manner of qutebrowser's).

    python packaging/check.py                  (build, then check)
    python packaging/check.py --no-build       (check what dist/ holds)
    python packaging/check.py --glibc 2.28     (an older floor: packaging/README.md)

Prints the sizes, the newest glibc asked for and the start time (to the first drawn
window), the venv's beside it. Exit status 0 if everything passed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import build  # noqa: E402
import bundle  # noqa: E402

MAX_UNPACKED = 130 * 10**6
"""The unpacked app folder, in bytes (130 MB)."""

MAX_PACKED = 50 * 10**6
"""The Linux tarball, in bytes (50 MB)."""

EXPECTED_STDERR: tuple[str, ...] = (
    # Qt's offscreen platform plugin, when a window is shown: it has no window manager to
    # pass size hints to. Only the start-time runs show a window.
    "This plugin does not support propagateSizeHints()",
)
"""Lines on stderr that are no failure; every other line is a finding."""


class Failed(Exception):
    pass


def run(
    cmd: list[str], env: dict[str, str], what: str, status: int = 0
) -> subprocess.CompletedProcess[str]:
    """Run ``cmd``; Failed unless it exits with ``status`` and, when that is 0, says
    nothing unexpected on stderr."""
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, check=False)
    unexpected = [
        line
        for line in done.stderr.splitlines()
        if line.strip() and not any(line.startswith(e) for e in EXPECTED_STDERR)
    ]
    if done.returncode != status or (unexpected and status == 0):
        raise Failed(
            f"{what}: exit status {done.returncode}\n  command: {' '.join(cmd)}\n"
            f"  stdout:\n{_indent(done.stdout)}\n  unexpected stderr:\n{_indent(done.stderr)}"
        )
    print(f"ok  {what}")
    return done


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.splitlines()) or "    (nothing)"


def scratch_env(scratch: Path, **more: str) -> dict[str, str]:
    """The environment of a run of the built app: offscreen, with a home, settings,
    cache and data folder of its own under ``scratch``."""
    home = scratch / "home"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "AFDESK_DATA_DIR": str(scratch / "data"),
        **more,
    }
    env.pop("PYTHONPATH", None)
    return env


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def start_times(cmd: list[str], env: dict[str, str], runs: int = 5) -> float:
    """Median wall seconds from the start to the first drawn window (then it quits)."""
    env = {**env, "AFDESK_EXIT_AFTER_FIRST_FRAME": "1"}
    run(cmd, env, "start to the first frame, then quit")  # a warm-up, and its stderr checked
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True, check=True, timeout=120)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def smoke(program: Path, scratch: Path) -> None:
    env = scratch_env(scratch)
    folder = program.parent if sys.platform != "darwin" else program.parents[1] / "Resources"
    samples = sorted(folder.rglob("resources/encounters/*.afenc"))
    tilesets = sorted(folder.rglob("resources/tilesets/*.json"))
    if not samples or not tilesets:
        raise Failed(f"no bundled samples or tile sets under {folder}")
    out = run([str(program), "--help"], env, "--help").stdout
    for word in ("check", "export-png", "--self-test"):
        if word not in out:
            raise Failed(f"--help does not list {word}")
    test = run([str(program), "--self-test"], env, "--self-test").stdout
    if "(frozen build)" not in test or "all checks passed" not in test:
        raise Failed(f"--self-test did not run frozen or did not pass:\n{_indent(test)}")
    files = [*map(str, samples), str(tilesets[0])]
    checked = run([str(program), "check", *files], env, "check (bundled samples, a tile set)")
    if checked.stdout.count(": ok\n") != len(files):
        raise Failed(f"check said too little:\n{_indent(checked.stdout)}")
    png = scratch / "player.png"
    cmd = [str(program), "export-png", str(samples[0]), str(png), "--player", "--size", "800x600"]
    run(cmd, env, "export-png --player")
    data = png.read_bytes() if png.exists() else b""
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or len(data) < 2000:
        raise Failed(f"export-png wrote no real PNG ({len(data)} bytes)")
    # The window's panels, menus, chase board and zone editor are built after the first
    # frame, from modules imported then: the frozen app must hold them all.
    whole = {**env, "AFDESK_EXIT_AFTER_FIRST_FRAME": "complete"}
    run([str(program)], whole, "the whole window on the sample, then quit")
    chase = next((s for s in samples if "chase" in s.name), None)
    if chase is None:
        raise Failed("no bundled chase sample")
    run([str(program), str(chase)], whole, "the whole window on the chase sample, then quit")
    if list((scratch / "data").glob("journal/*")):
        raise Failed("a journal was left behind in the data folder")
    if sys.platform.startswith("linux") and not (scratch / "home" / ".config" / "afdesk").is_dir():
        raise Failed("the window kept its settings elsewhere than the scratch settings folder")


def habits(program: Path, scratch: Path) -> None:
    """With no display the app and its self-test say so, exit 2 (Qt would abort, 134);
    an unknown option is a usage error, exit 2, with no window."""
    env = scratch_env(scratch)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        env.pop(name, None)
    if sys.platform.startswith("linux"):
        for args in ([], ["--self-test"]):
            done = run([str(program), *args], env, f"no display: afdesk {' '.join(args)}", 2)
            if not done.stderr.startswith("afdesk: no display found"):
                raise Failed(f"no display, but it said:\n{_indent(done.stderr)}")
    done = run([str(program), "--frobnicate"], env, "usage error: afdesk --frobnicate", 2)
    if not done.stderr.startswith("afdesk: unknown option --frobnicate"):
        raise Failed(f"--frobnicate, but it said:\n{_indent(done.stderr)}")


def check_binaries(folder: Path, floor: tuple[int, ...]) -> tuple[int, ...]:
    """Every ELF file under ``folder`` asks for at most glibc ``floor`` and the C++
    runtime of Ubuntu 22.04, and none is the system's C++ runtime or expat; the newest
    glibc asked for."""
    rows = bundle.newest_asked(folder)
    if not rows:
        raise Failed(f"no executable or library under {folder}")
    over = [f"{bundle.dotted(g)}  {p.relative_to(folder)}" for g, _, p in rows if g > floor]
    if over:
        raise Failed(
            f"bundled files ask for a glibc newer than {bundle.dotted(floor)}:\n"
            + _indent("\n".join(over))
        )
    newer_cxx = [p for _, cxx, p in rows if cxx > bundle.GLIBCXX_FLOOR]
    if newer_cxx:
        raise Failed(f"bundled files ask for a C++ runtime newer than Ubuntu 22.04's: {newer_cxx}")
    system = [p for _, _, p in rows if p.name.startswith(bundle.FROM_THE_SYSTEM)]
    if system:
        raise Failed(f"the system's C++ runtime or expat is bundled: {system}")
    newest = rows[0][0]
    print(
        f"ok  every bundled file asks for glibc {bundle.dotted(newest)} at most ({rows[0][2].name})"
    )
    return newest


def check_sizes(folder: Path, tarball: Path) -> tuple[int, int]:
    """The app folder at most 130 MB and the tarball at most 50 MB; both sizes."""
    unpacked, packed = folder_size(folder), tarball.stat().st_size
    if unpacked > MAX_UNPACKED:
        raise Failed(f"{folder} holds {unpacked / 1e6:.1f} MB; at most {MAX_UNPACKED / 1e6:.0f} MB")
    if packed > MAX_PACKED:
        raise Failed(f"{tarball.name} is {packed / 1e6:.1f} MB; at most {MAX_PACKED / 1e6:.0f} MB")
    print(f"ok  {unpacked / 1e6:.1f} MB unpacked, {packed / 1e6:.1f} MB packed")
    return unpacked, packed


def unpack(tarball: Path, scratch: Path) -> Path:
    """The tarball unpacked in a fresh folder; its top folder."""
    with tarfile.open(tarball) as tar:
        tar.extractall(scratch / "unpacked", filter="tar")
    (folder,) = (scratch / "unpacked").iterdir()
    return folder


def install_tarball(folder: Path, scratch: Path) -> None:
    """Run the unpacked tarball's install.sh with a scratch HOME, self-test the installed
    command, uninstall. The installed app finds its folders as a GM's does (no
    ``AFDESK_DATA_DIR``): the scratch home's."""
    env = scratch_env(scratch)
    env.pop("AFDESK_DATA_DIR")
    home = Path(env["HOME"])
    run(["bash", str(folder / "install.sh")], env, "install.sh (tarball, scratch home)")
    installed = home / ".local" / "bin" / "afdesk"
    desktop = home / ".local" / "share" / "applications" / "afdesk.desktop"
    if not desktop.exists() or str(home) not in desktop.read_text():
        raise Failed("install.sh wrote no desktop entry pointing at the installed app")
    run([str(installed), "--self-test"], env, "installed afdesk --self-test")
    opt = home / ".local" / "opt" / "afdesk"
    kept = list(opt.glob("_internal/afdesk/gui/__pycache__/shiboken-support.*.marshal"))
    if not kept:  # afdesk.gui.quick_shiboken: beside afdesk's code, the install writable
        raise Failed(f"the installed app kept no cache of shiboken's support in {opt}")
    run(["bash", str(folder / "install.sh"), "--uninstall"], env, "install.sh --uninstall")
    if installed.exists() or desktop.exists() or opt.exists():
        raise Failed("install.sh --uninstall left the command, the menu entry or the app")


def _floor(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split("."))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a glibc version such as 2.35, not {text!r}") from None


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-build", action="store_true", help="check what dist/ already holds")
    p.add_argument(
        "--glibc",
        type=_floor,
        default=bundle.GLIBC_FLOOR,
        metavar="X.Y",
        help="the newest glibc a bundled file may ask for (default 2.35)",
    )
    args = p.parse_args(argv)
    linux = sys.platform.startswith("linux")
    try:
        if not args.no_build:
            built = time.perf_counter()
            build.build_app()
            if linux:
                build.linux_tarball()
            print(f"built in {time.perf_counter() - built:.0f} s")
        program = build.program()
        if not program.exists():
            raise Failed(f"{program} is not there: build first")
        tarball = None
        with tempfile.TemporaryDirectory(prefix="afdesk-packaging-") as tmp:
            scratch = Path(tmp)
            if linux:
                tarballs = sorted(build.DIST.glob(f"afdesk-{build.version()}-linux-*.tar.gz"))
                if not tarballs:
                    raise Failed("no Linux tarball in dist/")
                tarball = tarballs[-1]
                folder = unpack(tarball, scratch)
                program = folder / "afdesk" / "afdesk"  # what the GM runs: the download
                newest = check_binaries(folder / "afdesk", args.glibc)
                sizes = check_sizes(folder / "afdesk", tarball)
            smoke(program, scratch / "smoke")
            habits(program, scratch / "habits")
            if linux:
                install_tarball(folder, scratch / "install")
            env = scratch_env(scratch / "start")
            frozen = start_times([str(program)], env)
            venv = start_times([sys.executable, "-m", "afdesk"], env)
        if tarball is not None:
            unpacked, packed = (f"{size / 1e6:.1f} MB" for size in sizes)
            print(f"size: {unpacked} unpacked, {packed} packed ({tarball.name})")
            floor = bundle.dotted(args.glibc)
            print(f"newest glibc asked for: {bundle.dotted(newest)} (floor {floor})")
        else:
            app = program.parent if sys.platform != "darwin" else program.parents[2]
            print(f"size: {folder_size(app) / 1e6:.1f} MB ({app})")
        print(
            f"start to the first frame: frozen {frozen * 1000:.0f} ms, "
            f"venv {venv * 1000:.0f} ms (median of 5)"
        )
    except (Failed, subprocess.CalledProcessError, RuntimeError) as exc:
        print(f"PACKAGING CHECK FAILED: {exc}", file=sys.stderr)
        return 1
    print("packaging check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
