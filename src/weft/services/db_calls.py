"""Repository calls from the event loop: reads in a worker thread; the execution hot path's writes inline (SQLite)
or in a thread, one writer at a time across processes on SQLite (:mod:`weft.services.write_lock`), the inline
writes of one event-loop step to the stdlib writer in one transaction (:mod:`weft.services.write_batch`), and large
writes in a thread with the inline ones queued behind them, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from weft.services.write_batch import WriteBatch
from weft.services.write_lock import WriteLock

T = TypeVar("T")


class DbCalls:
    """How a runner calls its repositories (``inline_db``: the hot path's writes on the event loop)."""

    def __init__(self, *, inline_db: bool, write_lock: WriteLock | None) -> None:
        self.inline_db = inline_db
        """Call the repositories directly on the event loop instead of in a thread (faster for SQLite)."""
        self.write_lock = write_lock
        self._large_write = asyncio.Lock()
        """Held while :meth:`db_write_large` writes in a thread: the inline writes queue behind it."""
        self.batch: WriteBatch | None = None
        """The inline writes to the stdlib writer, a step's in one transaction (set by the runner that has one)."""

    def batch_writes_of(self, writer: Any) -> None:
        """Make the inline writes to ``writer`` (one with ``batch()``: the stdlib writer) in one transaction per
        event-loop step; ``None``: stop."""
        batching = self.inline_db and writer is not None and hasattr(writer, "batch")
        self.batch = WriteBatch(writer, self._locked, self._large_write) if batching else None

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a repository call in a worker thread, off the event loop."""
        return await asyncio.to_thread(call, *args, **kwargs)

    async def db_write(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A write of the execution hot path (create, save, claim): inline when ``inline_db``, else in a thread.
        Inline writes that come while a large one runs in a thread (:meth:`db_write_large`) wait for it."""
        if self.inline_db:
            batch = self.batch
            if batch is not None and batch.takes(call):
                return await batch.submit(call, *args, **kwargs)
            if self._large_write.locked():
                async with self._large_write:
                    return self._locked(call, *args, **kwargs)
            return self._locked(call, *args, **kwargs)
        return await asyncio.to_thread(self._locked, call, *args, **kwargs)

    async def db_write_large(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """:meth:`db_write` of a large value (the run data of an execution of many items): in a thread even when
        ``inline_db``, since writing tens of megabytes to SQLite takes a good part of a second."""
        if not self.inline_db:
            return await self.db_write(call, *args, **kwargs)
        async with self._large_write:
            return await asyncio.to_thread(self._locked, call, *args, **kwargs)

    def _locked(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.write_lock is None:
            return call(*args, **kwargs)
        with self.write_lock.held():
            return call(*args, **kwargs)


__all__ = ["DbCalls"]
