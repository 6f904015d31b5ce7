"""The suite's hang watchdog (tests/conftest.py): a test that runs past the limit ends the
run with every thread's stack on stderr, instead of hanging CI until its time limit. On
POSIX it is a timer signal (no thread: the tests fork), elsewhere faulthandler's timer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).parent
_ENDED = -signal.SIGALRM if hasattr(signal, "setitimer") else 1
"""How a hung run ends: killed by the timer's signal (POSIX), or exit 1."""


def _run(tmp_path, source: str) -> subprocess.CompletedProcess:
    case = tmp_path / "test_hangs.py"
    case.write_text(textwrap.dedent(source))
    (tmp_path / "conftest.py").write_text((TESTS / "conftest.py").read_text())
    env = {**os.environ, "AFDESK_TEST_HANG_LIMIT": "2"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(case)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_hung_test_ends_the_run_with_its_stack(tmp_path):
    done = _run(
        tmp_path,
        """
        import threading

        def test_waits_forever():
            threading.Event().wait()  # a lost wake-up
        """,
    )
    assert done.returncode == _ENDED
    assert "in test_waits_forever" in done.stderr, "the stack names the hung test"


def test_the_tear_down_of_a_failed_test_is_watched_too(tmp_path):
    """pytest's faulthandler plugin stops the timer when a test fails; the tear-down that
    follows (a window taken apart) is where a hang is likeliest."""
    done = _run(
        tmp_path,
        """
        import threading

        import pytest

        @pytest.fixture
        def window():
            yield
            threading.Event().wait()  # taken apart forever

        def test_fails(window):
            assert False
        """,
    )
    assert done.returncode == _ENDED
    assert "in window" in done.stderr, "the stack names the hung tear-down"


def test_a_fork_in_a_test_forks_no_watchdog_thread(tmp_path):
    """Python 3.12 warns that a fork of a multi-threaded process may deadlock the child
    (tests/storage/test_atomic.py forks hundreds of times): the watchdog adds no thread."""
    done = _run(
        tmp_path,
        """
        import os
        import threading

        def threads():
            try:  # the process's threads, C ones too (Linux)
                with open("/proc/self/status") as status:
                    return int(status.read().split("Threads:")[1].split()[0])
            except OSError:
                return threading.active_count()

        def test_forks():
            assert threads() == 1
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            assert os.waitpid(pid, 0)[1] == 0
        """,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "multi-threaded" not in done.stdout + done.stderr
