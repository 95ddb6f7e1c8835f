"""WAL checkpoints of the server's SQLite writer run in a thread of their own (``weft.db.wal_checkpoints``).

The writer's commits never checkpoint (``wal_autocheckpoint=0``); the checkpointer copies the WAL back into the
database, and once the WAL file is large it finishes under the write lock, so that the next write starts the file
over: the file stays bounded however many executions are written.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from weft.db import Cipher, Store
from weft.db.lite import LiteExecutions, sqlite_path
from weft.db.wal_checkpoints import WalCheckpointer

WORKFLOW = {"id": "wf1", "name": "wf", "nodes": [], "connections": {}, "settings": {}}


class CountingLock:
    """A write lock that counts how often it was held (and can tell a waiting test)."""

    def __init__(self) -> None:
        self.held = 0
        self.taken = threading.Event()
        self._lock = threading.Lock()

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            self.held += 1
            self.taken.set()
            yield


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'weft' / 'database.sqlite'}"
    Store.open(url, Cipher("k")).close()  # created and migrated
    yield url


@dataclass(frozen=True)
class Rig:
    lock: CountingLock
    writer: LiteExecutions
    reader: sqlite3.Connection
    """The connection the checkpoints run on (the checkpointer's own, in the server)."""


@pytest.fixture
def rig(url: str) -> Iterator[Rig]:
    """The server's writer under a counting write lock, and a connection of its own to checkpoint on."""
    lock = CountingLock()
    writer = LiteExecutions.open(url, write_lock=lock)
    assert writer is not None
    reader = sqlite3.connect(_path(url), isolation_level=None)
    yield Rig(lock, writer, reader)
    reader.close()
    writer.close()


def _path(url: str) -> Path:
    path = sqlite_path(url)
    assert path is not None
    return path


def _autocheckpoint(writer: LiteExecutions) -> int:
    return int(writer._connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0])


def _wal_size(url: str) -> int:
    wal = _path(url).with_name("database.sqlite-wal")
    return wal.stat().st_size if wal.exists() else 0


def test_with_a_write_lock_the_writer_never_checkpoints_in_its_commits(url: str, rig: Rig) -> None:
    plain = LiteExecutions.open(url)
    assert plain is not None
    try:
        assert _autocheckpoint(plain) == 1000  # SQLite's default: the 1000th page's commit copies them back
        assert _autocheckpoint(rig.writer) == 0
    finally:
        plain.close()


def test_the_wal_file_stays_bounded_when_checkpoints_finish_under_the_lock(url: str, rig: Rig) -> None:
    checkpointer = WalCheckpointer(_path(url), rig.lock, restart_bytes=0)  # every round finishes under the lock
    sizes = []
    for _ in range(6):
        for _ in range(20):
            rig.writer.create(WORKFLOW, "webhook", "running")
        checkpointer.checkpoint(rig.reader)
        sizes.append(_wal_size(url))
    assert rig.lock.held == 6
    assert sizes[-1] < 2 * sizes[0]  # each round's writes reuse the file from its start (without: 6 times)
    assert rig.reader.execute("SELECT count(*) FROM execution_entity").fetchone()[0] == 120


def test_without_the_lock_a_checkpoint_copies_but_the_file_grows(url: str, rig: Rig) -> None:
    checkpointer = WalCheckpointer(_path(url), rig.lock, restart_bytes=1 << 40)  # never large enough
    rig.writer.create(WORKFLOW, "webhook", "running")
    checkpointer.checkpoint(rig.reader)
    first = _wal_size(url)
    for _ in range(20):
        rig.writer.create(WORKFLOW, "webhook", "running")
    checkpointer.checkpoint(rig.reader)
    busy, logged, copied = rig.reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert rig.lock.held == 0
    assert (busy, logged) == (0, copied)  # everything is in the database file already
    assert _wal_size(url) >= first


def test_the_thread_checkpoints_after_enough_commits_and_stops_on_close(url: str) -> None:
    lock = CountingLock()
    checkpointer = WalCheckpointer(_path(url), lock, every=3, restart_bytes=0)
    for _ in range(2):
        checkpointer.committed()
    assert checkpointer._thread is None  # nothing started before the third commit
    checkpointer.committed()
    assert lock.taken.wait(30)
    thread = checkpointer._thread
    assert thread is not None and thread.is_alive()
    checkpointer.close()
    assert not thread.is_alive()
    checkpointer.committed()  # after close: counted, nothing started
    assert checkpointer._thread is thread


def test_the_writer_closes_its_checkpointer(url: str) -> None:
    writer = LiteExecutions.open(url, write_lock=CountingLock())
    assert writer is not None and writer._checkpointer is not None
    writer._checkpointer.every = 1
    writer.create(WORKFLOW, "webhook", "running")
    thread = writer._checkpointer._thread
    assert thread is not None
    writer.close()
    assert not thread.is_alive()
