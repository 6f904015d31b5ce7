"""Test-wide settings: Qt runs offscreen, benchmarks only run when asked for."""

from __future__ import annotations

import faulthandler
import os
import signal
from pathlib import Path

import pytest

# Before anything imports Qt: tests never need a display and never pop up windows.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")

from hypothesis import HealthCheck, settings

# The default run is derandomized: the same examples every run, so a property test cannot
# pass today and fail tomorrow on the same code (CI, a colleague's machine). New examples are
# searched for on purpose: HYPOTHESIS_PROFILE=explore .venv/bin/pytest (README, Development),
# and what that finds becomes a regression test.
settings.register_profile(
    "default",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore", deadline=None, max_examples=500, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

BENCHMARKS = Path(__file__).parent / "benchmarks"

HANG_LIMIT_S = float(os.environ.get("AFDESK_TEST_HANG_LIMIT", "600"))
"""A test that runs this long is taken for hung: every thread's stack is printed and the run
ends at once, so that a hang shows where it is instead of running CI into its time limit
with nothing said. The slowest test takes about 100 s on a loaded machine."""

_ALARM = hasattr(signal, "setitimer")
"""The watchdog is a timer signal where there is one (POSIX): faulthandler's handler for it
is C, so it prints the stacks even while the main thread is stuck in Qt's C++ code, and it
needs no thread of its own. (faulthandler's own timer is a thread: every fork in the tests
was then a fork of a multi-threaded process, which Python 3.12 warns may deadlock.)"""

_HANG_OUT = pytest.StashKey()


def pytest_configure(config):
    # The stderr the run started with: pytest captures fd 2 while a test runs.
    out = config.stash[_HANG_OUT] = os.fdopen(os.dup(2), "w")
    if _ALARM:
        # On the timer's signal: every thread's stack, then the signal's own default
        # action ends the process (chain=True restores it and raises the signal again).
        faulthandler.register(signal.SIGALRM, file=out, all_threads=True, chain=True)


def pytest_unconfigure(config):
    _unwatch()
    if _ALARM:
        faulthandler.unregister(signal.SIGALRM)
    config.stash[_HANG_OUT].close()


def _watch(config) -> None:
    if _ALARM:
        signal.setitimer(signal.ITIMER_REAL, HANG_LIMIT_S)
    else:
        faulthandler.dump_traceback_later(HANG_LIMIT_S, exit=True, file=config.stash[_HANG_OUT])


def _unwatch() -> None:
    if _ALARM:
        signal.setitimer(signal.ITIMER_REAL, 0)
    else:
        faulthandler.cancel_dump_traceback_later()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """The hang watchdog (:data:`HANG_LIMIT_S`) over each test, its set-up and tear-down
    (a failed test's too: pytest's faulthandler plugin stops only its own timer)."""
    _watch(item.config)
    try:
        yield
    finally:
        _unwatch()


def pytest_ignore_collect(collection_path, config):
    """tests/benchmarks runs only when named on the command line (README)."""
    if collection_path == BENCHMARKS:
        named = [Path(a.split("::")[0]).resolve() for a in config.args]
        return not any(p == BENCHMARKS or BENCHMARKS in p.parents for p in named)
    return None
