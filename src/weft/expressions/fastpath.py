"""The Python fast path: plain ``$json`` lookups evaluated without entering JavaScript.

``{{ $json.a.b }}``, ``{{ $json["x"] }}``, ``{{ $json.list[0] }}`` and ``{{ $json.list.length }}`` (and templates
made of such segments and text) give the same values as the JavaScript path. Whenever the lookup would do anything
JavaScript might do differently (a missing key, a non-JSON value, a number JavaScript cannot represent), the fast path
declines and the expression goes to the sandbox. Templates are compiled for it by
:mod:`weft.expressions.fastops`, which adds operators over such lookups.
"""

from __future__ import annotations

import copy
import re
from typing import Any

#: Returned when the fast path declines.
DECLINE: Any = object()

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_STEP = re.compile(rf"""\s*(?:\.\s*({_IDENT})|\[\s*(?:"([^"\\]*)"|'([^'\\]*)'|(\d+))\s*\])""")
_HEAD = re.compile(r"\$json\b")
_MAX_SAFE = 2**53

Path = tuple[str | int, ...]


def parse_path(code: str) -> Path | None:
    """The lookup path of ``$json…`` code, or ``None`` if the code is anything else."""
    head = _HEAD.match(code)
    if head is None:
        return None
    pos = head.end()
    steps: list[str | int] = []
    while pos < len(code):
        m = _STEP.match(code, pos)
        if m is None:
            return None
        ident, dq, sq, index = m.groups()
        if index is not None:
            steps.append(int(index))
        else:
            steps.append(ident if ident is not None else (dq if dq is not None else sq))
        pos = m.end()
    return tuple(steps)


def lookup(items: list[Any], item_index: int, path: Path) -> Any:
    """The value at ``path`` in the item's json, or :data:`DECLINE`."""
    value = value_at(items, item_index, path)
    return value if value is DECLINE else _as_js(value)


def value_at(items: list[Any], item_index: int, path: Path) -> Any:
    """The item's json at ``path`` as stored (``length`` of an array or a string last: JavaScript's), or
    :data:`DECLINE` where JavaScript might see something else (a missing key, ``__proto__``)."""
    if item_index >= len(items) or item_index < 0:
        return DECLINE
    value: Any = items[item_index].get("json")
    last = len(path) - 1
    for position, step in enumerate(path):
        if type(step) is int:
            if type(value) is not list or step >= len(value):
                return DECLINE
        elif step == "length" and position == last and type(value) in (list, str):
            return js_length(value)
        elif type(value) is not dict or step not in value or step == "__proto__":
            return DECLINE
        value = value[step]
    return value


def js_length(value: list[Any] | str) -> int:
    """JavaScript's ``length`` of an array or a string (UTF-16 code units: an emoji counts 2)."""
    if isinstance(value, list) or value.isascii():
        return len(value)
    return len(value.encode("utf-16-le")) // 2


def _as_js(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is int:
        return value if -_MAX_SAFE < value < _MAX_SAFE else DECLINE
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            return DECLINE
        return int(value) if value.is_integer() and abs(value) < _MAX_SAFE else value
    if kind is dict or kind is list:
        return _plain_copy(value)
    return DECLINE


def _plain_copy(value: Any) -> Any:
    """A deep copy, declining containers holding values JSON would change (floats like 2.0, big ints)."""
    for leaf in _leaves(value):
        kind = type(leaf)
        if kind is float or (kind is int and not -_MAX_SAFE < leaf < _MAX_SAFE):
            return DECLINE
        if not (kind in (str, int, bool) or leaf is None):
            return DECLINE
    return copy.deepcopy(value)


def _leaves(value: Any) -> Any:
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is dict:
            if not all(type(k) is str for k in v):
                yield object()
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)
        else:
            yield v
