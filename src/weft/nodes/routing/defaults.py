"""n8n's ``getNodeParameters`` with defaults (what n8n's ``Workflow`` does to every node's parameters on load):
the node's values plus the default of each shown property it leaves out, hidden values dropped.

A declarative node depends on it: an exported workflow omits parameters at their default (``resource``,
``operation``, ``simplify``), yet the operation chosen by default must still route the request, and
``$parameter.simplify`` must read ``true``. Collections keep only the options set; a ``fixedCollection``'s
entries get their fields' defaults.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from weft.nodes.routing.display import display_parameter

Property = Mapping[str, Any]
_SIMPLE_DEFAULTED = ("boolean", "number", "options")


@dataclass(frozen=True, kw_only=True)
class _Pass:
    version: float
    type_name: str
    only_simple: bool = False
    resolved: bool = False
    """``dataIsResolved``: the display check reads the values resolved so far."""
    show_hidden: bool = False
    """``returnNoneDisplayed``."""
    parent_type: str | None = None


def node_parameters_with_defaults(
    properties: Sequence[Property], values: Mapping[str, Any], version: float, type_name: str
) -> dict[str, Any]:
    """The node's parameters as n8n's workflow holds them (``getNodeParameters(…, returnDefaults=true)``)."""
    return _parameters(properties, values, _Pass(version=version, type_name=type_name), None)


def _dependencies(properties: Sequence[Property]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for prop in properties:
        names = found.setdefault(str(prop.get("name")), [])
        for rule in (prop.get("displayOptions") or {}).values():
            if isinstance(rule, Mapping):
                names.extend(k for k in rule if not k.startswith("@") and k not in names)
    return found


def _resolve_order(properties: Sequence[Property], dependencies: dict[str, list[str]]) -> list[int]:
    """n8n's ``getParameterResolveOrder``: properties after those their ``displayOptions`` read."""
    order: list[int] = []
    pending = list(range(len(properties)))
    resolved: set[str] = set()
    last_length, last_reduction, iterations = len(pending), -1, 0
    while pending:
        iterations += 1
        index = pending.pop(0)
        name = str(properties[index].get("name"))
        waiting = [d for d in dependencies[name] if d not in resolved and d in dependencies]
        if waiting:
            pending.append(index)  # n8n pushes it back and still adds it (its loop has no early exit)
        order.append(index)
        resolved.add(name)
        if len(pending) < last_length:
            last_reduction = iterations
        if iterations > last_reduction + len(properties):  # n8n throws; a description bug, not the user's
            break
        last_length = len(pending)
    return order


def _parameters(
    properties: Sequence[Property], values: Any, run: _Pass, root: Mapping[str, Any] | None
) -> dict[str, Any]:
    values = values if isinstance(values, Mapping) else {}
    dependencies = _dependencies(properties)
    names = [str(p.get("name")) for p in properties]
    duplicates = {n for n in names if names.count(n) > 1}
    out: dict[str, Any] = {}
    full: dict[str, Any] = {}
    check: Mapping[str, Any] = full
    if not run.resolved and not run.show_hidden:
        simple = _Pass(version=run.version, type_name=run.type_name, only_simple=True, resolved=True, show_hidden=True)
        check = _parameters(properties, values, _replace_parent(simple, run.parent_type), root)
    root = root if root is not None else check
    for index in _resolve_order(properties, dependencies):
        prop = properties[index]
        name = str(prop.get("name"))
        if name not in values and run.parent_type == "collection":
            continue
        if not run.show_hidden and not display_parameter(check, prop, run.version, run.type_name, root):
            continue
        kind = prop.get("type")
        if kind not in ("collection", "fixedCollection"):
            if name in duplicates and not display_parameter(check, prop, run.version, run.type_name, root):
                continue
            out[name] = full[name] = _simple_value(prop, values)
        if run.only_simple or kind not in ("collection", "fixedCollection"):
            continue
        value = _complex_value(prop, values, run, root)
        if value is not _SKIP:
            out[name] = full[name] = value
    return out


def _replace_parent(run: _Pass, parent_type: str | None) -> _Pass:
    return _Pass(
        version=run.version,
        type_name=run.type_name,
        only_simple=run.only_simple,
        resolved=run.resolved,
        show_hidden=run.show_hidden,
        parent_type=parent_type,
    )


def _simple_value(prop: Property, values: Mapping[str, Any]) -> Any:
    name, kind, default = str(prop.get("name")), prop.get("type"), prop.get("default")
    given = name in values
    if kind in _SIMPLE_DEFAULTED:
        return copy.deepcopy(values[name]) if given else default
    if kind == "resourceLocator" and isinstance(default, Mapping):
        return copy.deepcopy(values[name]) if given else {"__rl": True, **default}
    if kind == "filter" and given and isinstance(values[name], Mapping):
        value = copy.deepcopy(dict(values[name]))
        value.setdefault("combinator", "and")
        options = {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 1}
        value["options"] = {**options, **(value.get("options") or {})}
        return value
    found: Any = values.get(name)
    return default if found is None else copy.deepcopy(found)


_SKIP: Any = object()


def _complex_value(prop: Property, values: Mapping[str, Any], run: _Pass, root: Mapping[str, Any]) -> Any:
    name = str(prop.get("name"))
    multiple = bool((prop.get("typeOptions") or {}).get("multipleValues"))
    if prop.get("type") == "collection":
        if multiple:
            if name in values:
                return copy.deepcopy(values[name])
            return copy.deepcopy(prop.get("default")) if isinstance(prop.get("default"), list) else []
        if name in values:
            inner = _replace_parent(run, "collection")
            return _parameters(prop.get("options") or [], values[name], _unresolved(inner), root)
        return copy.deepcopy(prop.get("default"))
    given: Any = copy.deepcopy(values[name]) if name in values else copy.deepcopy(prop.get("default"))
    collection: dict[str, Any] = {}
    for item_name in list(given) if isinstance(given, Mapping) else []:
        option = next((o for o in prop.get("options") or [] if o.get("name") == item_name), None)
        if option is None:
            continue
        inner = _unresolved(_replace_parent(run, "fixedCollection"))
        if multiple:
            entries = given[item_name] if isinstance(given[item_name], list) else []
            collection[item_name] = [_parameters(option.get("values") or [], e, inner, root) for e in entries]
        else:
            found = _parameters(option.get("values") or [], given[item_name], inner, root)
            if found:
                collection[item_name] = found
    return collection


def _unresolved(run: _Pass) -> _Pass:
    return _Pass(version=run.version, type_name=run.type_name, parent_type=run.parent_type)


__all__ = ["node_parameters_with_defaults"]
