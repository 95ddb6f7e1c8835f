"""A JSON Schema as n8n's model receives it, and a value as n8n's parser keeps it.

n8n turns a parser's JSON Schema into zod (``@n8n/json-schema-to-zod``) and LangChain turns the zod back into JSON
Schema (``zod-to-json-schema``) when it offers ``format_final_json_response`` to the model. The round trip
normalizes the schema: ``$schema`` and unknown keywords go, every object gets ``additionalProperties: false``
unless it has its own, an integer type becomes ``integer`` with its bounds, an enum of strings is typed.
:func:`offered_schema` is that round trip for the keywords the converters know.

zod also shapes the parsed value: an object without ``additionalProperties`` drops the keys its schema does not
name, and a missing property with a ``default`` gets it. :func:`shaped` does that after validation (which
:mod:`weft.ai.parsers.structured` leaves to the ``jsonschema`` library, on the full JSON Schema).
"""

from __future__ import annotations

from typing import Any

from weft.workflow.jsjson import json_type

DRAFT_07 = "http://json-schema.org/draft-07/schema#"

#: zod's string checks, as zod-to-json-schema writes them back.
_FORMATS = {"email", "uri", "uuid", "date-time", "date", "time", "duration", "ipv4", "ipv6"}
_KEPT = {
    "string": ("minLength", "maxLength", "pattern"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
    "integer": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
    "array": ("minItems", "maxItems"),
}


def offered_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The top-level schema the model gets: the round trip, with zod-to-json-schema's ``$schema`` last."""
    return {**_convert(schema), "$schema": DRAFT_07}


def _convert(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {}
    if "enum" in schema:
        out = _enum(schema["enum"])
    elif "const" in schema:
        out = {"type": json_type(schema["const"]), "const": schema["const"]}
    elif isinstance(schema.get("type"), list):
        out = {"anyOf": [_convert({**schema, "type": t}) for t in schema["type"]]}
        if all(set(part) == {"type"} for part in out["anyOf"]):
            out = {"type": [part["type"] for part in out["anyOf"]]}
    elif "anyOf" in schema or "oneOf" in schema:
        out = {"anyOf": [_convert(part) for part in schema.get("anyOf") or schema.get("oneOf") or []]}
    else:
        out = _typed(schema)
    if "default" in schema:
        out["default"] = schema["default"]
    if schema.get("description"):
        out["description"] = schema["description"]
    return out


def _typed(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if kind == "object" or (kind is None and ("properties" in schema or "additionalProperties" in schema)):
        return _object(schema)
    if kind == "array":
        out: dict[str, Any] = {"type": "array"}
        items = _convert(schema.get("items"))
        if items:  # z.array(z.any()) has no items in JSON Schema
            out["items"] = items
        return out | {k: schema[k] for k in _KEPT["array"] if k in schema}
    if kind in ("string", "number", "integer"):
        out = {"type": kind}
        if kind == "string" and schema.get("format") in _FORMATS:
            out["format"] = schema["format"]
        return out | {k: schema[k] for k in _KEPT[kind] if k in schema}
    if kind in ("boolean", "null"):
        return {"type": kind}
    return {}


def _object(schema: dict[str, Any]) -> dict[str, Any]:
    properties = schema.get("properties")
    extra = schema.get("additionalProperties")
    if properties is None:
        return {"type": "object", "additionalProperties": _convert(extra) if isinstance(extra, dict) else {}}
    required = _required(schema)
    out: dict[str, Any] = {"type": "object", "properties": {k: _convert(v) for k, v in properties.items()}}
    if required:
        out["required"] = required
    out["additionalProperties"] = _convert(extra) if isinstance(extra, dict) and extra else False
    return out


def _required(schema: dict[str, Any]) -> list[str]:
    """json-schema-to-zod's rule: named in ``required`` (or ``required: true`` on the property) and no default."""
    names = schema.get("required")
    out = []
    for key, prop in (schema.get("properties") or {}).items():
        is_required = (
            key in names if isinstance(names, list) else isinstance(prop, dict) and prop.get("required") is True
        )
        if is_required and not (isinstance(prop, dict) and "default" in prop):
            out.append(key)
    return out


def _enum(values: list[Any]) -> dict[str, Any]:
    kinds = {json_type(v) for v in values}
    if kinds == {"string"}:
        return {"type": "string", "enum": list(values)}
    if len(kinds) == 1:
        return {"type": kinds.pop(), "enum": list(values)}
    return {"type": sorted(kinds), "enum": list(values)}


def shaped(value: Any, schema: Any) -> Any:
    """``value`` (already valid against ``schema``) as zod's parse returns it: unnamed keys of plain objects
    dropped, defaults filled in."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        properties: dict[str, Any] = schema["properties"]
        keep_all = "additionalProperties" in schema or "patternProperties" in schema
        out = {k: shaped(v, properties.get(k)) for k, v in value.items() if keep_all or k in properties}
        for key, prop in properties.items():
            if key not in out and isinstance(prop, dict) and "default" in prop:
                out[key] = prop["default"]
        return out
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [shaped(v, schema["items"]) for v in value]
    return value


__all__ = ["DRAFT_07", "offered_schema", "shaped"]
