"""n8n-workflow's parameter type checks (``assertParamIsString``, ``assertParamIsOfAnyTypes``,
``validateNodeParameters``) with their messages, on JavaScript's ``typeof``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError


def js_type(value: Any) -> str:
    """JavaScript's ``typeof`` of a JSON value."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "undefined" if value is None else "object"


def _fits(value: Any, kind: str) -> bool:
    if kind.endswith("[]"):
        element = kind[:-2] if kind[:-2] in ("string", "number", "boolean") else "string"
        return isinstance(value, list) and all(js_type(entry) == element for entry in value)
    return js_type(value) == kind


def assert_type(node: str, name: str, value: Any, *kinds: str, item_index: int = 0) -> None:
    """``assertParamIsString`` (one kind) or ``assertParamIsOfAnyTypes`` (several)."""
    if any(js_type(value) == kind for kind in kinds):
        return
    message = (
        f'Parameter "{name}" is not {kinds[0]}'
        if len(kinds) == 1
        else f'Parameter "{name}" must be {" or ".join(kinds)}'
    )
    raise NodeOperationError(node, message, item_index=item_index)


def validate(node: str, value: Any, types: Mapping[str, tuple[str, ...]], item_index: int = 0) -> dict[str, Any]:
    """``validateNodeParameters``: each present key of ``value`` must fit one of its types."""
    if not isinstance(value, dict):
        raise NodeOperationError(node, "Value is not a valid object", item_index=item_index)
    for key, kinds in types.items():
        if key in value and value[key] is not None and not any(_fits(value[key], kind) for kind in kinds):
            message = f'Parameter "{key}" does not match any of the expected types: {" or ".join(kinds)}'
            raise NodeOperationError(node, message, item_index=item_index)
    return value


__all__ = ["assert_type", "js_type", "validate"]
