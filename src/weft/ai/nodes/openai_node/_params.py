"""Reading the OpenAI node's parameters as n8n's operations read them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext


def model_id(ctx: ExecuteContext, item_index: int, default: str = "") -> str:
    """The ``modelId`` resource locator's value; an empty one is an error naming the parameter."""
    value = ctx.get_node_parameter("modelId", item_index, default, extract_value=True)
    if isinstance(value, Mapping):
        value = value.get("value")
    name = str(value or "").strip()
    if not name:
        raise NodeOperationError(
            ctx.node.name, "No model is set", description="Choose a model in the node's 'Model' parameter."
        )
    return name


def options(ctx: ExecuteContext, item_index: int) -> dict[str, Any]:
    value = ctx.get_node_parameter("options", item_index, {})
    return dict(value) if isinstance(value, Mapping) else {}


def collection_values(ctx: ExecuteContext, name: str, item_index: int, default: list[Any]) -> list[dict[str, Any]]:
    """The ``values`` entries of the fixed collection ``name`` (its n8n default when the parameter is not set)."""
    value = ctx.get_node_parameter(name, item_index, {"values": default})
    entries = value.get("values") if isinstance(value, Mapping) else None
    if not isinstance(entries, list):
        return []  # n8n's getNodeParameter('<name>.values', i, [])
    return [dict(entry) for entry in entries if isinstance(entry, Mapping)]


def require_prompt(ctx: ExecuteContext, item_index: int, texts: list[Any]) -> None:
    """n8n 2.41's check: at least one of ``texts`` is a string that is not blank."""
    if not any(isinstance(text, str) and text.strip() for text in texts):
        raise NodeOperationError(ctx.node.name, "A non-empty prompt is required.", item_index=item_index)


def without_none(body: Mapping[str, Any]) -> dict[str, Any]:
    """The body as ``JSON.stringify`` sends it: ``undefined`` entries left out."""
    return {key: value for key, value in body.items() if value is not None}


__all__ = ["collection_values", "model_id", "options", "require_prompt", "without_none"]
