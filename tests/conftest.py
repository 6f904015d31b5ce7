"""Test-wide settings: Qt runs offscreen, benchmarks only run when asked for."""

from __future__ import annotations

import faulthandler
import os
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
ends at once (exit 1), so that a hang shows where it is instead of running CI into its time
limit with nothing said. The slowest test takes about 100 s on a loaded machine."""

_HANG_OUT = pytest.StashKey()


def pytest_configure(config):
    # The stderr the run started with: pytest captures fd 2 while a test runs.
    config.stash[_HANG_OUT] = os.fdopen(os.dup(2), "w")


def pytest_unconfigure(config):
    faulthandler.cancel_dump_traceback_later()
    config.stash[_HANG_OUT].close()


def _watch(config) -> None:
    faulthandler.dump_traceback_later(HANG_LIMIT_S, exit=True, file=config.stash[_HANG_OUT])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """The hang watchdog (:data:`HANG_LIMIT_S`) over each test, its set-up and tear-down."""
    _watch(item.config)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.hookimpl(trylast=True)
def pytest_exception_interact(node, call, report):
    """pytest's faulthandler plugin stops the timer when a test fails (for a debugger that
    may follow): watched again, for the failed test's tear-down, where a hang is likeliest."""
    if isinstance(node, pytest.Item):
        _watch(node.config)


def pytest_ignore_collect(collection_path, config):
    """tests/benchmarks runs only when named on the command line (README)."""
    if collection_path == BENCHMARKS:
        named = [Path(a.split("::")[0]).resolve() for a in config.args]
        return not any(p == BENCHMARKS or BENCHMARKS in p.parents for p in named)
    return None
