"""Things a node opens once per execution and the engine closes when the execution ends (MCP sessions …).

A node asks ``ctx.execution_resources().open(key, factory)``: the first call enters the async context manager
``factory()`` and keeps what it yields under ``key``; later calls in the same execution get that value back. Each
context manager is entered and exited by a task of its own, so one opened by one node run (or inside a timeout)
may be used by later runs and closed at the end: transports built on anyio task groups require that a scope be
left by the task that entered it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

T = TypeVar("T")


class _Held:
    """One open context manager, held by its own task until :meth:`close`."""

    def __init__(self, factory: Callable[[], AbstractAsyncContextManager[Any]]) -> None:
        self.ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._done = asyncio.Event()
        self.task = asyncio.ensure_future(self._hold(factory))

    async def _hold(self, factory: Callable[[], AbstractAsyncContextManager[Any]]) -> None:
        try:
            async with factory() as value:
                self.ready.set_result(value)
                await self._done.wait()
        except BaseException as exc:
            if not self.ready.done():
                self.ready.set_exception(exc)

    def release(self) -> None:
        """Let the holding task leave the context manager (it does so even if nobody awaits it)."""
        self._done.set()

    async def close(self) -> None:
        self.release()
        with contextlib.suppress(BaseException):
            await self.task


class ExecutionResources:
    """Resources kept for one execution, by key; :meth:`aclose` (the engine, at the end) closes them all."""

    def __init__(self) -> None:
        self._held: dict[str, _Held] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def open(self, key: str, factory: Callable[[], AbstractAsyncContextManager[T]]) -> T:
        """The value kept under ``key``, opening ``factory()`` on first use; an opening that fails is not kept."""
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            held = self._held.get(key)
            if held is None:
                held = _Held(factory)
                self._held[key] = held
            try:
                value: T = await asyncio.shield(held.ready)
            except BaseException:
                if held.ready.done():  # the opening failed (not the caller cancelled while waiting)
                    self._held.pop(key, None)
                raise
            return value

    async def discard(self, key: str) -> None:
        """Close the resource under ``key`` now (it broke); the next :meth:`open` opens a new one."""
        held = self._held.pop(key, None)
        if held is not None:
            await held.close()

    def __contains__(self, key: str) -> bool:
        return key in self._held

    def __len__(self) -> int:
        """How many resources are open."""
        return len(self._held)

    async def aclose(self) -> None:
        """Close every resource, newest first (a later :meth:`open` opens afresh: a resumed execution)."""
        held, self._held = list(self._held.values()), {}
        for one in held:  # released at once, so a cancelled close still lets every holder finish
            one.release()
        for one in reversed(held):
            await one.close()


__all__ = ["ExecutionResources"]
