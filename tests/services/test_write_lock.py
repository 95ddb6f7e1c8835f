"""The instance's SQLite write lock: one writer process at a time (``flock``), one thread at a time within one."""

from __future__ import annotations

import fcntl
from pathlib import Path

import pytest

from weft.services.write_lock import WriteLock, sqlite_write_lock


def _free_for_another_process(path: Path) -> bool:
    """Whether another open file description (as another process has) gets the lock without waiting."""
    with path.open("a+b") as other:
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(other, fcntl.LOCK_UN)
        return True


def test_held_excludes_other_processes_until_released(tmp_path: Path) -> None:
    lock = sqlite_write_lock(f"sqlite:///{tmp_path / 'weft.db'}")
    assert lock is not None
    path = tmp_path / "weft.db.write-lock"
    with lock.held():
        assert not _free_for_another_process(path)
    assert _free_for_another_process(path)
    with lock.held():  # taken again after a release
        assert not _free_for_another_process(path)
    lock.close()


def test_an_error_inside_releases_both_locks(tmp_path: Path) -> None:
    lock = WriteLock(tmp_path / "w.lock")
    with pytest.raises(RuntimeError), lock.held():
        raise RuntimeError("the write failed")
    assert _free_for_another_process(tmp_path / "w.lock")
    with lock.held():  # the threads' lock was released too (else this would wait forever)
        pass
    lock.close()


@pytest.mark.parametrize("url", ["sqlite:///:memory:", "postgresql://weft@127.0.0.1/weft", "sqlite:///"])
def test_no_lock_where_none_is_needed(url: str) -> None:
    assert sqlite_write_lock(url) is None
