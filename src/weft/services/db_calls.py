"""Repository calls from the event loop: reads in a worker thread; the execution hot path's writes inline (SQLite)
or in a thread, one writer at a time across processes on SQLite (:mod:`weft.services.write_lock`), and large
writes in a thread with the inline ones queued behind them, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

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

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a repository call in a worker thread, off the event loop."""
        return await asyncio.to_thread(call, *args, **kwargs)

    async def db_write(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A write of the execution hot path (create, save, claim): inline when ``inline_db``, else in a thread.
        Inline writes that come while a large one runs in a thread (:meth:`db_write_large`) wait for it."""
        if self.inline_db:
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
