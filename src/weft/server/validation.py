"""The message of a request that failed FastAPI's validation (a body that is no JSON, a missing or wrong field).

Every route answers 400 with one message about the first problem, never FastAPI's 422 ``{"detail": [...]}``:
``/rest`` in Weft's ``{"code", "message"}`` shape, with a message that names the field and says the fix (n8n
answers the first zod issue, ``"Expected object, received string"``); ``/api/v1`` in the words of n8n's OpenAPI
validator (``request/body must have required property 'name'``). n8n itself fails on a body that is not JSON with
a 500 HTML page; Weft answers 400 there too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: pydantic's error types for a body that is not a JSON object at all (text, an array, a number).
_NOT_AN_OBJECT = frozenset({"model_attributes_type", "dict_type", "model_type"})
_SENT_AS_JSON = "sent with the header content-type: application/json"
_PLACES = {"query": "query parameter", "path": "path parameter", "header": "header", "cookie": "cookie"}


def rest_message(errors: Sequence[Mapping[str, Any]]) -> str:
    """A ``/rest`` message for the first of FastAPI's validation ``errors``."""
    first = errors[0] if errors else {}
    kind = str(first.get("type", ""))
    source, *path = [str(part) for part in first.get("loc", ())] or ["body"]
    detail = str(first.get("msg", "is invalid"))
    if kind == "json_invalid":
        return f"The request body is not valid JSON: {_json_problem(first)}."
    if source != "body":
        name = path[-1] if path else source
        return f"The {_PLACES.get(source, source)} {name!r} is invalid: {detail}."
    if not path:
        if kind == "missing":
            return f"The request needs a JSON object as its body, {_SENT_AS_JSON}."
        return f"The request body must be a JSON object, {_SENT_AS_JSON}."
    field = ".".join(path)
    if kind == "missing":
        return f"The request body lacks the field {field!r}; add it."
    if kind in _NOT_AN_OBJECT:
        return f"The field {field!r} of the request body must be an object."
    return f"The field {field!r} of the request body is invalid: {detail}."


def public_message(errors: Sequence[Mapping[str, Any]]) -> str:
    """A ``/api/v1`` message for the first of FastAPI's validation ``errors``, as n8n's OpenAPI validator words it."""
    first = errors[0] if errors else {}
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        return f"request/body must be valid JSON ({_json_problem(first)})"
    where = "/".join(["request", *(str(part) for part in first.get("loc", ()))])
    if kind == "missing":
        *parent, name = where.split("/")
        return f"{'/'.join(parent)} must have required property '{name}'"
    if kind in _NOT_AN_OBJECT:
        return f"{where} must be object"
    return f"{where} {first.get('msg', 'is invalid')}".strip()


def _json_problem(error: Mapping[str, Any]) -> str:
    """What the JSON parser said, and where (pydantic's ``loc`` ends with the character position)."""
    context = error.get("ctx") or {}
    reason = str(context.get("error") or "JSON decode error") if isinstance(context, Mapping) else "JSON decode error"
    loc = list(error.get("loc", ()))
    position = loc[-1] if loc and isinstance(loc[-1], int) else None
    return reason if position is None else f"{reason} at character {position}"


__all__ = ["public_message", "rest_message"]
