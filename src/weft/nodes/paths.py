"""lodash-style paths on item json: ``get``, ``set``, ``unset`` with n8n's ``disableDotNotation`` switch.

A key that exists as written (``"a.b"``) wins over the dotted reading, as in lodash. The setters copy every
container they walk through, so the input item they started from is never changed.
"""

from __future__ import annotations

import re
from typing import Any

_PATH_TOKEN = re.compile(r"""\[(-?\d+)\]|\[(["'])(.*?)\2\]|([^.\[\]]+)""")


def to_path(path: str) -> list[str]:
    """lodash ``toPath``: ``a.b[0]["c"]`` → ``["a", "b", "0", "c"]``."""
    parts: list[str] = []
    for match in _PATH_TOKEN.finditer(path):
        index, _, quoted, plain = match.groups()
        parts.append(index if index is not None else quoted if quoted is not None else plain)
    return parts


def _is_direct_key(container: Any, path: str) -> bool:
    return isinstance(container, dict) and path in container


def get_path(data: Any, path: str, *, dot_notation: bool = True, default: Any = None) -> Any:
    """lodash ``get`` (a key that exists as written wins over the dotted reading); plain lookup without dots."""
    if not dot_notation or _is_direct_key(data, path) or ("." not in path and "[" not in path):
        return data.get(path, default) if isinstance(data, dict) else default
    current = data
    for part in to_path(path):
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, list) and _is_index(part) and int(part) < len(current):
            current = current[int(part)]
        else:
            return default
    return current


def has_path(data: Any, path: str, *, dot_notation: bool = True) -> bool:
    marker = object()
    return get_path(data, path, dot_notation=dot_notation, default=marker) is not marker


def _is_index(part: str) -> bool:
    return part.isdigit()


def _copy_container(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    return value


def set_path(data: dict[str, Any], path: str, value: Any, *, dot_notation: bool = True) -> None:
    """lodash ``set`` on ``data`` (which the caller owns); nested containers are copied, never changed in place."""
    if not dot_notation or path in data or ("." not in path and "[" not in path):
        data[path] = value
        return
    parts = to_path(path)
    if not parts:
        data[path] = value
        return
    current: Any = data
    for index, part in enumerate(parts[:-1]):
        child = _child(current, part)
        if isinstance(child, dict | list):
            child = _copy_container(child)
        else:
            child = [] if _is_index(parts[index + 1]) else {}
        _assign(current, part, child)
        current = child
    _assign(current, parts[-1], value)


def _child(container: Any, part: str) -> Any:
    if isinstance(container, dict):
        return container.get(part)
    if isinstance(container, list) and _is_index(part) and int(part) < len(container):
        return container[int(part)]
    return None


def _assign(container: Any, part: str, value: Any) -> None:
    if isinstance(container, list) and _is_index(part):
        position = int(part)
        while len(container) <= position:
            container.append(None)
        container[position] = value
    elif isinstance(container, dict):
        container[part] = value


def unset_path(data: dict[str, Any], path: str, *, dot_notation: bool = True) -> None:
    """lodash ``unset`` on ``data`` (which the caller owns), copying the containers on the way."""
    if not dot_notation or path in data or ("." not in path and "[" not in path):
        data.pop(path, None)
        return
    parts = to_path(path)
    current: Any = data
    for part in parts[:-1]:
        child = _child(current, part)
        if not isinstance(child, dict | list):
            return
        child = _copy_container(child)
        _assign(current, part, child)
        current = child
    if isinstance(current, dict):
        current.pop(parts[-1], None)
