"""toolHttpRequest's placeholders: which parameters the model fills, their schema, and the request they make.

``{name}`` in the URL, in a query/header/body value or in a JSON query/header/body is a placeholder; its type
and description come from ``placeholderDefinitions``. A key-value parameter whose value provider is
``modelRequired``/``modelOptional`` is one too (n8n's ``prepareParameters``, ``updateParametersAndOptions``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext

_PLACEHOLDER = re.compile(r"\{([a-zA-Z0-9_-]+)\}")
_MODEL_INPUT = {
    "qs": "Query parameters for request as key value pairs",
    "headers": "Headers parameters for request as key value pairs",
    "body": "Body parameters for request as key value pairs",
}
#: ``(send in, input type parameter, JSON parameter, key-value parameter, the switch)``.
_PARTS = (
    ("qs", "specifyQuery", "jsonQuery", "parametersQuery.values", "sendQuery"),
    ("headers", "specifyHeaders", "jsonHeaders", "parametersHeaders.values", "sendHeaders"),
    ("body", "specifyBody", "jsonBody", "parametersBody.values", "sendBody"),
)


@dataclass(frozen=True, kw_only=True)
class ToolParameter:
    """One value the model gives (n8n's ``ToolParameter``)."""

    name: str
    required: bool
    send_in: str
    """``path``, ``qs``, ``headers``, ``body`` (or the part's name itself for a whole part from the model)."""
    type: str | None = None
    description: str | None = None
    key: str | None = None
    """The key-value parameter whose value holds the placeholder, or ``<part>Raw`` for a JSON part."""


@dataclass(kw_only=True)
class RequestTemplate:
    """The request before the model's values go in: key-value parts and raw JSON parts."""

    method: str
    url: str
    parts: dict[str, dict[str, Any]] = field(default_factory=lambda: {"qs": {}, "headers": {}, "body": {}})
    raw: dict[str, str] = field(default_factory=lambda: {"qs": "", "headers": "", "body": ""})


def placeholder_definitions(ctx: NodeContext, index: int) -> list[dict[str, Any]]:
    values = ctx.get_node_parameter("placeholderDefinitions.values", index, [])
    out = []
    for value in values or []:
        name = str(value.get("name", ""))
        if name.startswith("{") and name.endswith("}"):
            name = name[1:-1]
        out.append({**value, "name": name})
    return out


def from_text(
    definitions: list[dict[str, Any]], text: Any, send_in: str, key: str | None = None
) -> list[ToolParameter]:
    """The placeholders in ``text`` as required parameters (n8n's ``extractParametersFromText``)."""
    if not isinstance(text, str):
        return []
    entries = [{"name": name, "valueProvider": "modelRequired"} for name in _PLACEHOLDER.findall(text)]
    return [_with_key(p, key) for p in _keypair(entries, definitions, send_in)[0]]


def _with_key(parameter: ToolParameter, key: str | None) -> ToolParameter:
    if key is None:
        return parameter
    return ToolParameter(**{**parameter.__dict__, "key": key})


def _keypair(
    entries: list[dict[str, Any]], definitions: list[dict[str, Any]], send_in: str
) -> tuple[list[ToolParameter], dict[str, Any]]:
    parameters: list[ToolParameter] = []
    values: dict[str, Any] = {}
    for entry in entries:
        provider = str(entry.get("valueProvider", ""))
        name = str(entry.get("name", ""))
        if "model" in provider:
            found = next((d for d in definitions if d.get("name") == name), None)
            parameters.append(
                ToolParameter(
                    name=name,
                    required=provider == "modelRequired",
                    send_in=send_in,
                    type=found.get("type") if found else None,
                    description=found.get("description") if found else None,
                )
            )
        elif entry.get("value"):
            parameters.extend(from_text(definitions, entry["value"], send_in, name))
            values[name] = entry["value"]
    return parameters, values


def collect(ctx: NodeContext, index: int) -> tuple[list[ToolParameter], RequestTemplate]:
    """The model's parameters in n8n's order (path, query, headers, body) and the request template."""
    definitions = placeholder_definitions(ctx, index)
    template = RequestTemplate(method=ctx.get_node_parameter("method", index, "GET"), url=_url(ctx, index))
    parameters = from_text(definitions, template.url, "path")
    for send_in, input_type, json_name, pairs_name, switch in _PARTS:
        if not ctx.get_node_parameter(switch, index, False):
            continue
        kind = ctx.get_node_parameter(input_type, index, "keypair")
        if kind == "model":
            description = _MODEL_INPUT[send_in]
            parameters.append(
                ToolParameter(name=send_in, required=True, type="json", send_in=send_in, description=description)
            )
        elif kind == "json":
            template.raw[send_in] = str(ctx.get_node_parameter(json_name, index, "") or "")
            parameters.extend(from_text(definitions, template.raw[send_in], send_in, send_in + "Raw"))
        else:
            found, values = _keypair(list(ctx.get_node_parameter(pairs_name, index, []) or []), definitions, send_in)
            parameters.extend(found)
            template.parts[send_in].update(values)
    for definition in definitions:
        if not any(p.name == definition["name"] for p in parameters):
            raise NodeOperationError(
                ctx.node.name,
                f"Misconfigured placeholder '{definition['name']}'",
                description="This placeholder is defined in the 'Placeholder Definitions' but isn't used anywhere. "
                "Either remove the definition, or add the placeholder to a part of the request.",
                item_index=index,
            )
    return parameters, template


def _url(ctx: NodeContext, index: int) -> str:
    url = ctx.get_node_parameter("url", index)
    if not isinstance(url, str) or not url:
        raise NodeOperationError(ctx.node.name, "The URL is empty", description="Set the tool's 'URL'.")
    return url


def input_schema(parameters: list[ToolParameter]) -> dict[str, Any]:
    """n8n's ``makeToolInputSchema`` (zod → JSON Schema as the model receives it)."""
    properties: dict[str, Any] = {}
    for parameter in parameters:
        schema: dict[str, Any]
        if parameter.type == "json":
            schema = {"type": "object", "additionalProperties": {}}
        else:
            schema = {"type": parameter.type if parameter.type in ("number", "boolean") else "string"}
        if parameter.description:
            schema["description"] = parameter.description
        properties[parameter.name] = schema
    required = list(dict.fromkeys(p.name for p in parameters if p.required))
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


def fallback_description(description: str, parameters: list[ToolParameter]) -> str:
    """Version 1's description: the parameters listed for a model that sends one string (``prepareToolDescription``)."""
    if not parameters:
        return description
    listed = ",\n ".join(
        f"{p.name}: (description: {p.description or ''}, type: {p.type or 'string'}, required: "
        f"{'true' if p.required else 'false'})"
        for p in parameters
    )
    return (
        f"{description}\n\tTool expects valid stringified JSON object with {len(parameters)} properties.\n"
        f"\tProperty names with description, type and required status:\n\t{listed}\n"
        "\tALL parameters marked as required must be provided"
    )


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


__all__ = [
    "RequestTemplate",
    "ToolParameter",
    "collect",
    "dumps",
    "fallback_description",
    "from_text",
    "input_schema",
    "placeholder_definitions",
]
