"""Expressions (L2): n8n's ``={{ … }}`` templates evaluated in a sandboxed JavaScript runtime.

* :func:`evaluate` resolves a parameter value (recursively through dicts and lists) for one item.
* :func:`run_code` runs a Code node's JavaScript (:mod:`weft.expressions.code`).
* :mod:`weft.expressions.fromai` parses ``$fromAI()`` calls and builds a tool's JSON Schema from them.

The runtime is QuickJS (PyPI ``quickjs-ng``) with Luxon, an Intl polyfill and jmespath bundled from npm
(``scripts/build_js.py``); each thread keeps one pre-loaded context, evaluations have time and memory limits,
and nothing in the sandbox can reach files, sockets, processes or (unless allowed) the environment.
"""

from __future__ import annotations

from typing import Any

from weft.expressions.code import CodeResult, run_code, run_code_for_item
from weft.expressions.context import ExpressionContext, ExpressionLimits
from weft.expressions.evaluator import evaluate_expression as _evaluate_expression
from weft.expressions.fromai import (
    FromAIArgument,
    collect_from_ai_arguments,
    extract_from_ai_calls,
    from_ai_json_schema,
)
from weft.expressions.results import UNDEFINED
from weft.expressions.runtime import get_runtime as _get_runtime
from weft.expressions.runtime import prepare_runtime as _prepare_runtime


def warm_up(limits: ExpressionLimits | None = None) -> None:
    """Create this thread's sandbox now (a few ms; Luxon loads on first use) instead of on the first expression."""
    _get_runtime(limits or ExpressionLimits())


def prepare_sandbox(limits: ExpressionLimits | None = None) -> None:
    """Start building the sandbox in a background thread and return at once: a process that will evaluate
    expressions calls it early (``weft execute`` does, before it loads the workflow and opens the database), and its
    first expression finds the sandbox ready instead of waiting for its start-up (about 9 ms)."""
    _prepare_runtime(limits or ExpressionLimits())


def is_expression(value: Any) -> bool:
    """Whether a parameter value is an expression template (a string starting with ``=``)."""
    return isinstance(value, str) and value.startswith("=")


def evaluate(value: Any, ctx: ExpressionContext, item_index: int = 0, *, parameter: str | None = None) -> Any:
    """Resolve every expression inside ``value`` (dicts and lists recursively) for one item.

    A template that is exactly one ``{{ … }}`` segment returns the raw value (number, object, array, boolean,
    ``None`` for ``undefined``); a template mixing text and segments returns a string. Raises
    :class:`~weft.errors.ExpressionError` naming the node, the parameter and the item.
    """
    if type(value) is str or isinstance(value, str):
        if value[:1] != "=":
            return value
        return _evaluate_expression(value, ctx, item_index, parameter)
    if isinstance(value, dict):
        return {k: evaluate(v, ctx, item_index, parameter=parameter) for k, v in value.items()}
    if isinstance(value, list):
        return [evaluate(v, ctx, item_index, parameter=parameter) for v in value]
    return value


__all__ = [
    "UNDEFINED",
    "CodeResult",
    "ExpressionContext",
    "ExpressionLimits",
    "FromAIArgument",
    "collect_from_ai_arguments",
    "evaluate",
    "extract_from_ai_calls",
    "from_ai_json_schema",
    "is_expression",
    "prepare_sandbox",
    "run_code",
    "run_code_for_item",
    "warm_up",
]
