"""n8n's ``displayParameter`` (``n8n-workflow`` ``node-helpers``): whether a property is shown for the node's values.

A declarative node builds its request only from the properties shown (an operation's fields, a collection's chosen
options), so the decision must be n8n's exactly: ``show`` rules must all hold, any ``hide`` rule hides; a value
that is an expression shows the property; ``/name`` reads the root; ``@version`` is the node's ``typeVersion``;
conditions are values or ``{"_cnd": {op: target}}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from weft.nodes.routing.paths import UNDEFINED, get_path


def property_values(values: Any, name: str, version: float, type_name: str, root: Any) -> list[Any]:
    """n8n's ``getPropertyValues``: the values a ``displayOptions`` key refers to (a list: a value may be one)."""
    if name.startswith("/"):
        value = get_path(root, name[1:])
    elif name == "@version":
        value = version or 0
    elif name == "@tool":
        value = type_name.endswith("Tool")
    elif name == "@feature":
        return []
    else:
        value = get_path(values, name)
    if isinstance(value, Mapping) and value.get("__rl"):
        value = value.get("value", UNDEFINED)
    return list(value) if isinstance(value, list) else [value]


def check_conditions(conditions: Sequence[Any], values: list[Any]) -> bool:
    """n8n's ``checkConditions``: any condition holds for the values."""
    for condition in conditions:
        if isinstance(condition, Mapping) and len(condition) == 1 and isinstance(condition.get("_cnd"), Mapping):
            (key, target), *_ = condition["_cnd"].items()
            if not values:
                if key == "not":
                    return True
                continue
            if all(_holds(key, value, target) for value in values):
                return True
        elif any(_same(condition, value) for value in values):
            return True
    return False


def _same(a: Any, b: Any) -> bool:
    """``Array.prototype.includes``: strict equality (``1 == True`` is false in JavaScript)."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


_ORDER = {"gte": lambda v, t: v >= t, "lte": lambda v, t: v <= t, "gt": lambda v, t: v > t, "lt": lambda v, t: v < t}


def _holds(key: str, value: Any, target: Any) -> bool:
    try:
        if key == "eq":
            return _same(value, target)
        if key == "not":
            return not _same(value, target)
        if key in _ORDER:
            return bool(_ORDER[key](value, target))
        if key == "between":
            return bool(target["from"] <= value <= target["to"])
        if not isinstance(value, str):
            return key == "exists" and value is not UNDEFINED and value is not None
        if key == "includes":
            return target in value
        if key == "startsWith":
            return value.startswith(target)
        if key == "endsWith":
            return value.endswith(target)
        if key == "regex":
            return re.search(target, value) is not None
        if key == "exists":
            return value != ""
    except (TypeError, KeyError, re.error):
        return False
    return False


def display_parameter(values: Any, prop: Mapping[str, Any], version: float, type_name: str, root: Any = None) -> bool:
    """Whether ``prop`` is shown for ``values`` (its level's values; ``root``: the node's, for ``/name`` keys)."""
    options = prop.get("displayOptions")
    if not options:
        return True
    root = values if root is None else root
    for name, conditions in (options.get("show") or {}).items():
        found = property_values(values, name, version, type_name, root)
        if any(isinstance(v, str) and v.startswith("=") for v in found):
            return True
        if not check_conditions(conditions, found):
            return False
    for name, conditions in (options.get("hide") or {}).items():
        found = property_values(values, name, version, type_name, root)
        if found and check_conditions(conditions, found):
            return False
    return True


__all__ = ["check_conditions", "display_parameter", "property_values"]
