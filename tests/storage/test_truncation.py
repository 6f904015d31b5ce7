"""A file cut short anywhere (a copy interrupted, a disk that filled up under another
program) is a LoadError, never another exception and never a silently shorter encounter."""

from __future__ import annotations

import pytest

from afdesk.paths import sample_encounter
from afdesk.storage import LoadError, decode, load
from tests.storage.builders import random_encounter


def _cut_everywhere(data: bytes, source: str) -> int:
    complete = data.rstrip()
    failures = 0
    for offset in range(len(data)):
        cut = data[:offset]
        if cut.rstrip() == complete:
            assert decode(cut, source=source) is not None  # only the final newline is gone
            continue
        try:
            decode(cut, source=source)
        except LoadError as exc:
            assert str(exc).startswith(f"{source}: ")
            assert "could not be read" not in exc.detail, exc.detail  # no stray exception
            failures += 1
            continue
        pytest.fail(f"{source} cut at byte {offset} of {len(data)} loaded")
    return failures


def test_sample_truncated_at_every_byte():
    # How fast a cut file is refused is a benchmark (tests/benchmarks/test_storage_bench.py,
    # as a ratio to a floor): a wall-clock limit here failed or not by the machine's load.
    data = sample_encounter().read_bytes()
    failures = _cut_everywhere(data, "river-ford.afenc")
    assert failures == len(data) - 1


def test_played_encounter_truncated_at_every_byte():
    """Escapes, unicode and dice throughout; a cut inside a multi-byte character too."""
    from afdesk.storage import encode

    data = encode(random_encounter(8, 40).state())
    assert _cut_everywhere(data, "played.afenc") == len(data) - 1


@pytest.mark.parametrize("keep", [0, 1, 100, 0.5, 0.99])
def test_truncated_files(tmp_path, keep):
    data = sample_encounter().read_bytes()
    n = keep if isinstance(keep, int) else int(len(data) * keep)
    path = tmp_path / "cut.afenc"
    path.write_bytes(data[:n])
    with pytest.raises(LoadError, match=r"^cut\.afenc: "):
        load(path)
