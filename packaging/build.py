"""Build afdesk as a one-folder app with PyInstaller (packaging/afdesk.spec), then, on
Linux, a tarball with the .desktop file and an install script.

    python packaging/build.py [--no-tarball]

Needs the packaging extra (``pip install -e ".[packaging]"``). Results:

- Linux: ``dist/afdesk/afdesk`` and ``dist/afdesk-VERSION-linux-ARCH.tar.gz``
- Windows: ``dist\\afdesk\\afdesk.exe`` (then packaging/windows/afdesk.iss, a per-user installer)
- macOS: ``dist/afdesk.app`` (then packaging/macos/build-dmg.sh, a .dmg)
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DIST = ROOT / "dist"
BUILD = ROOT / "build"


def version() -> str:
    sys.path.insert(0, str(ROOT))
    from afdesk import __version__

    return __version__


def build_app() -> Path:
    """Run PyInstaller; the one-folder app's main program."""
    icons = BUILD / "icons"
    subprocess.run([sys.executable, str(HERE / "make_icons.py"), str(icons)], check=True)
    env = {**os.environ, "AFDESK_ICON_DIR": str(icons)}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            "--log-level=WARN",
            "--distpath",
            str(DIST),
            "--workpath",
            str(BUILD / "pyinstaller"),
            str(HERE / "afdesk.spec"),
        ],
        check=True,
        env=env,
        cwd=ROOT,
    )
    return program()


def program() -> Path:
    """The built program (afdesk-cli.exe on Windows: the console build)."""
    if sys.platform == "win32":
        return DIST / "afdesk" / "afdesk-cli.exe"
    if sys.platform == "darwin":
        return DIST / "afdesk.app" / "Contents" / "MacOS" / "afdesk"
    return DIST / "afdesk" / "afdesk"


def linux_tarball() -> Path:
    """dist/afdesk-VERSION-linux-ARCH.tar.gz: the app folder, the desktop entry, the MIME
    type, the icon and install.sh (installs for the user, no root)."""
    name = f"afdesk-{version()}-linux-{platform.machine()}"
    stage = BUILD / name
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(DIST / "afdesk", stage / "afdesk", symlinks=True)
    for file in ("afdesk.desktop", "afdesk-mime.xml"):
        shutil.copy2(HERE / "linux" / file, stage / file)
    shutil.copy2(ROOT / "resources" / "icons" / "afdesk.svg", stage / "afdesk.svg")
    shutil.copy2(BUILD / "icons" / "afdesk.png", stage / "afdesk.png")
    shutil.copy2(HERE / "linux" / "install.sh", stage / "install.sh")
    (stage / "install.sh").chmod(0o755)
    out = DIST / f"{name}.tar.gz"
    with tarfile.open(out, "w:gz") as tar:
        tar.add(stage, arcname=name)
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-tarball", action="store_true", help="Linux: only the app folder")
    args = p.parse_args(argv)
    built = build_app()
    print(f"built {built}")
    if sys.platform.startswith("linux") and not args.no_tarball:
        print(f"packed {linux_tarball()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
