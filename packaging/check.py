"""The packaging check: build the one-folder app, then run the BUILT program offscreen
through ``--self-test``, ``check`` on the bundled samples and ``export-png --player``; install
the Linux tarball into a scratch home and self-test the installed program. Any line on
stderr that is not expected fails the check (a smoke test in the manner of qutebrowser's).

    python packaging/check.py            (build, then check)
    python packaging/check.py --no-build (check what dist/ holds)

Prints the app's size and its start time (to the first drawn window), the venv's beside it.
Exit status 0 if everything passed.
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

EXPECTED_STDERR: tuple[str, ...] = (
    # Qt's offscreen platform plugin, when a window is shown: it has no window manager to
    # pass size hints to. Only the start-time runs show a window.
    "This plugin does not support propagateSizeHints()",
)
"""Lines on stderr that are no failure; every other line is a finding."""


class Failed(Exception):
    pass


def run(cmd: list[str], env: dict[str, str], what: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, check=False)
    unexpected = [
        line
        for line in done.stderr.splitlines()
        if line.strip() and not any(line.startswith(e) for e in EXPECTED_STDERR)
    ]
    if done.returncode != 0 or unexpected:
        raise Failed(
            f"{what}: exit status {done.returncode}\n  command: {' '.join(cmd)}\n"
            f"  stdout:\n{_indent(done.stdout)}\n  unexpected stderr:\n{_indent(done.stderr)}"
        )
    print(f"ok  {what}")
    return done


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.splitlines()) or "    (nothing)"


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
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AFDESK_DATA_DIR": str(scratch / "data"),
    }
    env.pop("PYTHONPATH", None)
    bundle = program.parent if sys.platform != "darwin" else program.parents[1] / "Resources"
    samples = sorted(bundle.rglob("resources/encounters/*.afenc"))
    if not samples:
        raise Failed(f"no bundled samples under {bundle}")
    out = run([str(program), "--help"], env, "--help").stdout
    for word in ("check", "export-png", "--self-test"):
        if word not in out:
            raise Failed(f"--help does not list {word}")
    test = run([str(program), "--self-test"], env, "--self-test").stdout
    if "(frozen build)" not in test or "all checks passed" not in test:
        raise Failed(f"--self-test did not run frozen or did not pass:\n{_indent(test)}")
    checked = run([str(program), "check", *map(str, samples)], env, "check (bundled samples)")
    if checked.stdout.count("\n") < len(samples):
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


def install_tarball(tarball: Path, scratch: Path) -> None:
    """Unpack, run install.sh with a scratch HOME, self-test the installed command."""
    with tarfile.open(tarball) as tar:
        tar.extractall(scratch / "unpacked", filter="tar")
    (folder,) = (scratch / "unpacked").iterdir()
    home = scratch / "home"
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "QT_QPA_PLATFORM": "offscreen",
        "AFDESK_DATA_DIR": str(scratch / "data-installed"),
    }
    run(["bash", str(folder / "install.sh")], env, "install.sh (tarball, scratch home)")
    installed = home / ".local" / "bin" / "afdesk"
    desktop = home / ".local" / "share" / "applications" / "afdesk.desktop"
    if not desktop.exists() or str(home) not in desktop.read_text():
        raise Failed("install.sh wrote no desktop entry pointing at the installed app")
    run([str(installed), "--self-test"], env, "installed afdesk --self-test")
    run(["bash", str(folder / "install.sh"), "--uninstall"], env, "install.sh --uninstall")
    if installed.exists() or desktop.exists():
        raise Failed("install.sh --uninstall left the command or the menu entry")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-build", action="store_true", help="check what dist/ already holds")
    args = p.parse_args(argv)
    try:
        if not args.no_build:
            built = time.perf_counter()
            build.build_app()
            if sys.platform.startswith("linux"):
                build.linux_tarball()
            print(f"built in {time.perf_counter() - built:.0f} s")
        program = build.program()
        if not program.exists():
            raise Failed(f"{program} is not there: build first")
        with tempfile.TemporaryDirectory(prefix="afdesk-packaging-") as tmp:
            scratch = Path(tmp)
            smoke(program, scratch)
            tarballs = sorted(build.DIST.glob("afdesk-*-linux-*.tar.gz"))
            if sys.platform.startswith("linux"):
                if not tarballs:
                    raise Failed("no Linux tarball in dist/")
                install_tarball(tarballs[-1], scratch)
            env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
            env["AFDESK_DATA_DIR"] = str(scratch / "data-start")
            frozen = start_times([str(program)], env)
            venv = start_times([sys.executable, "-m", "afdesk"], env)
        app = program.parent if sys.platform != "darwin" else program.parents[2]
        print(f"size: {folder_size(app) / 2**20:.0f} MiB ({app})")
        for tarball in tarballs:
            print(f"size: {tarball.stat().st_size / 2**20:.0f} MiB ({tarball.name})")
        print(
            f"start to the first frame: frozen {frozen * 1000:.0f} ms, "
            f"venv {venv * 1000:.0f} ms (median of 5)"
        )
    except (Failed, subprocess.CalledProcessError) as exc:
        print(f"PACKAGING CHECK FAILED: {exc}", file=sys.stderr)
        return 1
    print("packaging check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
