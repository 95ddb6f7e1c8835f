"""One writer at a time across the processes of a SQLite instance.

SQLite serialises writers itself, but a writer that finds the database locked polls with sleeps of 1 to
100 ms (its busy handler), which shows up as latency spikes of hundreds of milliseconds when several server
workers write at once. An advisory ``flock`` on ``<database>.write-lock`` queues writers in the kernel
instead: a waiting writer wakes as soon as the lock is released. PostgreSQL needs no such lock.
"""

from __future__ import annotations

import fcntl
import threading
from contextlib import AbstractContextManager
from pathlib import Path
from typing import BinaryIO


class WriteLock:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "a+b")
        self._threads = threading.Lock()
        self._held = _Held(self._file, self._threads)

    def held(self) -> AbstractContextManager[None]:
        """The lock, for a ``with`` block (the same object each time: no generator per write)."""
        return self._held

    def close(self) -> None:
        self._file.close()


class _Held:
    """Held by one thread of this process (the threads' lock) and one process of the instance (``flock``)."""

    def __init__(self, file: BinaryIO, threads: threading.Lock) -> None:
        self._file = file
        self._threads = threads

    def __enter__(self) -> None:
        self._threads.acquire()
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX)
        except BaseException:
            self._threads.release()
            raise

    def __exit__(self, *exc: object) -> None:
        try:
            fcntl.flock(self._file, fcntl.LOCK_UN)
        finally:
            self._threads.release()


def sqlite_write_lock(database_url: str) -> WriteLock | None:
    """A lock beside the SQLite file of ``database_url``; ``None`` for other databases and in-memory SQLite."""
    prefix = "sqlite:///"
    if not database_url.startswith(prefix):
        return None
    path = database_url[len(prefix) :].split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return WriteLock(Path(path).expanduser().with_name(Path(path).name + ".write-lock"))


__all__ = ["WriteLock", "sqlite_write_lock"]
