"""User code leaves the event loop: Code nodes and long expressions run in worker threads of their own.

User code runs in a pool of :func:`configure_workers` threads (``WEFT_CODE_WORKERS``, 5 by default, as n8n's
``N8N_RUNNERS_MAX_CONCURRENCY``), not in asyncio's default executor, which the database calls use: code that
spins until its time limit never delays a query. When all workers are busy, the next run waits for one, as a
task waits for n8n's task runner.


Node code reads its parameters synchronously (``ctx.get_node_parameter``), and most expressions take a few
microseconds, so they are evaluated right there, on the event loop. One that runs longer than
:data:`LOOP_BUDGET_S` must not hold the loop (a ``while (true) {}`` in a Set field would block every other request
of the server for the whole time limit). The engine runs each node's ``execute`` through :func:`drive`: the
coroutine is stepped inside a greenlet, so a synchronous call deep inside it can hand a function to
:func:`run_off_loop`, which suspends the node run (not the loop) until a worker thread has run the function.
The evaluator uses it to evaluate such an expression again in a worker, with the full time limit; evaluations
have no effect outside the sandbox, so running one again is safe.

This is the trick SQLAlchemy's asyncio layer uses (``greenlet_spawn``/``await_only``) to let synchronous code
await. Outside :func:`drive` (tests, previews, the CLI's helpers) :func:`can_offload` is false and expressions
simply run with their full limit where they are.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
import time
from collections.abc import Callable, Coroutine, Generator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import greenlet

T = TypeVar("T")

#: How long an expression may run on the event loop before it is moved to a worker thread.
LOOP_BUDGET_S = 0.02


#: Worker threads for user code (``WEFT_CODE_WORKERS``).
DEFAULT_WORKERS = 5

_workers = DEFAULT_WORKERS
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def configure_workers(count: int) -> None:
    """Set how many threads run user code at once (takes effect for a pool not yet started)."""
    global _workers, _pool
    if count < 1:
        raise ValueError(f"WEFT_CODE_WORKERS must be at least 1, not {count}")
    with _pool_lock:
        if count != _workers and _pool is not None:
            _pool.shutdown(wait=False)
            _pool = None
        _workers = count


def _user_code_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=_workers, thread_name_prefix="weft-code")
        return _pool


async def run_in_worker(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a user-code worker thread (with the caller's context variables), the loop going on."""
    call = functools.partial(contextvars.copy_context().run, fn, *args)
    return await asyncio.get_running_loop().run_in_executor(_user_code_pool(), call)


#: How long a node run may hold the event loop before :func:`cooperate` lets other work run.
SLICE_S = 0.01


class _Driver(greenlet.greenlet):  # type: ignore[misc]
    """The greenlet a node run's coroutine is stepped in."""

    slice_started = 0.0
    """When the node run last got the event loop (``time.perf_counter``), for :func:`cooperate`."""


@dataclass(frozen=True, slots=True)
class _OffLoop:
    """Sent by the node run to its driver: run ``fn`` in a worker thread and send back its result."""

    fn: Callable[[], Any]


@dataclass(frozen=True, slots=True)
class _Yielded:
    """Sent by the node run to its driver: the coroutine yielded this to the event loop."""

    value: Any


class _Reyield:
    """Yields one value to the task that runs :func:`drive`, as the driven coroutine yielded it."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __await__(self) -> Generator[Any, Any, Any]:
        return (yield self.value)


@dataclass(frozen=True, slots=True)
class _Finished:
    """Sent by a driver when its coroutine returned."""

    value: Any


@dataclass(frozen=True, slots=True)
class _Failed:
    """Sent by a driver when its coroutine raised."""

    error: BaseException


def _step(coro: Coroutine[Any, Any, T]) -> T:
    """Inside the driver greenlet: step ``coro``, passing each value it yields up to :func:`drive`."""
    parent = greenlet.getcurrent().parent
    value: Any = None
    error: BaseException | None = None
    while True:
        try:
            yielded = coro.send(value) if error is None else coro.throw(error)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        value, error = parent.switch(_Yielded(yielded))


def _serve(coro: Coroutine[Any, Any, Any]) -> None:
    """A driver's life: run one coroutine after another (creating a greenlet costs 20 times a switch)."""
    while True:
        try:
            outcome: _Finished | _Failed = _Finished(_step(coro))
        except greenlet.GreenletExit:
            raise
        except BaseException as exc:  # handed to the awaiting drive(), which raises it
            outcome = _Failed(exc)
        coro = greenlet.getcurrent().parent.switch(outcome)


class _Idle(threading.local):
    drivers: list[_Driver]

    def __init__(self) -> None:
        self.drivers = []


_idle = _Idle()
_MAX_IDLE = 32


async def drive(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` so that synchronous code inside it may call :func:`run_off_loop`."""
    here = greenlet.getcurrent()
    driver = _idle.drivers.pop() if _idle.drivers else _Driver(_serve)
    driver.parent = here
    driver.gr_context = here.gr_context  # the task's context variables, as if awaited here
    driver.slice_started = time.perf_counter()
    message = driver.switch(coro)
    while not isinstance(message, _Finished | _Failed):
        try:
            if isinstance(message, _OffLoop):
                value = await run_in_worker(message.fn)
            else:
                value = await _Reyield(message.value)
        except BaseException as exc:  # cancellation, or the worker's error: raised where the node run waits
            driver.slice_started = time.perf_counter()
            message = driver.switch(None, exc)
        else:
            driver.slice_started = time.perf_counter()
            message = driver.switch(value, None)
    if len(_idle.drivers) < _MAX_IDLE:
        _idle.drivers.append(driver)
    if isinstance(message, _Failed):
        raise message.error
    return message.value  # type: ignore[no-any-return]


def can_offload() -> bool:
    """Whether the caller runs inside :func:`drive` on the event loop's thread, so :func:`run_off_loop` works."""
    return isinstance(greenlet.getcurrent(), _Driver)


def cooperate() -> None:
    """Let the event loop serve other work when this node run has held it for :data:`SLICE_S`.

    Synchronous per-item code (Set, If, Split Out over 300,000 items) never awaits; called in its loops, this
    suspends the node run for one turn of the loop, as ``await asyncio.sleep(0)`` would, so that other requests
    are answered meanwhile. Costs one clock read otherwise; does nothing outside :func:`drive`. A cancellation of
    the node run is raised here."""
    current = greenlet.getcurrent()
    if not isinstance(current, _Driver) or time.perf_counter() - current.slice_started < SLICE_S:
        return
    _, error = current.parent.switch(_Yielded(None))  # a bare yield: the task runs again on the next turn
    if error is not None:
        raise error


def run_off_loop(fn: Callable[[], T]) -> T:
    """Run ``fn`` in a worker thread while the event loop goes on; only inside :func:`drive` (see
    :func:`can_offload`). Its exception, or a cancellation of the node run, is raised here."""
    current = greenlet.getcurrent()
    if not isinstance(current, _Driver):
        raise RuntimeError("run_off_loop() needs a node run driven by weft.expressions.offload.drive()")
    value, error = current.parent.switch(_OffLoop(fn))
    if error is not None:
        raise error
    return value  # type: ignore[no-any-return]


__all__ = [
    "DEFAULT_WORKERS",
    "LOOP_BUDGET_S",
    "can_offload",
    "configure_workers",
    "cooperate",
    "drive",
    "run_in_worker",
    "run_off_loop",
]
