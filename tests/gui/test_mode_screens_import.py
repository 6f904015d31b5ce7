"""Each mode's screens import on their own (a benchmark or a plug-in may import one first):
the package declares the mode it registers screens for, whatever was imported before."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("mode", ["chase", "dispute", "infiltration"])
def test_a_modes_screens_import_first_in_a_fresh_process(mode):
    code = (
        f"import afdesk.gui.{mode}\n"
        "from afdesk.encounter.state import Mode\n"
        "from afdesk.gui.modes import screens_for\n"
        f"print(screens_for(Mode.{mode.upper()}).mode)"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.strip() == mode
