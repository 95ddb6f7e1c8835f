"""JSON Schemas for tool inputs: from a JSON example (n8n's ``generateSchemaFromExample``) or written by hand."""

from __future__ import annotations

import json
from typing import Any

from weft.errors import NodeOperationError


def schema_from_example(example: Any, *, all_required: bool) -> dict[str, Any]:
    """The schema of ``example``; from typeVersion 1.3 n8n makes every object property required (recursively).

    As n8n sends it after its round trip through zod: every number is ``number`` (``2`` too) and every object
    has ``additionalProperties: false`` (recorded: case a009).
    """
    if isinstance(example, bool):
        return {"type": "boolean"}
    if isinstance(example, int | float):
        return {"type": "number"}
    if isinstance(example, str):
        return {"type": "string"}
    if example is None:
        return {"type": "null"}
    if isinstance(example, list):
        return (
            {"type": "array", "items": schema_from_example(example[0], all_required=all_required)}
            if example
            else {"type": "array"}
        )
    properties = {k: schema_from_example(v, all_required=all_required) for k, v in dict(example).items()}
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if all_required and properties:
        schema["required"] = list(properties)
    schema["additionalProperties"] = False
    return schema


def closed_objects(schema: Any) -> Any:
    """``schema`` with ``additionalProperties: false`` on every object that does not say otherwise, as n8n's
    round trip through zod leaves a hand-written schema (recorded: case a042)."""
    if isinstance(schema, list):
        return [closed_objects(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: closed_objects(v) if k in _SUBSCHEMA_KEYS else v for k, v in schema.items()}
    if "properties" in out and isinstance(out["properties"], dict):
        out["properties"] = {k: closed_objects(v) for k, v in out["properties"].items()}
    if out.get("type") == "object" and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


_SUBSCHEMA_KEYS = frozenset({"items", "anyOf", "oneOf", "allOf", "not"})


def parse_json_parameter(node_name: str, parameter: str, value: Any) -> Any:
    """A parameter holding JSON text (or already parsed JSON)."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise NodeOperationError(
            node_name,
            f"The {parameter!r} parameter is not valid JSON ({exc.msg} at line {exc.lineno}).",
            description=f"Fix the JSON in {parameter!r}.",
        ) from None


__all__ = ["closed_objects", "parse_json_parameter", "schema_from_example"]
