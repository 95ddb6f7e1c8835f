"""The check LangChain makes before a structured tool runs inline: the model's arguments against its schema.

A call whose arguments do not match fails the agent with ``Received tool input did not match expected schema``
and zod's issues, each as ``✖ <message>\\n  → at <key>`` (n8n 2.41.1, recorded: case a124). The schemas checked
are the flat object schemas Weft builds for tools (``$fromAI()`` and toolHttpRequest arguments).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.workflow.jsjson import json_type

_JSON_MESSAGE = "Value must be a non-empty object or a non-empty array"


def _received(value: Any) -> str:
    """zod's name of the value's type (``nan`` for NaN)."""
    return "nan" if isinstance(value, float) and value != value else json_type(value)


def _issue(schema: Mapping[str, Any], required: bool, present: bool, value: Any) -> str | None:
    """zod's (v3) message for one argument, or ``None`` when it passes."""
    expected = schema.get("type")
    if not present:
        if not required:
            return None  # optional, or zod fills the default
        return _JSON_MESSAGE if expected is None else "Required"
    if expected is None:  # a $fromAI json argument: zod.custom
        return None if isinstance(value, dict | list) and len(value) > 0 else _JSON_MESSAGE
    received = _received(value)
    return None if received == expected else f"Expected {expected}, received {received}"


def tool_input_issues(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> list[str]:
    """The prettified issues of ``arguments`` against an object ``schema`` (empty when they match)."""
    required = set(schema.get("required") or ())
    issues = []
    for key, prop in (schema.get("properties") or {}).items():
        message = _issue(prop, key in required, key in arguments, arguments.get(key))
        if message is not None:
            issues.append(f"✖ {message}\n  → at {key}")
    return issues


def check_tool_input(agent_name: str, schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> None:
    """Raise the agent's error for arguments that do not match the tool's schema."""
    issues = tool_input_issues(schema, arguments)
    if issues:
        message = "Received tool input did not match expected schema\n\n" + "\n".join(issues)
        raise NodeOperationError(agent_name, message, description="Original error: ToolInputParsingException")


def parsed_tool_input(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as zod's parse returns them, what n8n runs the tool with and records as its input: the
    schema's properties in its order with their defaults filled in (recorded: case a111), then the others."""
    properties: Mapping[str, Any] = schema.get("properties") or {}
    out: dict[str, Any] = {}
    for key, prop in properties.items():
        if key in arguments:
            out[key] = arguments[key]
        elif isinstance(prop, Mapping) and "default" in prop:
            out[key] = prop["default"]
    return {**out, **{k: v for k, v in arguments.items() if k not in out}}


__all__ = ["check_tool_input", "parsed_tool_input", "tool_input_issues"]
