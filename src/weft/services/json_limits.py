"""Limits on the JSON Weft accepts from outside (request bodies, files): nesting depth, readable text.

A body nested deeper than ``WEFT_JSON_DEPTH_MAX`` levels (900 by default) is refused with a clear message: deeper
data would exhaust the recursion limit later, when the execution holding it is saved, read or evaluated.

A large body (:data:`OFF_LOOP_BYTES` or more) is parsed and checked in a worker thread by :func:`loads_off_loop`,
so that the event loop goes on serving other requests meanwhile: parsing 900,000 objects takes seconds. Its
parser calls back into Python for each object (:func:`_same`), which lets the thread hand the interpreter lock to
the event loop as often as the interpreter's switch interval asks (``json.loads`` alone would hold it throughout).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from weft.db.base import nesting_exceeds
from weft.errors import WeftError

DEFAULT_DEPTH_MAX = 900
#: Bodies of at least this many bytes are parsed off the event loop (smaller ones parse in well under 1 ms).
OFF_LOOP_BYTES = 64 * 1024


class JsonTooDeepError(WeftError):
    """The JSON is nested more deeply than the limit."""


def depth_message(limit: int) -> str:
    return f"The JSON is nested more than {limit} levels deep; the limit is WEFT_JSON_DEPTH_MAX={limit}."


def check_depth(value: Any, limit: int) -> None:
    """:class:`JsonTooDeepError` when arrays/objects in ``value`` nest deeper than ``limit`` (no recursion)."""
    if nesting_exceeds(value, limit):
        raise JsonTooDeepError(depth_message(limit))


def loads(text: str | bytes, limit: int = DEFAULT_DEPTH_MAX) -> Any:
    """``json.loads`` that refuses too deep input with :class:`JsonTooDeepError` (``JSONDecodeError`` as usual)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonTooDeepError(depth_message(limit)) from None
    if _may_nest_deeper(text, limit):
        check_depth(value, limit)
    return value


async def loads_off_loop(text: str | bytes, limit: int = DEFAULT_DEPTH_MAX) -> Any:
    """:func:`loads`, in a worker thread when ``text`` is large; the same value and the same errors."""
    if len(text) < OFF_LOOP_BYTES:
        return loads(text, limit)
    return await asyncio.to_thread(_loads_yielding, text, limit)


def _loads_yielding(text: str | bytes, limit: int) -> Any:
    try:
        value = json.loads(text, object_hook=_same)
    except RecursionError:
        raise JsonTooDeepError(depth_message(limit)) from None
    if _may_nest_deeper(text, limit):
        check_depth(value, limit)
    return value


def _same(value: dict[str, Any]) -> dict[str, Any]:
    """The parser's hook for each object: changes nothing, but is Python code, where a thread may be switched."""
    return value


def _may_nest_deeper(text: str | bytes, limit: int) -> bool:
    """False when ``text`` has too few ``[`` and ``{`` to nest more than ``limit`` levels (counted at C speed)."""
    if len(text) <= limit:
        return False
    if isinstance(text, bytes):
        return text.count(b"[") + text.count(b"{") > limit
    return text.count("[") + text.count("{") > limit


class UnreadableFileError(WeftError):
    """A file cannot be used: missing, a folder, not UTF-8, not JSON, or nested too deeply."""


def read_json_file(path: str | Path, *, what: str = "file", limit: int = DEFAULT_DEPTH_MAX) -> Any:
    """The JSON in ``path``, or :class:`UnreadableFileError` with a message that names the file and the problem."""
    source = Path(path)
    name = f"{what} {str(source)!r}"
    try:
        raw = source.read_bytes()
    except IsADirectoryError:
        raise UnreadableFileError(f"Cannot read {name}: it is a folder, not a file.") from None
    except FileNotFoundError:
        raise UnreadableFileError(f"Cannot read {name}: there is no such file.") from None
    except OSError as exc:
        raise UnreadableFileError(f"Cannot read {name}: {exc.strerror or exc}.") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(
            f"Cannot read {name}: it is not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x}). "
            "Save it as UTF-8 JSON."
        ) from None
    try:
        return loads(text, limit)
    except json.JSONDecodeError as exc:
        raise UnreadableFileError(
            f"The {name} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except JsonTooDeepError as exc:
        raise UnreadableFileError(f"Cannot read {name}: {exc.message}") from None


__all__ = [
    "DEFAULT_DEPTH_MAX",
    "OFF_LOOP_BYTES",
    "JsonTooDeepError",
    "UnreadableFileError",
    "check_depth",
    "loads",
    "loads_off_loop",
    "read_json_file",
]
