"""A validation failure worded as zod words it: the text n8n's auto-fixing parser puts in its ``{error}``.

n8n validates with zod and, when it asks a model to fix an answer, quotes the ``ZodError``'s message: its issues
as JSON, indented by two (``JSON.stringify(issues, null, 2)``). Weft validates with ``jsonschema``; this maps its
errors to zod's issues for the keywords zod has (types, required, enums, unknown keys, bounds), and words any
other as a ``custom`` issue.
"""

from __future__ import annotations

from typing import Any

import jsonschema

from weft.workflow.jsjson import json_type, pretty_json

_ZOD_TYPES = {"integer": "integer", "number": "number", "string": "string", "boolean": "boolean"}


def zod_message(errors: list[jsonschema.ValidationError]) -> str:
    """``ZodError.message`` for these errors."""
    issues = [issue for error in errors for issue in _issues(error)]
    return pretty_json(issues)


def _expected(schema: Any) -> str:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(kind, str):
        return _ZOD_TYPES.get(kind, kind)
    return "object" if isinstance(schema, dict) and "properties" in schema else "string"


def _issues(error: jsonschema.ValidationError) -> list[dict[str, Any]]:
    path = list(error.absolute_path)
    keyword, value, schema = error.validator, error.instance, error.schema
    if keyword == "type":
        expected = _expected(schema)
        received = json_type(value)
        if expected == "integer" and received == "number":
            received = "float"
        message = f"Expected {expected}, received {received}"
        return [{"code": "invalid_type", "expected": expected, "received": received, "path": path, "message": message}]
    if keyword == "required":
        missing = [name for name in error.validator_value if isinstance(value, dict) and name not in value]
        properties = schema.get("properties") or {}
        return [
            {
                "code": "invalid_type",
                "expected": _expected(properties.get(name)),
                "received": "undefined",
                "path": [*path, name],
                "message": "Required",
            }
            for name in missing
        ]
    if keyword == "enum":
        options = list(error.validator_value)
        expected = " | ".join(f"'{o}'" for o in options)
        return [
            {
                "received": value,
                "code": "invalid_enum_value",
                "options": options,
                "path": path,
                "message": f"Invalid enum value. Expected {expected}, received '{value}'",
            }
        ]
    if keyword == "additionalProperties" and error.validator_value is False and isinstance(value, dict):
        keys = [k for k in value if k not in (schema.get("properties") or {})]
        listed = ", ".join(f"'{k}'" for k in keys)
        return [
            {
                "code": "unrecognized_keys",
                "keys": keys,
                "path": path,
                "message": f"Unrecognized key(s) in object: {listed}",
            }
        ]
    return [{"code": "custom", "message": error.message, "path": path}]


__all__ = ["zod_message"]
