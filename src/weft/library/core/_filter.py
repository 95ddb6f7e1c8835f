"""n8n's filter parameter (``filter-parameter.ts``): the conditions model shared by If, Filter and Switch.

A filter value is ``{options: {caseSensitive, typeValidation, version}, conditions: [{leftValue, rightValue,
operator: {type, operation, rightType?, singleValue?}}], combinator}``. Values are parsed to the operator's
type first (strictly, or converting when ``typeValidation`` is ``loose``) with n8n's error messages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from weft.nodes.user_regex import RegexSyntaxError, compile_user_regex, parse_literal
from weft.nodes.values import (
    js_strict_equal,
    js_string,
    js_typeof,
    validate_field_type,
)

#: n8n ``ENABLE_LESS_STRICT_TYPE_VALIDATION``.
ENABLE_LESS_STRICT_TYPE_VALIDATION = (
    "Try changing the type of comparison. Alternatively you can enable 'Convert types where required'."
)


class FilterError(Exception):
    """A condition's values do not fit its operator's type (n8n ``FilterError``)."""

    def __init__(self, message: str, description: str) -> None:
        super().__init__(message)
        self.message = message
        self.description = description


@dataclass(frozen=True, slots=True)
class FilterOptions:
    case_sensitive: bool = True
    strict: bool = True
    version: int = 1


def resolve_options(stored: Mapping[str, Any] | None, node_settings: Mapping[str, Any]) -> FilterOptions:
    """The filter's options: those stored in the value, overridden by the node's own settings when given.

    n8n's editor copies the node's ``ignoreCase`` / ``looseTypeValidation`` / version into the stored options;
    ``node_settings`` holds what the node knows (``caseSensitive``, ``loose``, ``version``) so hand-written
    workflows behave the same.
    """
    stored = stored or {}
    case_sensitive = stored.get("caseSensitive", True)
    if node_settings.get("caseSensitive") is not None:
        case_sensitive = node_settings["caseSensitive"]
    strict = stored.get("typeValidation", "strict") != "loose"
    if node_settings.get("loose"):
        strict = False
    version = stored.get("version") or node_settings.get("version") or 1
    return FilterOptions(case_sensitive=bool(case_sensitive), strict=strict, version=int(version))


# --------------------------------------------------------------------------- value parsing


def _parse_datetime(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value
    text = js_string(value).strip()
    parsed: datetime | None = None
    candidates = [text, text.replace("Z", "+00:00")]
    if re.fullmatch(r"\d{4}", text):
        candidates.append(f"{text}-01-01")
    elif re.fullmatch(r"\d{4}-\d{2}", text):
        candidates.append(f"{text}-01")
    for candidate in candidates:
        try:
            parsed = datetime.fromisoformat(candidate)
            break
        except ValueError:
            continue
    if parsed is None:
        try:
            parsed = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def parse_single_value(value: Any, kind: str, strict: bool, version: int) -> tuple[bool, Any]:
    """n8n ``parseSingleFilterValue``: ``(valid, parsed)``."""
    if kind == "any" or value is None:
        return True, value
    if kind == "boolean" and not strict:
        if version >= 2:
            valid, parsed, _ = validate_field_type("filter", value, "boolean")
            if valid:
                return True, parsed
        return True, _js_boolean(value)
    if kind == "number":
        if isinstance(value, float) and math.isnan(value):
            return True, value
        empty = (isinstance(value, str) and value.strip() == "") or (isinstance(value, list) and not value)
        if empty and version >= 3:
            return True, None
    if kind == "dateTime":
        parsed_date = _parse_datetime(value)
        return (parsed_date is not None), parsed_date
    valid, parsed, _ = validate_field_type("filter", value, kind, strict=strict, parse_strings=True)
    return valid, parsed


def _js_boolean(value: Any) -> bool:
    if isinstance(value, float) and math.isnan(value):
        return False
    if isinstance(value, dict | list):
        return True
    return bool(value)


def _article(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def _invalid_message(kind: str, from_type: str, value: str, strict: bool, suffix: str) -> str:
    from_type = from_type.lower()
    if strict:
        return f"Wrong type: '{value}' is {_article(from_type)} but was expecting {_article(kind)} {suffix}"
    return f"Conversion error: the {from_type} '{value}' can't be converted to {_article(kind)} {suffix}"


def _type_description(strict: bool) -> str:
    if strict:
        return "Try changing the type of comparison. Alternatively you can enable 'Convert types where required'."
    return "Try changing the type of the comparison."


_CONVERSIONS = {"string": ".toString()", "number": ".toNumber()", "boolean": ".toBoolean()"}


def _invalid_description(kind: str, position: str, strict: bool) -> str:
    function = _CONVERSIONS.get(kind)
    if strict and function:
        return (
            "\n<p>Try either:</p>\n<ol>\n  <li>Enabling 'Convert types where required'</li>\n"
            f"  <li>Converting the {position} field to {_article(kind)} by adding <code>{function}</code></li>\n"
            "</ol>\n\t\t\t"
        )
    return _type_description(strict)


def parse_condition_values(
    condition: Mapping[str, Any], options: FilterOptions, index: int, item_index: int
) -> tuple[Any, Any]:
    """n8n ``parseFilterConditionValues``: both values parsed, or :class:`FilterError`."""
    operator = condition.get("operator") or {}
    kind = operator.get("type", "string")
    right_kind = operator.get("rightType") or kind
    left_raw = condition.get("leftValue")
    right_raw = condition.get("rightValue")
    left_valid, left = parse_single_value(left_raw, kind, options.strict, options.version)
    right_valid, right = parse_single_value(right_raw, right_kind, options.strict, options.version)
    right_ok = right_valid or bool(operator.get("singleValue"))
    suffix = f"[condition {index}, item {item_index}]"
    if not left_valid and not right_ok and js_typeof(left_raw) == js_typeof(right_raw):
        raise FilterError(
            f"Comparison type expects {_article(kind)} but both fields are {_article(js_typeof(left_raw))}",
            _type_description(options.strict),
        )
    if not left_valid:
        raise FilterError(
            _invalid_message(kind, js_typeof(left_raw), _display(left_raw), options.strict, suffix),
            _invalid_description(kind, "first", options.strict),
        )
    if not right_ok:
        raise FilterError(
            _invalid_message(right_kind, js_typeof(right_raw), _display(right_raw), options.strict, suffix),
            _invalid_description(right_kind, "second", options.strict),
        )
    return (left if left_valid else None), (right if right_valid else None)


def _display(value: Any) -> str:
    return js_string(value)


# --------------------------------------------------------------------------- operators


def _regex_test(pattern: Any, text: str) -> bool:
    """n8n ``parseRegexPattern(right).test(left)``, on the user-regex engines (:mod:`weft.nodes.user_regex`)."""
    source, flags = parse_literal(js_string(pattern) if pattern is not None else "")
    try:
        compiled = compile_user_regex(source, flags)
    except RegexSyntaxError as error:
        raise FilterError(str(error), "Check the regular expression of the condition.") from None
    return compiled.test(text)


def _string_op(operation: str, left: Any, right: Any, ignore_case: bool) -> bool | None:
    if ignore_case:  # n8n lowercases the value, not the pattern, of a regex condition
        left = left.lower() if isinstance(left, str) else left
        if operation not in ("regex", "notRegex"):
            right = right.lower() if isinstance(right, str) else right
    left_s: str = left if left is not None else ""
    right_s: str = right if right is not None else ""
    ops: dict[str, Callable[[], bool]] = {
        "empty": lambda: len(left_s) == 0,
        "notEmpty": lambda: len(left_s) != 0,
        "equals": lambda: left_s == right_s,
        "notEquals": lambda: left_s != right_s,
        "contains": lambda: right_s in left_s,
        "notContains": lambda: right_s not in left_s,
        "startsWith": lambda: left_s.startswith(right_s),
        "notStartsWith": lambda: not left_s.startswith(right_s),
        "endsWith": lambda: left_s.endswith(right_s),
        "notEndsWith": lambda: not left_s.endswith(right_s),
        "regex": lambda: _regex_test(right, left_s),
        "notRegex": lambda: not _regex_test(right, left_s),
    }
    fn = ops.get(operation)
    return fn() if fn else None


def _compare(operation: str, left: Any, right: Any) -> bool | None:
    if operation == "equals":
        return js_strict_equal(left, right)
    if operation == "notEquals":
        return not _compare("equals", left, right)
    if left is None or right is None:
        return False  # JavaScript compares undefined/null as NaN or 0; undefined (missing) never matches
    try:
        if operation in ("gt", "after"):
            return bool(left > right)
        if operation in ("lt", "before"):
            return bool(left < right)
        if operation in ("gte", "afterOrEquals"):
            return bool(left >= right)
        if operation in ("lte", "beforeOrEquals"):
            return bool(left <= right)
    except TypeError:
        return False
    return None


def _number_op(operation: str, left: Any, right: Any, exists: bool) -> bool | None:
    if operation == "empty":
        return not exists
    if operation == "notEmpty":
        return exists
    return _compare(operation, left, right)


def _datetime_op(operation: str, left: Any, right: Any, exists: bool) -> bool | None:
    if operation in ("empty", "notEmpty"):
        return _number_op(operation, left, right, exists)
    if not left or not right:
        return False
    return _compare(operation, left, right)


def _boolean_op(operation: str, left: Any, right: Any, exists: bool) -> bool | None:
    if operation == "true":
        return bool(left)
    if operation == "false":
        return not left
    return _number_op(operation, left, right, exists)


def _array_contains(array: list[Any], value: Any, ignore_case: bool) -> bool:
    if ignore_case and isinstance(value, str):
        return any(isinstance(v, str) and v.lower() == value.lower() for v in array)
    return any(js_strict_equal(v, value) for v in array)


def _array_op(operation: str, left: Any, right: Any, ignore_case: bool) -> bool | None:
    array: list[Any] = left if isinstance(left, list) else []
    if operation == "contains":
        return _array_contains(array, right, ignore_case)
    if operation == "notContains":
        return not _array_contains(array, right, ignore_case)
    if operation == "empty":
        return len(array) == 0
    if operation == "notEmpty":
        return len(array) != 0
    lengths = {
        "lengthEquals": "equals",
        "lengthNotEquals": "notEquals",
        "lengthGt": "gt",
        "lengthLt": "lt",
        "lengthGte": "gte",
        "lengthLte": "lte",
    }
    if operation in lengths:
        return _compare(lengths[operation], len(array), right)
    return None


def _object_op(operation: str, left: Any) -> bool | None:
    if operation == "empty":
        return not left or (isinstance(left, dict | list) and len(left) == 0)
    if operation == "notEmpty":
        return bool(left) and not (isinstance(left, dict | list) and len(left) == 0)
    return None


def execute_condition(
    condition: Mapping[str, Any], options: FilterOptions, index: int = 0, item_index: int = 0
) -> bool:
    """n8n ``executeFilterCondition`` for one condition whose values are already resolved."""
    ignore_case = not options.case_sensitive
    operator = condition.get("operator") or {}
    operation = operator.get("operation", "")
    kind = operator.get("type", "string")
    left, right = parse_condition_values(condition, options, index, item_index)
    exists = left is not None and not (isinstance(left, float) and math.isnan(left))
    if operation == "exists":
        return exists
    if operation == "notExists":
        return not exists
    result: bool | None = None
    if kind == "string":
        result = _string_op(operation, left, right, ignore_case)
    elif kind == "number":
        result = _number_op(operation, left, right, exists)
    elif kind == "dateTime":
        result = _datetime_op(operation, left, right, exists)
    elif kind == "boolean":
        result = _boolean_op(operation, left, right, exists)
    elif kind == "array":
        result = _array_op(operation, left, right, ignore_case)
    elif kind == "object":
        result = _object_op(operation, left)
    return bool(result)


def execute_filter(value: Mapping[str, Any], options: FilterOptions, item_index: int = 0) -> bool:
    """n8n ``executeFilter``: the combinator over the conditions (``and`` stops at the first failure)."""
    conditions = value.get("conditions") or []
    combinator = value.get("combinator", "and")
    if combinator == "or":
        return any(execute_condition(c, options, i, item_index) for i, c in enumerate(conditions))
    if combinator == "and":
        return all(execute_condition(c, options, i, item_index) for i, c in enumerate(conditions))
    return False


__all__ = [
    "ENABLE_LESS_STRICT_TYPE_VALIDATION",
    "FilterError",
    "FilterOptions",
    "execute_condition",
    "execute_filter",
    "parse_single_value",
    "resolve_options",
]
