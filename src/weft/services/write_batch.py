"""Group commit: the hot path's SQLite writes of one event-loop step, in one transaction.

Each execution the server runs writes twice (stored when it starts, saved when it ends); on SQLite each write was a
transaction of its own, with its commit, its pages appended to the WAL (the same index and table pages again and
again) and the instance's write lock taken and given back. Under load several executions of a process write in
the same step of its event loop. :class:`WriteBatch` collects those writes and, at the end of the step
(``loop.call_soon``), makes them in one transaction of the stdlib writer (:meth:`~weft.db.lite.LiteExecutions.batch`)
under one hold of the write lock; each caller then gets its own result. ``bench/bench_webhook.py`` measured what
one transaction per write cost.

Nothing waits for more writes to come: a lone write goes at the end of its step, in its own transaction as
before. Each caller resumes only once its write is committed, as before. If one write of a batch fails, the batch
is rolled back and its writes are made again one by one, so that only the failing one's caller gets the error.
A write that comes while a large write runs in a thread (:meth:`~weft.services.db_calls.DbCalls.db_write_large`)
waits for it, as the inline writes did.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class BatchingWriter(Protocol):
    def batch(self) -> AbstractContextManager[None]: ...


_Write = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], "asyncio.Future[Any]"]


class WriteBatch:
    """The writes to ``writer`` made in one event-loop step, in one transaction under ``locked``."""

    def __init__(
        self,
        writer: BatchingWriter,
        locked: Callable[[Callable[[], Any]], Any],
        large_write: asyncio.Lock,
    ) -> None:
        self.writer = writer
        self._locked = locked
        self._large_write = large_write
        self._pending: list[_Write] = []
        self._waiting: asyncio.Task[None] | None = None

    def takes(self, call: Callable[..., Any]) -> bool:
        """Whether ``call`` is a method of the batching writer (other repositories write on their own)."""
        return getattr(call, "__self__", None) is self.writer

    def submit(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> asyncio.Future[T]:
        """``call(*args, **kwargs)`` at the end of this step, with the step's other writes."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._flush)
        self._pending.append((call, args, kwargs, future))
        return future

    def _flush(self) -> None:
        if self._large_write.locked():  # a large write runs in a thread: these go after it
            self._waiting = asyncio.ensure_future(self._flush_after_large_write())
            return
        pending, self._pending = self._pending, []
        self._write(pending)

    async def _flush_after_large_write(self) -> None:
        async with self._large_write:
            pending, self._pending = self._pending, []  # with those that came meanwhile
            self._write(pending)

    def _write(self, pending: list[_Write]) -> None:
        if len(pending) > 1:
            try:
                results = self._locked(lambda: self._together(pending))
            except Exception:  # rolled back: again one by one, each caller with its own outcome
                pass
            else:
                for (_, _, _, future), result in zip(pending, results, strict=True):
                    if not future.done():
                        future.set_result(result)
                return
        for call, args, kwargs, future in pending:
            try:
                result = self._locked(functools.partial(call, *args, **kwargs))
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)

    def _together(self, pending: list[_Write]) -> list[Any]:
        with self.writer.batch():
            return [call(*args, **kwargs) for call, args, kwargs, _ in pending]


__all__ = ["BatchingWriter", "WriteBatch"]
