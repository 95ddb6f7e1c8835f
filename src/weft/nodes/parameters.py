"""Reading a node's parameter (n8n's ``getNodeParameter``): the value at a dotted path of the node's parameters,
else the node type's default, else the caller's default; its expressions evaluated for an item; a resource
locator unwrapped on request. The engine's contexts and Item Lists' delegated context read parameters here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.expressions import ExpressionContext, evaluate
from weft.nodes.contract import MISSING

ABSENT: Any = object()
"""What :func:`lookup_path` gives for a path that is not there."""


def lookup_path(data: Any, path: str) -> Any:
    """``data`` at dotted ``path`` (``options.systemMessage``, ``values.0.name``), or :data:`ABSENT`."""
    if path in data:
        return data[path]
    if "." not in path and type(data) is dict:  # a plain name that is not there
        return ABSENT
    current = data
    for part in path.split("."):
        if (type(current) is dict or isinstance(current, Mapping)) and part in current:
            current = current[part]
        elif isinstance(current, list) and part.isdigit() and int(part) < len(current):
            current = current[int(part)]
        else:
            return ABSENT
    return current


def node_parameter(
    node_name: str,
    parameters: Mapping[str, Any],
    defaults: Mapping[str, Any],
    name: str,
    item_index: int,
    default: Any,
    *,
    raw: bool,
    extract_value: bool,
    context: Callable[[], ExpressionContext],
) -> Any:
    """The parameter ``name`` (see the module docstring); a missing one without a default is an error naming it."""
    value = lookup_path(parameters, name)
    if value is ABSENT:
        value = defaults.get(name, ABSENT)
    if value is ABSENT:
        if default is MISSING:
            raise NodeOperationError(
                node_name,
                f"Could not get parameter {name!r}",
                description=f"Set the parameter {name!r} on node {node_name!r}.",
            )
        return default
    if not raw:
        value = evaluate(value, context(), item_index, parameter=name)
    if extract_value and isinstance(value, dict) and value.get("__rl"):
        value = value.get("value")
    return value


__all__ = ["ABSENT", "lookup_path", "node_parameter"]
