"""The filter parameter inside If, Filter and Switch: read once, evaluated per item, errors as n8n words them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError, WeftError
from weft.library.core._filter import (
    ENABLE_LESS_STRICT_TYPE_VALIDATION,
    execute_filter,
    resolve_options,
)
from weft.nodes.contract import ExecuteContext
from weft.nodes.user_regex import RegexTimedOut
from weft.nodes.values import Params, has_expression


class CompiledFilter:
    """A filter parameter read once (raw); per item only its expressions are evaluated.

    The usual filter has expressions only in ``leftValue``/``rightValue``: those are evaluated one by one. Any
    other expression (in the options, an operator …) makes the whole value resolve per item.
    """

    def __init__(self, raw: Any, settings: Mapping[str, Any]) -> None:
        self._raw: dict[str, Any] = raw if isinstance(raw, dict) else {}
        self._settings = settings
        conditions = self._raw.get("conditions") or []
        self._conditions: list[dict[str, Any]] = [dict(c) for c in conditions if isinstance(c, dict)]
        self._slots = [
            (index, key)
            for index, condition in enumerate(self._conditions)
            for key in ("leftValue", "rightValue")
            if has_expression(condition.get(key))
        ]
        rest = {k: v for k, v in self._raw.items() if k != "conditions"}
        others = [{k: v for k, v in c.items() if k not in ("leftValue", "rightValue")} for c in self._conditions]
        self._fully_dynamic = has_expression(rest) or has_expression(others)
        self._options = None if self._fully_dynamic else resolve_options(self._raw.get("options"), settings)

    def passes(self, params: Params, item_index: int) -> bool:
        """Whether the item passes; :class:`FilterError` when a value does not fit its operator."""
        if self._options is None:
            value = params.resolve(self._raw, item_index)
            return execute_filter(value, resolve_options(value.get("options"), self._settings), item_index)
        if not self._slots:
            return execute_filter(self._raw, self._options, item_index)
        conditions = list(self._conditions)
        for index, key in self._slots:
            conditions[index] = {**conditions[index], key: params.resolve(conditions[index][key], item_index)}
        value = {"conditions": conditions, "combinator": self._raw.get("combinator", "and")}
        return execute_filter(value, self._options, item_index)


def node_filter_settings(params: Params, *, loose_since: float, version: int) -> dict[str, Any]:
    """What If, Filter and Switch contribute to their filters' options (``ignoreCase``, loose validation)."""
    options = params.get("options", 0, {}) or {}
    node_version = float(params.node_version)
    if node_version < loose_since:
        loose = options.get("looseTypeValidation")
    else:
        loose = params.get("looseTypeValidation", 0, False)
    ignore_case = options.get("ignoreCase")
    return {
        "caseSensitive": None if ignore_case is None else not ignore_case,
        "loose": bool(loose),
        "version": version,
    }


def filter_version_of(node_version: float) -> int:
    """The filter version If and Filter store from their own version (n8n: 2.3 → 3, 2.2 → 2, else 1)."""
    return 3 if node_version >= 2.3 else 2 if node_version >= 2.2 else 1


def filter_error(
    ctx: ExecuteContext, error: Exception, item_index: int, loose: bool, parameter: str = "conditions"
) -> WeftError:
    """A filter failure as the node's error: n8n keeps the message and adds a hint to loosen validation.

    Errors that already are Weft errors (an expression that failed) are kept as they are; a regular expression
    that ran out of time names the node and ``parameter``."""
    if isinstance(error, WeftError):
        return error
    if isinstance(error, RegexTimedOut):
        return error.at(ctx.node.name, parameter, item_index)
    description = getattr(error, "description", None)
    if not description and not loose:
        description = ENABLE_LESS_STRICT_TYPE_VALIDATION
    return NodeOperationError(ctx.node.name, str(error), description=description, item_index=item_index)
