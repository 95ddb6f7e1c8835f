"""Helpers shared by the data-transformation nodes: lodash-style paths, JavaScript value semantics, n8n's
``validateFieldType`` and small parameter utilities.

Item data is plain JSON, so "JavaScript semantics" here means how n8n (Node.js) would treat the same JSON
value: ``String(value)``, ``Number(value)``, ``typeof``, ``JSON.stringify`` and lodash's ``isEqual``.
The lodash-style path helpers live in :mod:`weft.nodes.paths` and are re-exported here.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from weft.nodes.contract import ExecuteContext
from weft.nodes.paths import get_path, has_path, set_path, to_path, unset_path
from weft.workflow import Item
from weft.workflow.jsjson import js_json, js_number_string, normalize_numbers

# --------------------------------------------------------------------------- JavaScript value semantics


def js_typeof(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: JavaScript's ``String(number)``; one implementation, in :mod:`weft.workflow.jsjson`.
js_number_repr = js_number_string


def js_string(value: Any) -> str:
    """JavaScript ``String(value)``."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number_repr(value)
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    return "[object Object]"


_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def js_to_number(value: Any) -> float | int:
    """JavaScript ``Number(value)``; ``nan`` when JavaScript gives ``NaN``."""
    if isinstance(value, bool):
        return 1 if value else 0
    if isinstance(value, int | float):
        return value
    if value is None:
        return 0
    if isinstance(value, list):
        return js_to_number(js_string(value)) if len(value) <= 1 else math.nan
    if not isinstance(value, str):
        return math.nan
    return _string_to_number(value.strip())


def _string_to_number(text: str) -> float | int:
    if text == "":
        return 0
    lowered = text.lower()
    for prefix, base in (("0x", 16), ("0o", 8), ("0b", 2)):
        if lowered.startswith(prefix):
            try:
                return int(text[2:], base)
            except ValueError:
                return math.nan
    if text in ("Infinity", "+Infinity", "-Infinity"):
        return -math.inf if text.startswith("-") else math.inf
    if not _DECIMAL.match(text):
        return math.nan
    number = float(text)
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def js_equal(a: Any, b: Any) -> bool:
    """lodash ``isEqual`` on JSON values (``true`` is not ``1``; ``NaN`` equals ``NaN``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(js_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(js_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def js_strict_equal(a: Any, b: Any) -> bool:
    """JavaScript ``a === b`` on JSON values (objects and arrays are never equal: they are not the same object)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return bool(a == b)
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return a is b
    return type(a) is type(b) and bool(a == b)


def js_truthy(value: Any) -> bool:
    if isinstance(value, float) and math.isnan(value):
        return False
    if isinstance(value, dict | list):
        return True
    return bool(value)


# --------------------------------------------------------------------------- n8n validateFieldType


class _Invalid(Exception):
    pass


def _parse_boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if not (isinstance(value, str) and value.strip() == ""):
        number = js_to_number(value)
        if number == 0:
            return False
        if number == 1:
            return True
    raise _Invalid


def _parse_number(value: Any) -> float | int:
    number = js_to_number(value)
    if isinstance(number, float) and math.isnan(number):
        raise _Invalid
    return number


def _parse_array(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    text = js_string(value)
    try:
        parsed = json.loads(text)
    except ValueError:
        try:
            parsed = json.loads(text.replace("'", '"'))
        except ValueError as exc:
            raise _Invalid from exc
    if not isinstance(parsed, list):
        raise _Invalid
    return parsed


def parse_js_object(text: str) -> Any:
    """n8n ``jsonParse(text, {acceptJSObject: true})``: JSON, else a JavaScript object literal."""
    try:
        return json.loads(text)
    except ValueError:
        cleaned = re.sub(r"([{,]\s*)([A-Za-z_$][\w$]*)\s*:", r'\1"\2":', text).replace("'", '"')
        return json.loads(cleaned)


def _parse_object(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    try:
        parsed = parse_js_object(js_string(value))
    except ValueError as exc:
        raise _Invalid from exc
    if not isinstance(parsed, dict):
        raise _Invalid
    return parsed


def value_description(value: Any) -> str:
    """n8n ``getValueDescription``."""
    if value is None:
        return "'null'"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"'{js_string(value)}'"


_STRICT_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "number": is_number,
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict | list),
    "array": lambda v: isinstance(v, list),
}

_PARSERS: dict[str, Callable[[Any], Any]] = {
    "number": _parse_number,
    "boolean": _parse_boolean,
    "object": _parse_object,
    "array": _parse_array,
}


def validate_field_type(
    field_name: str, value: Any, field_type: str, *, strict: bool = False, parse_strings: bool = False
) -> tuple[bool, Any, str]:
    """n8n ``validateFieldType``: ``(valid, new_value, error_message)``.

    ``dateTime`` is handled by the filter module; unknown types pass through unchanged.
    """
    if value is None:
        return True, None, ""
    kind = field_type.lower()
    if kind == "string":
        if not parse_strings:
            return True, value, ""
        if strict and not isinstance(value, str):
            return False, None, _type_message(field_name, field_type, value)
        return True, js_json(value) if isinstance(value, dict | list) else js_string(value), ""
    parser = _PARSERS.get(kind)
    if parser is None:
        return True, value, ""
    if strict and not _STRICT_CHECKS[kind](value):
        return False, None, _type_message(field_name, field_type, value)
    try:
        return True, parser(value), ""
    except _Invalid:
        return False, None, _type_message(field_name, field_type, value)


def _type_message(field_name: str, field_type: str, value: Any) -> str:
    return f"'{field_name}' expects a {field_type} but we got {value_description(value)}"


# --------------------------------------------------------------------------- parameters


def split_fields(value: Any) -> list[str]:
    """A comma-separated field list (``"a, b.c"``) → ``["a", "b.c"]`` without blanks."""
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    return [part.strip() for part in str(value or "").split(",") if part.strip()]


_ABSENT: Any = object()


class Params:
    """A node's parameters read once with ``raw=True``; expressions are evaluated only where there are some.

    A parameter the node does not set is looked up through the context (a dotted path, the type's defaults) once
    per run: the parameters do not change while the node runs."""

    def __init__(self, ctx: ExecuteContext) -> None:
        self._ctx = ctx
        self._parameters = ctx.node.parameters
        self._looked_up: dict[str, Any] = {}
        self.node_version = float(ctx.node.typeVersion)

    def raw(self, name: str, default: Any = None) -> Any:
        if name in self._parameters:  # the common case, without the context's path and defaults lookup
            return self._parameters[name]
        looked_up = self._looked_up
        if name not in looked_up:
            looked_up[name] = self._ctx.get_node_parameter(name, 0, _ABSENT, raw=True)
        value = looked_up[name]
        return default if value is _ABSENT else value

    def get(self, name: str, item_index: int = 0, default: Any = None) -> Any:
        value = self.raw(name, default)
        return self.resolve(value, item_index) if has_expression(value) else value

    def resolve(self, value: Any, item_index: int) -> Any:
        if isinstance(value, str):
            return self._ctx.evaluate_expression(value, item_index) if value.startswith("=") else value
        if isinstance(value, dict):
            return {k: self.resolve(v, item_index) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v, item_index) for v in value]
        return value


def has_expression(value: Any) -> bool:
    """Whether ``value`` holds an expression (a string starting with ``=``) anywhere inside."""
    kind = type(value)
    if kind is str:
        return value.startswith("=")  # type: ignore[no-any-return]
    if value is None or kind is bool or kind is int or kind is float:  # the plain values, at once
        return False
    if isinstance(value, str):
        return value.startswith("=")
    if isinstance(value, dict):
        return any(map(has_expression, value.values()))
    if isinstance(value, list):
        return any(map(has_expression, value))
    return False


def with_paired_item(item: Item, index: int) -> Item:
    """The item itself when it has a ``pairedItem``, else a shallow copy paired to input item ``index``."""
    if "pairedItem" in item:
        return item
    paired: Item = {**item, "pairedItem": {"item": index}}  # type: ignore[typeddict-item]
    return paired


def js_less_than(a: Any, b: Any) -> bool:
    """JavaScript ``a < b`` (lodash ``lt``) on JSON values; anything not a JSON value acts as ``undefined``."""
    if isinstance(a, str) and isinstance(b, str):
        return a < b
    left, right = _primitive_number(a), _primitive_number(b)
    if math.isnan(left) or math.isnan(right):
        return False
    return left < right


def _primitive_number(value: Any) -> float:
    if value is None or isinstance(value, bool | int | float | str):
        return float(js_to_number(value))
    if isinstance(value, list):
        return float(js_to_number(js_string(value)))
    return math.nan


__all__ = [
    "Params",
    "get_path",
    "has_expression",
    "has_path",
    "is_number",
    "js_equal",
    "js_json",
    "js_less_than",
    "js_number_repr",
    "js_strict_equal",
    "js_string",
    "js_to_number",
    "js_truthy",
    "js_typeof",
    "normalize_numbers",
    "parse_js_object",
    "set_path",
    "split_fields",
    "to_path",
    "unset_path",
    "validate_field_type",
    "value_description",
    "with_paired_item",
]
