"""JavaScript's readings of JSON values that routing needs: truthiness, ``parseInt``, ``===``."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.paths import UNDEFINED


def truthy(value: Any) -> bool:
    """JavaScript's truthiness (``"0"`` and ``[]`` are true; ``0``, ``""``, ``NaN``, ``null`` are false)."""
    if value is None or value is UNDEFINED:
        return False
    if isinstance(value, float) and value != value:
        return False
    return bool(value) if isinstance(value, bool | int | float | str) else True


def parse_int(value: Any) -> int | None:
    """``parseInt(value, 10)`` (``None`` for ``NaN``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if value == value else None
    text = str(value).strip() if value is not None and value is not UNDEFINED else ""
    sign = text[:1] if text[:1] in "+-" else ""
    digits = text[len(sign) :]
    count = len(digits) - len(digits.lstrip("0123456789"))
    return int(sign + digits[:count]) if count else None


def strict_equal(a: Any, b: Any) -> bool:
    """``a === b`` for JSON values (objects and arrays are equal only to themselves)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return a is b
    return bool(a == b)


def text(value: Any) -> str:
    """``String(value)`` of a scalar."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


__all__ = ["parse_int", "strict_equal", "text", "truthy"]
