"""Running a Code node's JavaScript in the sandbox, with n8n's result rules and error messages.

The user's code becomes the body of an async function ``VmCodeWrapper`` (n8n's name for it) that sees the
same ``$``-variables as expressions (``$input``, ``$json``, ``$('Node')`` …), ``items`` (running once for all
items) or ``item`` (running once per item), a ``console`` whose output is captured, and the Node globals of
n8n's task runner (:mod:`weft.expressions.code_globals`). Errors read as n8n 2.41's ``ExecutionError``:
``"<message> [line N]"`` in both modes, the line being the innermost named function's, else the top level's.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

import _quickjs

from weft.errors import ExpressionError, NodeOperationError
from weft.expressions.code_globals import CODE_GLOBALS, FIRE_NEXT_TIMER
from weft.expressions.context import ExpressionContext
from weft.expressions.evaluator import run_with_data
from weft.expressions.normalize import UNDEFINED, normalize_all_items, normalize_one_item
from weft.expressions.runtime import (
    CODE_LINE_OFFSET,
    JsRuntime,
    code_runtime,
    discard_runtime,
    release_code_runtime,
)
from weft.workflow import Item

_FRAME = re.compile(r"at (.+?) \(<input>:(\d+):\d+\)")
#: The function the user's code runs in, named as n8n's task runner names it.
_WRAPPER = "VmCodeWrapper"


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


#: A thrown value that is not an Error, as n8n's task runner words it: an error-like object's ``message``,
#: else the value as JSON; either way without a stack, so without a line number. An Error of a user-defined
#: subclass loses its constructors' frames, as V8 leaves them out of the stack (its line is the ``throw``'s).
_NON_ERROR = (
    "function(e){if (e instanceof Error) {var names = [];"
    "for (var k = e.constructor; k && k !== Error && k.prototype instanceof Error; k = Object.getPrototypeOf(k))"
    " names.push(k.name);"
    "if (names.length && typeof e.stack === 'string') {var rows = e.stack.split('\\n');"
    "while (rows.length && names.some(function(n){return rows[0].trim().indexOf('at ' + n + ' ') === 0;}))"
    " rows.shift();"
    "try {e.stack = rows.join('\\n');} catch (_) {}}"
    "throw e;}"
    "var m = e !== null && typeof e === 'object' && typeof e.message === 'string' ? e.message : JSON.stringify(e);"
    "var x = new Error(m === undefined || m === '' ? 'Unknown error' : m); x.stack = ''; throw x;}"
)


#: Where the result carries the workflow's static data back when the code used ``$getWorkflowStaticData``.
_STATIC_KEY = "\ufdd0staticData"


def _static_prefix(static_data: dict[str, Any] | None, node_name: str) -> str:
    """``$getWorkflowStaticData(type)`` over a copy of the workflow's static data (n8n ``Workflow.getStaticData``)."""
    if static_data is None:
        return ""
    return (
        f"const __st = {json.dumps(static_data)};"
        "const $getWorkflowStaticData = (t) => {"
        "if (t !== 'global' && t !== 'node') "
        'throw new Error(\'The type needs to either be set to "global" or "node"!\');'
        f"const k = t === 'global' ? 'global' : {json.dumps('node:' + node_name)};"
        "if (__st[k] === undefined || __st[k] === null) __st[k] = {}; return __st[k];};"
    )


def _source(code: str, static_data: dict[str, Any] | None = None, node_name: str = "", per_item: bool = False) -> str:
    """The user's code as the body of an inner async function, as n8n's ``VmCodeWrapper``: the code may
    redeclare ``items``, ``$json`` … (``const items = …``), and ``undefined`` is told apart from ``null``.
    As in n8n's task runner, ``items`` exists only when running once for all items, ``item`` only per item.
    Everything before the code sits on line 1, so the code starts on line ``CODE_LINE_OFFSET + 1``."""
    newlines = "\n" * CODE_LINE_OFFSET
    value = f"r === undefined ? {json.dumps(UNDEFINED)} : r"
    if static_data is not None:
        value = f"{{{json.dumps(_STATIC_KEY)}: __st, v: {value}}}"
    return (
        "(function(){return async function(console, __items, __item){"
        f"{'const item = __item;' if per_item else 'const items = __items;'}{CODE_GLOBALS}"
        f"{_static_prefix(static_data, node_name)}"
        f"const r = await (async function {_WRAPPER}() {{{newlines}{code}\n}})().catch({_NON_ERROR});"
        f"return {value};}};}})()"
    )


def _take_static(value: Any, static_data: dict[str, Any] | None) -> Any:
    """The code's own result; the static data it changed is written back (n8n keeps it only on success)."""
    if static_data is None or not isinstance(value, dict) or _STATIC_KEY not in value:
        return value
    static_data.clear()
    static_data.update(value[_STATIC_KEY])
    return value.get("v")


def _compile(
    runtime: JsRuntime, code: str, ctx: ExpressionContext, static_data: dict[str, Any] | None, per_item: bool
) -> Any:
    """Compile the code; a syntax error reads as n8n's: its message only (the VM gives it no stack frame)."""
    if static_data is not None and "$getWorkflowStaticData" not in code:
        static_data = None
    try:
        return runtime.function(_source(code, static_data, ctx.node_name, per_item))
    except _quickjs.JSException as exc:
        text = str(exc).strip()
        first = text.splitlines()[0] if text else "SyntaxError: invalid code"
        message = _V8_UNEXPECTED.sub(r"Unexpected token \1", first.split(": ", 1)[-1].strip())
        raise NodeOperationError(ctx.node_name, message, description="SyntaxError") from None


#: QuickJS's "unexpected token in expression: ';'" is V8's (and so n8n's) "Unexpected token ';'".
_V8_UNEXPECTED = re.compile(r"^unexpected token in expression: ('.*')$")


def _line_of(stack: str) -> int | None:
    """The line n8n's ``ExecutionError`` reports: the innermost frame of a named function of the user's, else
    the frame of the code's top level. V8 prints anonymous callbacks without a location in parentheses, so
    n8n never takes their line (an error in ``items.map(i => …)`` is reported at the ``map`` call)."""
    frames = [(name, int(line) - CODE_LINE_OFFSET) for name, line in _FRAME.findall(stack)]
    frames = [(name, line) for name, line in frames if line > 0]
    for name, line in frames:
        if name not in (_WRAPPER, "<anonymous>"):
            return line
    return next((line for name, line in frames if name == _WRAPPER), None)


def _run(runtime: JsRuntime, fn: Any, ctx: ExpressionContext, item_index: int, deadline: float) -> Any:
    """Run the compiled code once (all items when ``item_index`` is -1) until ``deadline`` (``time.monotonic()``),
    which holds for the whole node run however often the code stops to ask for data; the value as Python."""
    start = runtime.api["codeStart"]
    finish = runtime.api["codeFinish"]
    per_item = item_index >= 0

    def left() -> bool:
        remaining = deadline - time.monotonic()
        runtime.limit_calls(max(remaining, 0.001))
        return remaining > 0

    def call() -> Any:
        if not left():
            discard_runtime()
            return _timeout_marker()
        start(fn, max(item_index, 0), not per_item)  # all items: $json is item 0's, as n8n's proxy
        while True:
            if not left():
                discard_runtime()
                return _timeout_marker()
            if runtime.context.execute_pending_job():
                continue
            if not runtime.context.eval(FIRE_NEXT_TIMER):  # the job queue is empty: the next timer is due
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
    """n8n 2.41's ``ExecutionError`` wording, ``<details> [line N]``, in both modes (the task runner words the
    error before it knows the item)."""
    err = failure.error
    if err.message in ("interrupted", "Expression timed out"):
        return _timed_out(ctx, item_index)
    if err.message == "Expression exceeded memory limit":
        return NodeOperationError(
            ctx.node_name, "Code exceeded memory limit", description=err.description, item_index=item_index
        )
    if getattr(err, "js_name", None) == "ExpressionError":
        # an error of n8n's own data proxy ($('…'), $input …): n8n passes it on as it is, without a line
        return NodeOperationError(
            ctx.node_name, err.message, description=err.description, item_index=item_index, run_index=ctx.run_index
        )
    line = _line_of(getattr(err, "js_stack", "") or "")
    details, kind = _details_and_type(err)
    display = "" if line is None else f"[line {line}]"
    return NodeOperationError(
        ctx.node_name,
        f"{details} {display}".strip(),
        description=kind,
        item_index=item_index,
        run_index=ctx.run_index,
    )


def _timed_out(ctx: ExpressionContext, item_index: int | None) -> NodeOperationError:
    """n8n's ``TaskRunnerTimeoutError`` (recorded: cases c900, c901), naming Weft's setting."""
    limit = ctx.limits.code_time_s
    unit = "second" if limit == 1 else "seconds"
    return NodeOperationError(
        ctx.node_name,
        f"Task execution timed out after {limit:g} {unit}",
        description="The Code node ran past its time limit, so it was stopped. You can try the following: "
        "1. Optimize your script to prevent long-running tasks, e.g. by processing data in smaller batches. "
        "2. Ensure that all paths in your script are able to terminate, i.e. no infinite loops. "
        f"3. If your task can reasonably take more than {limit:g} {unit}, increase the timeout using the "
        "WEFT_CODE_TIMEOUT environment variable.",
        item_index=item_index,
        run_index=ctx.run_index,
    )


_HEADER = re.compile(r"^(\S.*?): (.+)$")


def _details_and_type(err: ExpressionError) -> tuple[str, str | None]:
    """n8n's ``ExecutionError``: the details and type from the stack's ``<Type>: <message>`` header row."""
    name = getattr(err, "js_name", None) or "Error"
    message = err.message
    if name == "SyntaxError" and message == "invalid syntax" and err.description:
        message = err.description  # the sandbox rewords runtime syntax errors for expressions
    first = message.splitlines()[0] if message else ""
    match = _HEADER.match(f"{name}: {first}")
    if match is None or not match.group(2).strip():
        return message or "Unknown error", None
    kind = match.group(1)
    return match.group(2).strip(), None if kind.lower() == "error" else kind


def code_deadline(ctx: ExpressionContext) -> float:
    """When a Code node run that starts now must end (``time.monotonic()``): its limit holds for all its items."""
    return time.monotonic() + ctx.limits.code_time_s


def run_code(
    code: str, ctx: ExpressionContext, static_data: dict[str, Any] | None = None, deadline: float | None = None
) -> CodeResult:
    """Run ``code`` once for all input items (n8n's ``runOnceForAllItems``); items normalised as n8n does.

    ``static_data`` is the workflow's static data, which ``$getWorkflowStaticData`` reads and changes; ``deadline``
    defaults to :func:`code_deadline`."""
    runtime = code_runtime(ctx)  # a fresh context per Code node run (isolation)
    try:
        fn = _compile(runtime, code, ctx, static_data, per_item=False)
        value, logs = _run(runtime, fn, ctx, -1, code_deadline(ctx) if deadline is None else deadline)
    except _CodeFailure as failure:
        raise _node_error(ctx, failure, None) from None
    finally:
        release_code_runtime(runtime)  # the run is over: its context and its data go now
    value = _take_static(value, static_data)
    return CodeResult(items=normalize_all_items(ctx.node_name, value), logs=logs)


def run_code_for_item(
    code: str,
    ctx: ExpressionContext,
    item_index: int,
    static_data: dict[str, Any] | None = None,
    deadline: float | None = None,
) -> CodeResult:
    """Run ``code`` for one input item (n8n's ``runOnceForEachItem``); at most one item, paired to the input.
    Pass every item of one node run the same ``deadline`` (:func:`code_deadline`)."""
    runtime = code_runtime(ctx)  # a fresh context per Code node run (isolation)
    fn = _compile(runtime, code, ctx, static_data, per_item=True)
    try:
        value, logs = _run(runtime, fn, ctx, item_index, code_deadline(ctx) if deadline is None else deadline)
    except _CodeFailure as failure:
        raise _node_error(ctx, failure, item_index) from None
    value = _take_static(value, static_data)
    item = normalize_one_item(ctx.node_name, value, item_index)
    return CodeResult(items=[] if item is None else [item], logs=logs)
