"""toolHttpRequest: put the model's values into the request template (n8n's ``configureToolFunction``, step 1)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from weft.ai.tools._http_tool_params import RequestTemplate, ToolParameter
from weft.errors import NodeOperationError
from weft.nodes.json_repair import repair_json
from weft.nodes.values import js_string

_RAW_KEYS = ("qsRaw", "headersRaw", "bodyRaw")
_ENCODE_URI_SAFE = ";,/?:@&=+$-_.!~*'()#"
_MISSING: Any = object()


def fill_request(
    node_name: str, parameters: list[ToolParameter], template: RequestTemplate, query: Any, index: int
) -> RequestTemplate:
    """``template`` with the model's values in place; :class:`NodeOperationError` for input n8n refuses."""
    data = _data_from_model(node_name, parameters, "{}" if not parameters else query, index)
    for parameter in parameters:
        value = data.get(parameter.name, _MISSING)
        if parameter.required and (value is _MISSING or value is None):
            raise NodeOperationError(
                node_name,
                f"Model did not provide parameter '{parameter.name}' which is required and must be present in the "
                "input",
                item_index=index,
            )
    for parameter in parameters:
        _apply(node_name, template, parameter, data.get(parameter.name, _MISSING), index)
    for part, raw in template.raw.items():
        if raw:
            try:
                template.parts[part] = json.loads(repair_json(raw))
            except ValueError as error:
                raise NodeOperationError(node_name, f"Could not replace placeholders in {part}: {error}") from None
    template.url = quote(template.url, safe=_ENCODE_URI_SAFE)  # encodeURI
    template.parts = {k: v for k, v in template.parts.items() if v}
    return template


def _data_from_model(node_name: str, parameters: list[ToolParameter], query: Any, index: int) -> dict[str, Any]:
    if not isinstance(query, str):
        return dict(query or {})
    try:
        data = json.loads(query)
    except ValueError as error:
        if len(parameters) == 1:
            return {parameters[0].name: query}
        raise NodeOperationError(node_name, f"Input is not a valid JSON: {error}", item_index=index) from None
    return data if isinstance(data, dict) else {}


def _apply(node_name: str, template: RequestTemplate, parameter: ToolParameter, value: Any, index: int) -> None:
    if value not in (_MISSING, None, "", 0, False) and parameter.type == "json" and parameter.key not in _RAW_KEYS:
        if not isinstance(value, dict | list):
            try:
                value = json.loads(str(value))
            except ValueError as error:
                message = f"Parameter {parameter.name} is not a valid JSON: {error}"
                raise NodeOperationError(node_name, message, item_index=index) from None
    placeholder = "{" + parameter.name + "}"
    if parameter.send_in == "path":
        text = re.sub(r"^['\"]+|['\"]+$", "", _js_string(value))
        template.url = template.url.replace(placeholder, text, 1)
    elif parameter.send_in == parameter.name:
        template.parts[parameter.send_in] = value if value is not _MISSING else {}
    elif parameter.key in _RAW_KEYS:
        template.raw[parameter.send_in] = template.raw[parameter.send_in].replace(
            placeholder, _raw_value(template.raw[parameter.send_in], parameter, value), 1
        )
    elif parameter.key:
        current = template.parts[parameter.send_in].get(parameter.key)
        if isinstance(current, str):
            template.parts[parameter.send_in][parameter.key] = current.replace(placeholder, _js_string(value), 1)
    elif value is not _MISSING:
        template.parts[parameter.send_in][parameter.name] = value


def _raw_value(raw: str, parameter: ToolParameter, value: Any) -> str:
    """A value for a JSON part: strings quoted unless the placeholder already is, objects as JSON."""
    if parameter.type == "string":
        value = _js_string(value)
        if not value.startswith('"') and f'"{{{parameter.name}}}"' not in raw:
            value = f'"{value}"'
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return _js_string(value)


def _js_string(value: Any) -> str:
    """JavaScript's ``String(value)`` (``undefined`` for a missing value)."""
    return "undefined" if value is _MISSING else js_string(value)


__all__ = ["fill_request"]
