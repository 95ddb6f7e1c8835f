"""Running a Code node's JavaScript in the sandbox, with n8n's result rules and error messages.

The user's code becomes the body of an async function that sees the same ``$``-variables as expressions
(``$input``, ``$json``, ``$('Node')`` …) plus ``items`` (all input items), ``item`` (per-item mode) and a
``console`` whose output is captured. Errors read as n8n's: ``"<message> [line N]"`` when running once for
all items, ``"<message> [line N, for item I]"`` when running once per item.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

import _quickjs

from weft.errors import ExpressionError, NodeOperationError
from weft.expressions.context import ExpressionContext
from weft.expressions.evaluator import run_with_data
from weft.expressions.normalize import normalize_all_items, normalize_one_item
from weft.expressions.runtime import CODE_LINE_OFFSET, JsRuntime, discard_runtime, get_runtime
from weft.workflow import Item

_FRAME_LINE = re.compile(r"<input>:(\d+):\d+")


@dataclass(slots=True)
class CodeResult:
    """What a Code run produced."""

    items: list[Item] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    """``console.log`` output, one string per call."""


class _CodeFailure(Exception):
    """Internal: the raw error of one Code run, before it is worded for the node."""

    def __init__(self, error: ExpressionError) -> None:
        super().__init__(error.message)
        self.error = error


def _source(code: str) -> str:
    newlines = "\n" * CODE_LINE_OFFSET
    return f"(function(){{return async function(console, items, item){{{newlines}{code}\n}};}})()"


def _compile(runtime: JsRuntime, code: str, ctx: ExpressionContext) -> Any:
    try:
        return runtime.function(_source(code))
    except _quickjs.JSException as exc:
        text = str(exc).strip()
        first = text.splitlines()[0] if text else "SyntaxError: invalid code"
        line = _line_of(text)
        where = f" [line {line}]" if line is not None else ""
        raise NodeOperationError(
            ctx.node_name,
            f"{first.split(': ', 1)[-1]}{where}",
            description="SyntaxError",
        ) from None


def _line_of(stack: str) -> int | None:
    for match in _FRAME_LINE.finditer(stack):
        line = int(match.group(1))
        if line > CODE_LINE_OFFSET:
            return line - CODE_LINE_OFFSET
    return None


def _run(runtime: JsRuntime, fn: Any, ctx: ExpressionContext, item_index: int) -> Any:
    """Run the compiled code once (all items when ``item_index`` is -1); the returned value as Python."""
    start = runtime.api["codeStart"]
    finish = runtime.api["codeFinish"]
    per_item = item_index >= 0

    def call() -> Any:
        deadline = time.monotonic() + ctx.limits.time_s
        start(fn, item_index, not per_item)
        while runtime.context.execute_pending_job():
            if time.monotonic() > deadline:
                discard_runtime()
                return _timeout_marker()
        return finish()

    def error(message: str, description: str | None) -> ExpressionError:
        return ExpressionError(message, description=description, node_name=ctx.node_name, item_index=item_index)

    try:
        outcome = run_with_data(runtime, ctx, call, max(item_index, 0), error)
    except ExpressionError as exc:
        raise _CodeFailure(exc) from None
    return outcome.value, outcome.logs or []


def _timeout_marker() -> str:
    return '\ufdd0E{"name":"InternalError","message":"interrupted","ours":false,"stack":""}'


def _node_error(ctx: ExpressionContext, failure: _CodeFailure, item_index: int | None) -> NodeOperationError:
    """n8n's ``ExecutionError`` wording: ``<details> [line N]`` / ``[line N, for item I]``."""
    err = failure.error
    if err.message in ("interrupted", "Expression timed out"):
        return NodeOperationError(
            ctx.node_name,
            "Code execution timed out",
            description=f"The code ran longer than {ctx.limits.time_s:g} s, its time limit. Look for an endless loop.",
            item_index=item_index,
            run_index=ctx.run_index,
        )
    if err.message == "Expression exceeded memory limit":
        return NodeOperationError(
            ctx.node_name, "Code exceeded memory limit", description=err.description, item_index=item_index
        )
    stack = getattr(err, "js_stack", "") or ""
    line = _line_of(stack)
    details, kind = _details_and_type(err)
    if line is None:
        suffix = "" if item_index is None else f" [item {item_index}]"
    elif item_index is None:
        suffix = f" [line {line}]"
    else:
        suffix = f" [line {line}, for item {item_index}]"
    return NodeOperationError(
        ctx.node_name,
        f"{details}{suffix}",
        description=err.description or kind,
        item_index=item_index,
        run_index=ctx.run_index,
    )


def _details_and_type(err: ExpressionError) -> tuple[str, str | None]:
    name = getattr(err, "js_name", None) or "Error"
    row = f"{name}: {err.message.splitlines()[0] if err.message else ''}"
    parts = [p.strip() for p in reversed(row.split(":"))]
    details = parts[0] or "Unknown error"
    kind = parts[1] if len(parts) > 1 and parts[1] != "Error" else None
    return details, kind


def run_code(code: str, ctx: ExpressionContext) -> CodeResult:
    """Run ``code`` once for all input items (n8n's ``runOnceForAllItems``); items normalised as n8n does."""
    runtime = get_runtime(ctx.limits)
    fn = _compile(runtime, code, ctx)
    try:
        value, logs = _run(runtime, fn, ctx, -1)
    except _CodeFailure as failure:
        raise _node_error(ctx, failure, None) from None
    return CodeResult(items=normalize_all_items(ctx.node_name, value), logs=logs)


def run_code_for_item(code: str, ctx: ExpressionContext, item_index: int) -> CodeResult:
    """Run ``code`` for one input item (n8n's ``runOnceForEachItem``); at most one item, paired to the input."""
    runtime = get_runtime(ctx.limits)
    fn = _compile(runtime, code, ctx)
    try:
        value, logs = _run(runtime, fn, ctx, item_index)
    except _CodeFailure as failure:
        raise _node_error(ctx, failure, item_index) from None
    item = normalize_one_item(ctx.node_name, value, item_index)
    return CodeResult(items=[] if item is None else [item], logs=logs)
