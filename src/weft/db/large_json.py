"""The JSON text of large run data, made in a worker thread in slices, so the event loop goes on meanwhile.

An execution of 300,000 items stores some 25 MB of run data. ``json.dumps`` makes it in one call of C code that
holds the interpreter lock for about two seconds, whatever thread it runs in: every other request of the process
waits. :func:`dumps_in_slices` makes exactly the same text (:func:`weft.db.base.dumps`) from many short calls:
it walks the top of the value in Python and encodes long lists a slice at a time, each slice about
:data:`SLICE_CHARS` characters of text (sized from the elements encoded before it). Between two calls the thread
may hand the lock to the event loop.

:func:`dumps_off_loop` is what the save path uses: ``None`` for small data (:func:`is_large` is false; the
repository encodes it inline, the fastest for the many small executions), else the text, made in a thread.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

#: Containers plus elements from which run data counts as large (encoding it takes some milliseconds).
LARGE_VALUES = 10_000
#: About how many characters of JSON one call of the C encoder makes (a few milliseconds of work).
SLICE_CHARS = 1 << 18
#: How many levels :func:`dumps_in_slices` walks in Python; deeper values are encoded in one call.
MAX_WALK_DEPTH = 48

_CONTAINERS = (dict, list, tuple)
_EXACT = frozenset(_CONTAINERS)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_encode = _ENCODER.encode


def is_large(value: Any, budget: int = LARGE_VALUES) -> bool:
    """Whether ``value`` has more than ``budget`` containers and elements (stops counting there: cheap).

    Called on every save: the exact types (JSON's) are tested first, subclasses after them."""
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        current = pop()
        kind = type(current)
        if kind is dict or (kind is not list and isinstance(current, dict)):
            children: Any = current.values()
        elif kind is list or isinstance(current, list | tuple):
            children = current
        else:
            continue
        budget -= len(current) + 1
        if budget < 0:
            return True
        for child in children:
            if type(child) in _EXACT or isinstance(child, _CONTAINERS):
                push(child)
    return False


async def dumps_off_loop(value: Any, budget: int = LARGE_VALUES) -> str | None:
    """The JSON text of ``value`` made in a worker thread (:func:`dumps_in_slices`); ``None`` when it is small.

    A cancellation that arrives meanwhile (the execution is stopped or times out while it is being saved) waits
    for the text, which is returned, and reaches the caller at its next ``await``: the save goes through as it
    did when the data was encoded on the event loop, where nothing could interrupt it."""
    if not is_large(value, budget):
        return None
    work = asyncio.ensure_future(asyncio.to_thread(dumps_in_slices, value))
    cancelled = False
    while True:
        try:
            text = await asyncio.shield(work)
            break
        except asyncio.CancelledError:
            if work.cancelled():  # the loop is shutting down
                raise
            cancelled = True
    if cancelled:
        task = asyncio.current_task()
        if task is not None:
            task.cancel()
    return text


def dumps_in_slices(value: Any) -> str:
    """The text :func:`weft.db.base.dumps` makes of ``value``, from many short calls of the C encoder."""
    parts: list[str] = []
    _write(value, parts, 0)
    return "".join(parts)


def _write(value: Any, parts: list[str], depth: int) -> None:
    if depth < MAX_WALK_DEPTH:
        if isinstance(value, dict) and all(type(key) is str for key in value):  # other keys: as the C encoder does
            _write_dict(value, parts, depth + 1)
            return
        if isinstance(value, list | tuple) and value:
            _write_list(value, parts, depth + 1)
            return
    parts.append(_encode(value))


def _write_dict(value: dict[str, Any], parts: list[str], depth: int) -> None:
    parts.append("{")
    separator = ""
    for key, child in value.items():
        parts.append(separator + _encode(key) + ":")
        separator = ","
        _write(child, parts, depth)
    parts.append("}")


def _write_list(value: list[Any] | tuple[Any, ...], parts: list[str], depth: int) -> None:
    """The first element is walked (its size is learnt), the next ones encoded by slices sized from what came
    before; a slice grows at most fourfold, and elements too large for a slice of two are walked one by one."""
    parts.append("[")
    index, count, step = 0, len(value), 1
    while index < count:
        if index:
            parts.append(",")
        if step == 1:
            before = len(parts)
            _write(value[index], parts, depth)
            size = sum(map(len, parts[before:]))
            index += 1
        else:
            taken = value[index : index + step]
            text = _encode(taken)
            parts.append(text[1:-1])
            size = (len(text) - 2) // len(taken)
            index += len(taken)
        step = max(1, min(SLICE_CHARS // max(size, 1), step * 4))
    parts.append("]")


__all__ = ["LARGE_VALUES", "SLICE_CHARS", "dumps_in_slices", "dumps_off_loop", "is_large"]
