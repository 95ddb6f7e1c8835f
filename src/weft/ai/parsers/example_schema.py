"""A JSON Schema from a JSON example, as n8n builds it (``generateSchemaFromExample``).

n8n runs the npm package ``generate-schema`` (its ``json`` flavour, draft 04) over the example and, from the
Structured Output Parser 1.3 on, marks every property required, recursively (``makeAllPropertiesRequired``).
This is a port of both, so a schema offered to the model is the one n8n offers.
"""

from __future__ import annotations

from typing import Any

from weft.workflow.jsjson import json_type

DRAFT = "http://json-schema.org/draft-04/schema#"


def _unique_keys(existing: dict[str, Any], value: dict[str, Any], required: list[str] | None) -> list[str]:
    """generate-schema's ``getUniqueKeys``: the keys every object element so far has."""
    keys = list(existing)
    out = required if required is not None else []
    for key in value:
        if key not in keys:
            if key in out:
                out.remove(key)
        elif key not in out:
            out.append(key)
    return out


def _array(array: list[Any], output: dict[str, Any] | None = None, nested: bool = False) -> dict[str, Any]:
    if nested and output is not None:
        output = {"items": output}
        kind = None
    else:
        output = output if output is not None else {}
        output["type"] = "array"
        output.setdefault("items", {})
        kind = output["items"].get("type")
    one_of = False
    for element in array:
        element_type = json_type(element)
        if kind and element_type != kind:
            output["items"]["oneOf"] = []
            one_of = True
            break
        kind = element_type
    if not one_of and kind:
        output["items"]["type"] = kind
    elif one_of and kind != "object":
        output["items"] = {"oneOf": [{"type": kind}], "required": output["items"].get("required")}
    if "oneOf" in output["items"] or kind == "object":
        for value in array:
            item_type = json_type(value)
            if item_type == "object":
                if output["items"].get("properties"):
                    output["items"]["required"] = _unique_keys(
                        output["items"]["properties"], value, output["items"].get("required")
                    )
                item: Any = _object(value, {} if one_of else output["items"].get("properties"), True)
            elif item_type == "array":
                item = _array(value, {} if one_of else output["items"].get("properties"), True)
            else:
                item = {"type": item_type}
            if one_of:
                if "type" not in item and item_type == "object":
                    item = {"properties": item, "type": "object"}
                output["items"]["oneOf"].append(item)
            elif output["items"].get("type") == "object":
                output["items"]["properties"] = item
    return output["items"] if nested else output


def _object(obj: dict[str, Any], output: dict[str, Any] | None = None, nested: bool = False) -> dict[str, Any]:
    if nested and output is not None:
        output = {"properties": output}
    else:
        output = output if output is not None else {}
        output["type"] = "object"
        output.setdefault("properties", {})
    properties: dict[str, Any] = output["properties"]
    for key, value in obj.items():
        kind = json_type(value)
        if kind == "object":
            properties[key] = _object(value, properties.get(key))
        elif kind == "array":
            properties[key] = _array(value, properties.get(key))
        elif key in properties:
            entry = properties[key]
            if isinstance(entry.get("type"), list):
                if kind not in entry["type"]:
                    entry["type"].append(kind)
            elif entry.get("type") != kind:
                entry["type"] = [entry.get("type"), kind]
        else:
            properties[key] = {"type": kind}
    return properties if nested else output


def schema_from_example(example: Any) -> dict[str, Any]:
    """generate-schema's ``json(example)``."""
    output: dict[str, Any] = {"$schema": DRAFT, "type": json_type(example)}
    if output["type"] == "object":
        processed = _object(example)
        output["type"], output["properties"] = processed["type"], processed["properties"]
    elif output["type"] == "array":
        processed = _array(example)
        output["type"], output["items"] = processed["type"], processed["items"]
    return output


def make_all_required(schema: dict[str, Any]) -> dict[str, Any]:
    """n8n's ``makeAllPropertiesRequired`` (Structured Output Parser 1.3 and later)."""
    if schema.get("type") == "object" and schema.get("properties"):
        names = list(schema["properties"])
        schema["required"] = names
        for name in names:
            prop = schema["properties"][name]
            if isinstance(prop, dict) and "type" in prop:
                make_all_required(prop)
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, dict) and "type" in items:
        schema["items"] = make_all_required(items)
    return schema


__all__ = ["DRAFT", "make_all_required", "schema_from_example"]
