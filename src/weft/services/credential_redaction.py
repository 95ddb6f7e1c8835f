"""A credential's data as the browser may see it (n8n's ``CredentialsService.redact``) and back (``unredact``).

Secret fields (``typeOptions.password``, ``oauthTokenData``, ``csrfSecret``, the secrets inside a fixed
collection's values) come back as n8n's blank placeholder when they hold something and as its empty
placeholder when they are empty; a JSON field marked ``redactJsonLeaves`` (Custom Auth) comes back with every
leaf ``***``, and a save merges the stored leaves back; an expression (``={{ … }}``) in a secret field is shown
unless the field takes no expressions, as n8n does. A type Weft has no description for is redacted whole (n8n
would return its data as stored). A PATCH that sends a placeholder keeps the stored value (``unredact``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from weft.services.credential_types import type_properties
from weft.workflow.jsjson import pretty_json

CREDENTIAL_BLANKING_VALUE = "__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6"
"""n8n-workflow's ``CREDENTIAL_BLANKING_VALUE``: a secret that is set, redacted."""
CREDENTIAL_EMPTY_VALUE = "__n8n_EMPTY_VALUE_7b1af746-3729-4c60-9b9b-e08eb29e58da"
"""n8n-workflow's ``CREDENTIAL_EMPTY_VALUE``: a secret that is empty, redacted."""
CUSTOM_AUTH_JSON_REDACTED_VALUE = "***"
"""n8n's redacted leaf of a JSON field marked ``redactJsonLeaves`` (Custom Auth's JSON)."""
_ALWAYS_SECRET = ("oauthTokenData", "csrfSecret")
_MISSING = object()


def _placeholder(value: Any) -> str:
    text = "" if value is None else value if isinstance(value, str) else str(value)
    return CREDENTIAL_BLANKING_VALUE if text else CREDENTIAL_EMPTY_VALUE


def _redact_collection(data: Any, option: Mapping[str, Any]) -> None:
    if not isinstance(data, dict):
        return
    values = data.get(option.get("name", ""))
    props = list(option.get("values") or [])
    if isinstance(values, list):
        data[option["name"]] = [_redact_values(v, props) if isinstance(v, dict) else v for v in values]
    elif isinstance(values, dict):
        data[option["name"]] = _redact_values(values, props)


def _redact_leaves(value: Any) -> Any:
    if isinstance(value, list):
        return [_redact_leaves(v) for v in value]
    if isinstance(value, dict):
        return {k: _redact_leaves(v) for k, v in value.items()}
    if isinstance(value, str) and value.startswith("={{"):
        return value
    return CUSTOM_AUTH_JSON_REDACTED_VALUE


def _redact_json_field(value: Any) -> str:
    """n8n's ``redactJsonLeaves``: every leaf of the JSON text redacted (Weft: text that is not JSON is
    redacted whole; n8n would show it)."""
    text = "" if value is None else value if isinstance(value, str) else json.dumps(value)
    if not text:
        return CREDENTIAL_EMPTY_VALUE
    try:
        return pretty_json(_redact_leaves(json.loads(text)))
    except ValueError:
        return CREDENTIAL_BLANKING_VALUE


def _redact_values(data: dict[str, Any], props: list[dict[str, Any]]) -> dict[str, Any]:
    by_name = {p.get("name"): p for p in props}
    for key in list(data):
        if key in _ALWAYS_SECRET:
            data[key] = _placeholder(data[key])
            continue
        prop = by_name.get(key)
        if prop is None:
            continue
        if prop.get("type") == "fixedCollection":
            for option in prop.get("options") or []:
                if isinstance(option, dict) and "values" in option:
                    _redact_collection(data[key], option)
        value = data[key]
        is_expression = isinstance(value, str) and value.startswith("={{")
        options = prop.get("typeOptions") or {}
        if options.get("password") and (not is_expression or prop.get("noDataExpression")):
            data[key] = _placeholder(value)
        elif options.get("redactJsonLeaves"):
            data[key] = _redact_json_field(value)
    return data


def redact(credential_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``data`` with every secret replaced by n8n's placeholders."""
    props = type_properties(credential_type)
    if props is None:
        return {key: _placeholder(value) for key, value in data.items()}
    return _redact_values(copy.deepcopy(dict(data)), props)


def _is_placeholder(value: Any) -> bool:
    sentinel = value[1:] if isinstance(value, str) and value.startswith("=") else value
    return sentinel in (CREDENTIAL_BLANKING_VALUE, CREDENTIAL_EMPTY_VALUE)


def _restore(merged: Any, saved: Any) -> None:
    """n8n's ``unredactRestoreValues``: each placeholder (in objects and lists) becomes the stored value."""
    keys = list(merged) if isinstance(merged, dict) else list(range(len(merged)))
    for key in keys:
        value = merged[key]
        found = _lookup(saved, key)
        if _is_placeholder(value):
            if found is not _MISSING:
                merged[key] = copy.deepcopy(found)
            elif isinstance(merged, dict):
                del merged[key]
            else:
                merged[key] = None
        elif isinstance(value, dict | list) and isinstance(found, dict | list):
            _restore(value, found)


def _lookup(container: Any, key: Any) -> Any:
    if isinstance(container, dict):
        return container.get(key, _MISSING)
    if isinstance(container, list) and isinstance(key, int) and key < len(container):
        return container[key]
    return _MISSING


def _merge_leaves(new: Any, saved: Any) -> Any:
    """n8n's ``mergeRedactedJsonLeaves``: a redacted leaf is the stored one."""
    if new == CUSTOM_AUTH_JSON_REDACTED_VALUE:
        return saved
    if isinstance(new, list) and isinstance(saved, list):
        return [_merge_leaves(v, saved[i] if i < len(saved) else _MISSING) for i, v in enumerate(new)]
    if isinstance(new, list) or isinstance(saved, list):
        return new
    if isinstance(new, dict) and isinstance(saved, dict):
        return {k: _merge_leaves(v, saved.get(k, _MISSING)) for k, v in new.items()}
    return new


def _dropped(value: Any) -> Any:
    """JSON.stringify of what the merge left undefined: dropped from objects, ``null`` in lists."""
    if isinstance(value, dict):
        return {k: _dropped(v) for k, v in value.items() if v is not _MISSING}
    if isinstance(value, list):
        return [None if v is _MISSING else _dropped(v) for v in value]
    return value


def _unredact_json_fields(merged: dict[str, Any], saved: Mapping[str, Any], props: list[dict[str, Any]]) -> None:
    for prop in props:
        name = prop.get("name")
        if not (prop.get("typeOptions") or {}).get("redactJsonLeaves") or name not in merged or name not in saved:
            continue
        try:
            new, old = json.loads(str(merged[name])), json.loads(str(saved[name]))
        except ValueError:
            continue
        merged[name] = json.dumps(_dropped(_merge_leaves(new, old)), separators=(",", ":"), ensure_ascii=False)


def unredact(data: Mapping[str, Any], saved: Mapping[str, Any], credential_type: str | None = None) -> dict[str, Any]:
    """n8n's ``unredact``: ``data`` with each placeholder replaced by the stored value (and each redacted leaf of
    a ``redactJsonLeaves`` field by the stored leaf); OAuth token data kept."""
    merged = copy.deepcopy(dict(data))
    _restore(merged, saved)
    if credential_type is not None:
        _unredact_json_fields(merged, saved, type_properties(credential_type) or [])
    if "oauthTokenData" in saved:  # n8n: never lost by an edit of other fields
        merged["oauthTokenData"] = copy.deepcopy(saved["oauthTokenData"])
    return merged


__all__ = [
    "CREDENTIAL_BLANKING_VALUE",
    "CREDENTIAL_EMPTY_VALUE",
    "CUSTOM_AUTH_JSON_REDACTED_VALUE",
    "redact",
    "unredact",
]
