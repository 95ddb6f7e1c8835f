"""A credential's data as the browser may see it (n8n's ``CredentialsService.redact``) and back (``unredact``).

Secret fields (``typeOptions.password``, ``oauthTokenData``, ``csrfSecret``, the secrets inside a fixed
collection's values) come back as n8n's blank placeholder when they hold something and as its empty
placeholder when they are empty; an expression (``={{ … }}``) in a secret field is shown unless the field
takes no expressions, as n8n does. A type Weft has no description for is redacted whole (n8n would return its
data as stored). A PATCH that sends a placeholder keeps the stored value (``unredact``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from weft.services.credential_types import type_properties

CREDENTIAL_BLANKING_VALUE = "__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6"
"""n8n-workflow's ``CREDENTIAL_BLANKING_VALUE``: a secret that is set, redacted."""
CREDENTIAL_EMPTY_VALUE = "__n8n_EMPTY_VALUE_7b1af746-3729-4c60-9b9b-e08eb29e58da"
"""n8n-workflow's ``CREDENTIAL_EMPTY_VALUE``: a secret that is empty, redacted."""
_ALWAYS_SECRET = ("oauthTokenData", "csrfSecret")


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
        if (prop.get("typeOptions") or {}).get("password") and (not is_expression or prop.get("noDataExpression")):
            data[key] = _placeholder(value)
    return data


def redact(credential_type: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``data`` with every secret replaced by n8n's placeholders."""
    props = type_properties(credential_type)
    if props is None:
        return {key: _placeholder(value) for key, value in data.items()}
    return _redact_values(copy.deepcopy(dict(data)), props)


def _restore(merged: dict[str, Any], saved: Mapping[str, Any]) -> None:
    for key, value in list(merged.items()):
        sentinel = value[1:] if isinstance(value, str) and value.startswith("=") else value
        if sentinel in (CREDENTIAL_BLANKING_VALUE, CREDENTIAL_EMPTY_VALUE):
            if key in saved:
                merged[key] = copy.deepcopy(saved[key])
            else:
                del merged[key]
        elif isinstance(value, dict) and isinstance(saved.get(key), dict):
            _restore(value, saved[key])


def unredact(data: Mapping[str, Any], saved: Mapping[str, Any]) -> dict[str, Any]:
    """n8n's ``unredact``: ``data`` with each placeholder replaced by the stored value; OAuth token data kept."""
    merged = copy.deepcopy(dict(data))
    _restore(merged, saved)
    if "oauthTokenData" in saved:  # n8n: never lost by an edit of other fields
        merged["oauthTokenData"] = copy.deepcopy(saved["oauthTokenData"])
    return merged


__all__ = ["CREDENTIAL_BLANKING_VALUE", "CREDENTIAL_EMPTY_VALUE", "redact", "unredact"]
