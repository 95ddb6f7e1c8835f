"""Whether a parameter a node reads is described by its n8n properties (:func:`described`).

A read path (``options.timeout``, ``rules.values.0.outputKey``, ``assignments.assignments``) is resolved through
the properties as n8n stores values: a top-level property by name; a ``collection``'s options are properties;
a ``fixedCollection``'s options are ``{name, values: [properties]}``; list indices are skipped. A path that goes
inside a value of one of n8n's structured types is accepted as far as that type's shape goes (a ``json`` value
is free-form). A property whose ``@version`` conditions leave out the ``typeVersion`` does not count; of the
others sharing a name, those the parameters show are tried first, as n8n's ``displayParameter`` decides
(``/root`` keys, defaults for missing values, ``_cnd`` operators).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Property = Mapping[str, Any]

#: The keys of n8n's structured values (``n8n-workflow`` ``interfaces.ts``), ``None``: any key below.
_ANY = None
_FILTER_CONDITION: dict[str, Any] = {
    "id": {},
    "leftValue": _ANY,
    "rightValue": _ANY,
    "operator": {"type": {}, "operation": {}, "rightType": {}, "singleValue": {}, "name": {}},
}
_FILTER_OPTIONS: dict[str, Any] = {"caseSensitive": {}, "leftValue": {}, "typeValidation": {}, "version": {}}
_LOCATOR: dict[str, Any] = {"__rl": {}, "mode": {}, "value": _ANY, "cachedResultName": {}, "cachedResultUrl": {}}
SHAPES: dict[str, Any] = {
    "json": _ANY,
    "assignmentCollection": {"assignments": {"id": {}, "name": {}, "value": _ANY, "type": {}}},
    "filter": {"options": _FILTER_OPTIONS, "conditions": _FILTER_CONDITION, "combinator": {}},
    "resourceLocator": _LOCATOR,
    "workflowSelector": _LOCATOR,  # a resource locator of workflows
    "resourceMapper": {
        "mappingMode": {},
        "value": _ANY,
        "matchingColumns": {},
        "schema": _ANY,
        "attemptToConvertTypes": {},
        "convertFieldsToString": {},
    },
    "fixedCollection": {},  # handled by its options
    "collection": {},
}
_INDEX = re.compile(r"\[(\d+)\]")


def path_parts(path: str) -> list[str]:
    """``fields.values[0].name`` -> ``["fields", "values", "name"]`` (list indices skipped)."""
    return [part for part in _INDEX.sub(r".\1", path).split(".") if part and not part.isdigit()]


def described(
    properties: Sequence[Property], path: str, version: float, parameters: Mapping[str, Any] | None = None
) -> bool:
    """Whether the read of ``path`` is described by ``properties`` (n8n ``INodeProperties``) at ``version``."""
    parts = path_parts(path)
    if not parts:
        return False
    context = _Display(version, parameters or {}, properties)
    return _resolve(properties, parts, context, context.root)


class _Display:
    """What ``displayOptions`` are evaluated against: the version, the root parameters and their defaults."""

    def __init__(self, version: float, parameters: Mapping[str, Any], properties: Sequence[Property]) -> None:
        self.version = version
        self.root = parameters
        self.properties = properties
        self._resolving: set[str] = set()

    def in_version(self, prop: Property) -> bool:
        """Whether the property exists at the version (its ``@version`` conditions, which nothing else decides)."""
        options = prop.get("displayOptions") or {}
        show, hide = options.get("show") or {}, options.get("hide") or {}
        if "@version" in show and not _check(show["@version"], [self.version]):
            return False
        return not ("@version" in hide and _check(hide["@version"], [self.version]))

    def shown(self, prop: Property, level: Mapping[str, Any], *, nested: bool = False) -> bool:
        """n8n's ``displayParameter``; a missing top-level value is its property's default, a missing nested one
        (whose default this does not follow) does not decide."""
        options = prop.get("displayOptions") or {}
        for key, conditions in (options.get("show") or {}).items():
            values = self._values(key, level, nested)
            if _ANY_VALUE in values or any(isinstance(v, str) and v.startswith("=") for v in values):
                continue
            if not _check(conditions, values):
                return False
        for key, conditions in (options.get("hide") or {}).items():
            values = self._values(key, level, nested)
            if values and _ANY_VALUE not in values and _check(conditions, values):
                return False
        return True

    def _values(self, key: str, level: Mapping[str, Any], nested: bool) -> list[Any]:
        if key == "@version":
            return [self.version]
        if key.startswith("@"):  # @tool, @feature: not known here
            return [_ANY_VALUE]
        at_root = key.startswith("/") or not nested
        name = key.removeprefix("/")
        found = _get(self.root if at_root else level, name)
        if found is _ABSENT:
            found = self._default(name) if at_root else _ANY_VALUE
        if isinstance(found, Mapping) and found.get("__rl"):
            found = found.get("value")
        return list(found) if isinstance(found, list) else [found]

    def _default(self, name: str) -> Any:
        """The default of the shown top-level property ``name`` (``None`` when none is shown, as n8n)."""
        if name in self._resolving:  # displayOptions that depend on each other in a circle
            return _ANY_VALUE
        self._resolving.add(name)
        try:
            for prop in self.properties:
                if prop.get("name") == name and self.shown(prop, self.root):
                    return prop.get("default")
            return None
        finally:
            self._resolving.discard(name)


class _Any:
    def __repr__(self) -> str:
        return "ANY"


_ANY_VALUE: Any = _Any()
_ABSENT: Any = object()


def _get(data: Any, path: str) -> Any:
    current = data
    for part in path.split("."):
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        else:
            return _ABSENT
    return current


def _check(conditions: Sequence[Any], values: list[Any]) -> bool:
    """n8n's ``checkConditions``: any condition holds (a ``{_cnd: {op: target}}`` for every value)."""
    for condition in conditions:
        if isinstance(condition, Mapping) and len(condition) == 1 and isinstance(condition.get("_cnd"), Mapping):
            (op, target), *_ = condition["_cnd"].items()
            if not values:
                if op == "not":
                    return True
                continue
            if all(_compare(op, value, target) for value in values):
                return True
        elif condition in values:
            return True
    return False


_ORDER = {"gte": operator.ge, "lte": operator.le, "gt": operator.gt, "lt": operator.lt}
_TEXT: dict[str, Callable[[str, Any], bool]] = {
    "includes": lambda text, target: target in text,
    "startsWith": lambda text, target: text.startswith(target),
    "endsWith": lambda text, target: text.endswith(target),
    "regex": lambda text, target: re.search(target, text) is not None,
}


def _compare(op: str, value: Any, target: Any) -> bool:
    """One ``_cnd`` operator of n8n's ``checkConditions``."""
    try:
        if op == "eq":
            return bool(value == target)
        if op == "not":
            return bool(value != target)
        if op in _ORDER:
            return bool(_ORDER[op](value, target))
        if op == "between":
            return bool(target["from"] <= value <= target["to"])
        if op in _TEXT:
            return isinstance(value, str) and bool(_TEXT[op](value, target))
        if op == "exists":
            return value not in (None, "")
    except (TypeError, KeyError, re.error):
        return False
    return False


def _resolve(properties: Sequence[Property], parts: list[str], context: _Display, level: Any) -> bool:
    """Whether ``parts`` resolve through one of the properties named ``parts[0]`` (shown ones first)."""
    named = [p for p in properties if p.get("name") == parts[0] and context.in_version(p)]
    values = level if isinstance(level, Mapping) else {}
    shown = [p for p in named if context.shown(p, values, nested=values is not context.root)]
    for prop in shown or named:
        if _inside(prop, parts[1:], context, values.get(parts[0])):
            return True
    return False


def _inside(prop: Property, rest: list[str], context: _Display, value: Any) -> bool:
    if not rest:
        return True
    kind = prop.get("type")
    if kind == "collection":
        return _resolve(prop.get("options") or [], rest, context, _first(value))
    if kind == "fixedCollection":
        for option in prop.get("options") or []:
            if option.get("name") == rest[0]:
                inner = _first(value).get(rest[0]) if isinstance(_first(value), Mapping) else None
                return len(rest) == 1 or _resolve(option.get("values") or [], rest[1:], context, _first(inner))
        return False
    return _shape_allows(SHAPES.get(str(kind), {}), rest)


def _first(value: Any) -> Any:
    """A list's first entry (the values of one index stand for all), else the value."""
    if isinstance(value, list):
        return value[0] if value else {}
    return value if value is not None else {}


def _shape_allows(shape: Any, rest: list[str]) -> bool:
    for part in rest:
        if shape is _ANY:
            return True
        if not isinstance(shape, Mapping) or part not in shape:
            return False
        shape = shape[part]
    return True


__all__ = ["SHAPES", "described", "path_parts"]
