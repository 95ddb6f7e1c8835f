"""lodash's ``get`` and ``set`` over JSON values, as n8n's routing uses them (``profile.firstName``,
``values[0].name``): dotted names and ``[index]`` steps; ``set`` makes the objects (or, before an index, the
arrays) a path needs."""

from __future__ import annotations

import itertools
import re
from typing import Any

from weft.expressions import UNDEFINED

_STEP = re.compile(r"[^.[\]]+|\[(?:(\d+)|\"([^\"]*)\"|'([^']*)')\]")


def path_steps(path: str) -> list[str | int]:
    """``a.b[0]["c.d"]`` -> ``["a", "b", 0, "c.d"]`` (lodash's ``toPath``)."""
    steps: list[str | int] = []
    for match in _STEP.finditer(path):
        index, double, single = match.groups()
        if index is not None:
            steps.append(int(index))
        elif double is not None or single is not None:
            steps.append(double if double is not None else single)
        else:
            steps.append(match.group(0))
    return steps


def get_path(data: Any, path: str | list[str | int]) -> Any:
    """lodash ``get``: the value at ``path``, or :data:`UNDEFINED`."""
    if isinstance(path, str) and isinstance(data, dict) and path in data:
        return data[path]
    current = data
    for step in path_steps(path) if isinstance(path, str) else path:
        if isinstance(current, dict):
            key = str(step)
            if key not in current:
                return UNDEFINED
            current = current[key]
        elif isinstance(current, list) and (isinstance(step, int) or str(step).isdigit()):
            index = int(step)
            if index >= len(current):
                return UNDEFINED
            current = current[index]
        elif isinstance(current, str) and step == "length":
            return len(current)
        else:
            return UNDEFINED
    return current


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    """lodash ``set``: ``data`` with ``value`` at ``path``, making the containers on the way."""
    steps = path_steps(path)
    if not steps:
        return
    current: Any = data
    for step, following in itertools.pairwise(steps):
        child = _child(current, step)
        if not isinstance(child, dict | list):
            child = [] if isinstance(following, int) else {}
            _put(current, step, child)
        current = child
    _put(current, steps[-1], value)


def _child(container: Any, step: str | int) -> Any:
    if isinstance(container, list):
        index = int(step) if isinstance(step, int) or str(step).isdigit() else -1
        return container[index] if 0 <= index < len(container) else None
    return container.get(str(step)) if isinstance(container, dict) else None


def _put(container: Any, step: str | int, value: Any) -> None:
    if isinstance(container, list) and (isinstance(step, int) or str(step).isdigit()):
        index = int(step)
        while len(container) <= index:
            container.append(None)
        container[index] = value
    elif isinstance(container, dict):
        container[str(step)] = value


__all__ = ["UNDEFINED", "get_path", "path_steps", "set_path"]
