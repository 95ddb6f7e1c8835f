"""WAL checkpoints of the server's SQLite writer, in a thread of their own instead of inside a request's commit.

In WAL mode SQLite appends each commit to ``<database>-wal``; a *checkpoint* copies those pages back into the
database file and, with ``synchronous=NORMAL``, calls ``fsync`` twice (the WAL, then the database). By default the
connection that commits the 1000th page runs it, inside that commit: on the server that is the event loop, which
then stands still for the 2-30 ms the two ``fsync`` take, once every 60-odd executions (the p99 of a webhook).

:class:`WalCheckpointer` moves that work off the committing thread, with the same durability (the same
``fsync``\\ s, the same ``synchronous`` setting):

* the writer's connection turns automatic checkpoints off (``PRAGMA wal_autocheckpoint=0``) and calls
  :meth:`WalCheckpointer.committed` after each commit;
* every :data:`CHECKPOINT_COMMITS` commits a daemon thread runs ``PRAGMA wal_checkpoint(PASSIVE)`` on its own
  connection: it copies what is committed while the writers go on (SQLite releases the interpreter lock);
* SQLite starts the WAL file over only when a writer begins with every page copied back, which never happens
  while writes go on during the copy. Once the file has grown past :data:`RESTART_BYTES`, the thread copies the
  last pages while holding the instance's write lock (:mod:`weft.services.write_lock`): the next write starts the
  file over. Only a write that comes during that short copy waits, once every few hundred executions.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

log = logging.getLogger("weft.db")

#: Commits between two background checkpoints (an execution commits twice, about 15 pages each time).
CHECKPOINT_COMMITS = 100
#: Size of the WAL file from which a checkpoint holds the write lock, so that the next write starts the file over.
RESTART_BYTES = 32 << 20


class WalCheckpointer:
    """Checkpoints ``path``'s WAL in a daemon thread (started on first need); ``lock`` is the instance's write lock."""

    def __init__(
        self,
        path: Path,
        lock: Callable[[], AbstractContextManager[object]],
        *,
        every: int = CHECKPOINT_COMMITS,
        restart_bytes: int = RESTART_BYTES,
    ) -> None:
        self.path = path
        self.wal = path.with_name(path.name + "-wal")
        self.lock = lock
        self.every = every
        self.restart_bytes = restart_bytes
        self._commits = 0
        self._wake = threading.Event()
        self._closing = False
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def committed(self) -> None:
        """Count a commit of the writer; every :attr:`every` commits, wake the thread (cheap: no system call)."""
        self._commits += 1
        if self._commits >= self.every:
            self._commits = 0
            if self._thread is None:
                self._spawn()
            self._wake.set()

    def close(self) -> None:
        """Stop the thread (after the checkpoint it may be running)."""
        self._closing = True
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join()

    def checkpoint(self, connection: sqlite3.Connection) -> None:
        """One round: copy what is committed; if the WAL file is large, finish under the write lock."""
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        try:
            large = os.path.getsize(self.wal) >= self.restart_bytes
        except OSError:
            return
        if large:
            with self.lock():
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _spawn(self) -> None:
        with self._start:
            if self._thread is None and not self._closing:
                self._thread = threading.Thread(target=self._run, name="weft-wal-checkpoint", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            connection.execute("PRAGMA busy_timeout=10000")
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._closing:
                    return
                try:
                    self.checkpoint(connection)
                except sqlite3.Error as exc:  # busy (another process checkpoints), or a full disk: next round
                    log.debug("WAL checkpoint of %s skipped: %s", self.path, exc)
        finally:
            connection.close()


__all__ = ["CHECKPOINT_COMMITS", "RESTART_BYTES", "WalCheckpointer"]
