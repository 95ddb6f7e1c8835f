"""Evaluating templates: the fast path when it applies, else the sandbox, with n8n's error messages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import _quickjs

from weft.errors import ExpressionError
from weft.expressions.context import ExpressionContext
from weft.expressions.fastops import FastFn, compile_fast
from weft.expressions.fastpath import DECLINE
from weft.expressions.offload import LOOP_BUDGET_S, can_offload, run_off_loop
from weft.expressions.results import MARK, Outcome, decode, is_out_of_memory, is_stack_overflow, number, v8_message
from weft.expressions.runtime import JsObject, JsRuntime, discard_runtime, get_runtime
from weft.expressions.sandbox import blocked_reason, constructor_call
from weft.expressions.session import Session
from weft.expressions.syntax import syntax_problem
from weft.expressions.template import parse_template

#: How many times one evaluation may ask the host for data before it is considered runaway.
MAX_NEEDS = 10_000
_NOT_CALLED: Any = object()

ErrorFactory = Callable[[str, str | None], ExpressionError]


@dataclass(frozen=True, slots=True)
class Compiled:
    """A template prepared for evaluation."""

    literal: str | None
    """The value when the template has no segment."""
    fast: FastFn | None
    js: str
    blocked: str | None = None
    """n8n's message when the template must not run at all (see :mod:`weft.expressions.sandbox`)."""


@lru_cache(maxsize=8192)
def compile_template(text: str) -> Compiled:
    template = parse_template(text)
    if template.is_literal:
        return Compiled(literal=template.text, fast=None, js="")
    if constructor_call(text):
        blocked: str | None = "Expression contains invalid constructor function call"
    else:
        blocked = next(filter(None, (blocked_reason(s.code) for s in template.segments)), None)
    return Compiled(literal=None, fast=compile_fast(template), js=template.to_js(), blocked=blocked)


@lru_cache(maxsize=8192)
def _compile_expression(expression: str) -> Compiled:
    """:func:`compile_template` keyed by the parameter value itself (whose hash its string object keeps)."""
    return compile_template(expression[1:])


def evaluate_expression(expression: str, ctx: ExpressionContext, item_index: int, parameter: str | None) -> Any:
    """The value of ``expression`` (a template with its leading ``=``) for input item ``item_index``."""
    compiled = _compile_expression(expression)
    if compiled.literal is not None:
        return compiled.literal
    if compiled.blocked is not None:
        raise _expression_error(compiled.blocked, None, ctx, item_index, parameter, expression)
    if compiled.fast is not None:
        value = compiled.fast(ctx.connection_input, item_index)
        if value is not DECLINE:
            return value

    if can_offload():
        try:
            return _evaluate_js(compiled, expression, ctx, item_index, parameter, LOOP_BUDGET_S)
        except _OverBudget:  # a long one: again in a worker thread, with its whole limit, the loop going on
            return run_off_loop(lambda: _evaluate_js(compiled, expression, ctx, item_index, parameter, None))
    return _evaluate_js(compiled, expression, ctx, item_index, parameter, None)


class _OverBudget(Exception):
    """An evaluation on the event loop ran past :data:`LOOP_BUDGET_S` (it is evaluated again off the loop)."""


def _evaluate_js(
    compiled: Compiled,
    expression: str,
    ctx: ExpressionContext,
    item_index: int,
    parameter: str | None,
    budget: float | None,
) -> Any:
    """Evaluate in this thread's runtime, each call limited to ``budget`` (else the evaluation's own limit)."""

    def error(message: str, description: str | None) -> ExpressionError:
        return _expression_error(message, description, ctx, item_index, parameter, expression)

    runtime = get_runtime(ctx.limits)
    if budget is None or budget >= ctx.limits.time_s:
        runtime.limit_calls(ctx.limits.time_s)
    else:
        runtime.limit_calls(budget, budget=True)
    try:
        fn = runtime.function(compiled.js)
    except _quickjs.JSException:
        raise error("invalid syntax", _syntax_description(expression[1:], runtime, ctx, parameter)) from None
    # Hot path: the session is loaded (the node run's first evaluation loads it) and the result is a plain value.
    generation = runtime.generation
    session_for(runtime, ctx, item_index).ensure_item(item_index)
    if runtime.generation != generation:  # closing the previous session rebuilt the context: compile again
        fn = runtime.function(compiled.js)
    try:
        raw = fn(item_index)
    except (_quickjs.JSException, _quickjs.StackOverflow) as exc:
        raise crash_error(exc, ctx, error, runtime) from None
    kind = type(raw)
    if kind is str and raw[:1] != MARK:
        return raw
    if kind is int or kind is bool or raw is None:
        return raw
    if kind is float:
        return number(raw)
    generation = runtime.generation

    def call() -> Any:
        # A need that loads a bundle rebuilds the frozen context: compile again in the new one.
        return (fn if runtime.generation == generation else runtime.function(compiled.js))(item_index)

    outcome = run_with_data(runtime, ctx, call, item_index, error, first=raw)
    return outcome.value


def _syntax_description(text: str, runtime: JsRuntime, ctx: ExpressionContext, parameter: str | None) -> str:
    """n8n says only ``invalid syntax``; Weft says what, in which ``{{ }}``, of which parameter of which node."""
    problem = syntax_problem(parse_template(text), runtime.context.eval)
    where = [f"parameter {parameter!r}"] if parameter else []
    if ctx.node_name:
        where.append(f"node {ctx.node_name!r}")
    return f"{problem} ({' of '.join(where)})" if where else problem


def _expression_error(
    message: str,
    description: str | None,
    ctx: ExpressionContext,
    item_index: int,
    parameter: str | None,
    expression: str,
) -> ExpressionError:
    """The error of ``expression`` (with its ``=``) for item ``item_index`` of parameter ``parameter``."""
    return ExpressionError(
        message,
        description=description,
        node_name=ctx.node_name,
        parameter=parameter,
        item_index=item_index,
        run_index=ctx.run_index,
        expression=expression,
    )


def session_for(runtime: JsRuntime, ctx: ExpressionContext, item_index: int = 0) -> Session:
    session = runtime.session
    if isinstance(session, Session) and session.is_for(ctx):
        return session
    return Session(runtime, ctx, item_index)


def run_with_data(
    runtime: JsRuntime,
    ctx: ExpressionContext,
    call: Callable[[], JsObject],
    item_index: int,
    error: ErrorFactory,
    *,
    first: Any = _NOT_CALLED,
) -> Outcome:
    """Run ``call`` until it no longer needs data; raise the error it ends with, mapped by ``error``.

    ``first`` is the result of a call already made (the hot path), unless it is ``_NOT_CALLED``.
    """
    from weft.expressions import evaluate

    def evaluate_parameter(value: Any, index: int) -> Any:
        return evaluate(value, ctx, index)

    raw = first
    for _ in range(MAX_NEEDS):
        session = session_for(runtime, ctx, item_index)
        session.ensure_item(item_index)
        if raw is _NOT_CALLED:
            raw = guarded_call(runtime, ctx, call, error)
        outcome = decode(raw)
        raw = _NOT_CALLED
        if outcome.kind == "need":
            session.fulfil(outcome.need, evaluate_parameter)
            continue
        custom_data = outcome.error.get("cd") if outcome.kind == "error" else outcome.custom_data
        if custom_data is not None:
            ctx.custom_data.clear()
            ctx.custom_data.update(custom_data)
        if outcome.kind == "error":
            raise map_error(outcome.error, ctx, error)
        return outcome
    raise error("The expression asked for too much data", f"It requested data more than {MAX_NEEDS} times.")


def guarded_call(runtime: JsRuntime, ctx: ExpressionContext, call: Callable[[], Any], error: ErrorFactory) -> Any:
    """Call into the sandbox, turning timeouts and crashes into expression errors (and dropping the runtime)."""
    try:
        return call()
    except (_quickjs.JSException, _quickjs.StackOverflow) as exc:
        raise crash_error(exc, ctx, error, runtime) from None


def crash_error(
    exc: Exception, ctx: ExpressionContext, error: ErrorFactory, runtime: JsRuntime | None = None
) -> Exception:
    """The error for an exception that escaped the sandbox (timeout, memory, stack); drops the runtime.

    An interruption by the event loop's budget is no error: it gives :class:`_OverBudget`, and the runtime stays
    (the session is closed, so what the evaluation left behind is gone)."""
    if runtime is not None and runtime.over_budget(exc):
        runtime.end_session()
        return _OverBudget()
    discard_runtime()
    if isinstance(exc, _quickjs.StackOverflow):
        return error("Maximum call stack size exceeded", "The code recursed too deeply.")
    text = str(exc)
    if "interrupted" in text:
        return error(
            "Expression timed out",
            f"It ran longer than {ctx.limits.time_s:g} s, the time limit of one evaluation. "
            "Look for an endless loop, or raise the limit (ExpressionLimits.time_s).",
        )
    if "out of memory" in text:
        return out_of_memory(ctx, error)
    return error(v8_message(_first_line(text).split(": ", 1)[-1]), None)


def out_of_memory(ctx: ExpressionContext, error: ErrorFactory) -> ExpressionError:
    mib = ctx.limits.memory_bytes // (1024 * 1024)
    return error(
        "Expression exceeded memory limit",
        f"It needed more than the {mib} MiB the sandbox may use. "
        "Work on less data at once, or raise the limit (ExpressionLimits.memory_bytes).",
    )


def map_error(info: dict[str, Any], ctx: ExpressionContext, error: ErrorFactory) -> ExpressionError:
    """An error thrown inside the sandbox as n8n reports it."""
    if is_out_of_memory(info):
        discard_runtime()
        return out_of_memory(ctx, error)
    if is_stack_overflow(info):
        discard_runtime()
        return error("Maximum call stack size exceeded", "The code recursed too deeply.")
    message = str(info.get("message", ""))
    description = info.get("description")
    if info.get("ours"):
        exc = error(message, description)
    elif info.get("name") == "SyntaxError":
        exc = error("invalid syntax", message)
    else:
        exc = error(v8_message(message), description)
    exc.js_name = info.get("name")  # type: ignore[attr-defined]
    exc.js_stack = info.get("stack") or ""  # type: ignore[attr-defined]
    return exc


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text
