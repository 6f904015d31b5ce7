"""Faults on save (promise 5): a file changed or deleted since it was opened is
not overwritten unasked, a read-only file is not replaced; the old bytes stay, no
temporary file is left, and the message says what happened."""

from __future__ import annotations

import os
import stat

import pytest

from afdesk.encounter.ops.meta import Rename
from afdesk.storage import FileChangedError, SaveError, load, save
from afdesk.storage.files import file_digest
from afdesk.storage.samples import build


def _opened(tmp_path):
    path = tmp_path / "ford.afenc"
    save(path, build().state())
    return path, load(path)


def _changed_state():
    enc = build()
    enc.apply(Rename("Changed at the table"))
    return enc.state()


def test_a_file_changed_on_disk_since_it_was_opened_is_not_overwritten(tmp_path):
    path, loaded = _opened(tmp_path)
    other = build()
    other.apply(Rename("Edited in another program"))
    save(path, other.state())
    theirs = path.read_bytes()
    with pytest.raises(FileChangedError) as info:
        save(path, _changed_state(), expected_digest=loaded.digest)
    assert str(info.value) == (
        "could not save ford.afenc: it was changed on disk (by another program?) since it "
        "was opened; the file on disk is unchanged"
    )
    assert path.read_bytes() == theirs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ford.afenc"]
    # The GM chose Overwrite: no digest to check.
    save(path, _changed_state())
    assert load(path).state == _changed_state()


def test_an_unchanged_file_is_saved_and_its_new_digest_follows(tmp_path):
    path, loaded = _opened(tmp_path)
    save(path, _changed_state(), expected_digest=loaded.digest)
    digest = file_digest(path)
    assert digest != loaded.digest
    save(path, build().state(), expected_digest=digest)
    assert load(path).state == build().state()


def test_a_file_deleted_since_it_was_opened_is_reported(tmp_path):
    path, loaded = _opened(tmp_path)
    path.unlink()
    with pytest.raises(FileChangedError, match="deleted or moved on disk"):
        save(path, _changed_state(), expected_digest=loaded.digest)
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_file_is_not_replaced(tmp_path):
    path, _loaded = _opened(tmp_path)
    before = path.read_bytes()
    os.chmod(path, 0o444)
    try:
        with pytest.raises(SaveError) as info:
            save(path, _changed_state())
        assert not isinstance(info.value, FileChangedError)
        assert "the file is read-only; the file on disk is unchanged" in str(info.value)
        assert path.read_bytes() == before
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
        assert sorted(p.name for p in tmp_path.iterdir()) == ["ford.afenc"]
    finally:
        os.chmod(path, 0o644)
