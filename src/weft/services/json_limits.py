"""Limits on the JSON Weft accepts from outside (request bodies, files): nesting depth, readable text.

A body nested deeper than ``WEFT_JSON_DEPTH_MAX`` levels (900 by default) is refused with a clear message: deeper
data would exhaust the recursion limit later, when the execution holding it is saved, read or evaluated.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from weft.db.base import nesting_exceeds
from weft.errors import WeftError

DEFAULT_DEPTH_MAX = 900


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
    if len(text) > limit:  # fewer characters than levels cannot nest that deep
        check_depth(value, limit)
    return value


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
    "JsonTooDeepError",
    "UnreadableFileError",
    "check_depth",
    "loads",
    "read_json_file",
]
