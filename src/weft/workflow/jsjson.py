"""JSON as JavaScript writes it: ``JSON.stringify``'s compact form, where an integral number has no ``.0``.

n8n is JavaScript, so a number that Python holds as ``2.0`` is ``2`` wherever n8n stringifies a value: a tool's
result sent to a model, a Set field of type string, an error message. This is the one place that rule lives.
"""

from __future__ import annotations

import json
from typing import Any


def normalize_numbers(value: Any) -> Any:
    """Integral floats become ints, as JavaScript prints them (``1.0`` → ``1``); containers are copied."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: normalize_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize_numbers(v) for v in value]
    return value


def js_json(value: Any) -> str:
    """JavaScript's ``JSON.stringify(value)``: compact, no ASCII escaping, integral numbers without ``.0``."""
    return json.dumps(normalize_numbers(value), separators=(",", ":"), ensure_ascii=False)


__all__ = ["js_json", "normalize_numbers"]
