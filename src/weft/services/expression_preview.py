"""The editor's live preview of an expression (n8n's inline expression editor output): evaluate a template for
one node of the workflow as edited, on that node's input in an execution's run data, and show the result as n8n's
editor shows it (``[empty]``, ``[undefined]``, ``null``, ``[Object: {"a": 1}]``, ``[Array: [1,2]]``, errors in
brackets).

The evaluation is Weft's sandboxed expression engine with the instance's limits, in a user-code worker thread
(off the event loop). The execution must be one of the workflow sent: a preview never reads another workflow's
run data. Without an execution the node gets one empty item, as n8n's editor does before any run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from weft.engine.options import EngineOptions
from weft.errors import ExpressionError
from weft.expressions import ExpressionContext, evaluate
from weft.expressions.offload import run_in_worker
from weft.expressions.template import parse_template
from weft.workflow import Item, RunExecutionData, SourceData, TaskData, Workflow

#: n8n's ``expressionModalInput`` texts for the errors that mean "no data yet".
NO_EXECUTION = "The workflow hasn't been executed yet"
UNEXECUTED_PREFIX = "Node '"
UNEXECUTED_SUFFIX = "' hasn't been executed"


@dataclass(frozen=True, slots=True)
class PreviewResult:
    """The text the editor shows, and the error (message, description) when the expression failed."""

    result: str
    error: dict[str, str | None] | None = None


@dataclass(frozen=True, slots=True)
class NodeInput:
    """What the node is given in the preview: its main input items and where they came from."""

    items: list[Item]
    source: SourceData | None
    run_index: int


def node_input(workflow: Workflow, run_data: dict[str, list[TaskData]], name: str, run_index: int) -> NodeInput:
    """The input of run ``run_index`` of ``name``: what its ``source`` parent gave it (an AI sub-node's
    ``inputOverride``); before it ran, its parent's last output or pinned data; else nothing."""
    runs = run_data.get(name) or []
    if runs:
        index = min(max(run_index, 0), len(runs) - 1)
        task = runs[index]
        override = task.get("inputOverride")
        if isinstance(override, dict):
            for lists in override.values():
                if lists and lists[0]:
                    return NodeInput(list(lists[0]), None, index)
        for source in task.get("source") or []:
            if source and source.get("previousNode"):
                items = _output(
                    run_data,
                    source["previousNode"],
                    source.get("previousNodeRun") or 0,
                    source.get("previousNodeOutput") or 0,
                )
                return NodeInput(items, source, index)
    return _parent_input(workflow, run_data, name)


def _parent_input(workflow: Workflow, run_data: dict[str, list[TaskData]], name: str) -> NodeInput:
    """Before ``name`` ran: the last output of its first main parent that ran, or that parent's pinned data."""
    for edges in workflow.inputs(name):
        for edge in edges:
            parent_runs = run_data.get(edge.source) or []
            if parent_runs:
                last = len(parent_runs) - 1
                source = SourceData(
                    previousNode=edge.source, previousNodeOutput=edge.source_index, previousNodeRun=last
                )
                return NodeInput(_output(run_data, edge.source, last, edge.source_index), source, 0)
            pinned = workflow.pin_data.get(edge.source)
            if pinned:
                items = [Item(json=dict(each.get("json") or {})) for each in pinned]
                return NodeInput(items, SourceData(previousNode=edge.source), 0)
    return NodeInput([], None, 0)


def _output(run_data: dict[str, list[TaskData]], name: str, run: int, output: int) -> list[Item]:
    runs = run_data.get(name) or []
    if run >= len(runs):
        return []
    main = (runs[run].get("data") or {}).get("main") or []
    return list(main[output] or []) if output < len(main) else []


def context_for(
    workflow: Workflow,
    name: str,
    data: RunExecutionData | None,
    options: EngineOptions,
    *,
    execution_id: str | None,
    run_index: int = 0,
) -> ExpressionContext:
    """The expression context of a preview of node ``name`` (one empty item when there is no input)."""
    result = data.get("resultData") if data else None
    run_data: dict[str, list[TaskData]] = dict(result.get("runData") or {}) if result else {}
    given = node_input(workflow, run_data, name, run_index)
    items = given.items or [Item(json={})]
    return ExpressionContext(
        workflow=workflow,
        node_name=name,
        run_index=given.run_index,
        connection_input=items,
        input_data={"main": [items]},
        input_source={"main": [given.source]} if given.source else None,
        run_execution_data=data,
        mode="manual",
        execution_id=execution_id,
        variables=options.variables,
        allow_env=options.allow_env,
        timezone=workflow.settings.timezone or options.timezone,
        limits=options.expression_limits,
        preview=True,
    )


def _js_text(value: Any) -> str:
    """``String(value)`` of a JSON primitive as JavaScript writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return str(value)


def shown(value: Any, kind: str = "") -> str:
    """n8n's preview text of a value (``convertObjectValueToString`` for objects); ``kind`` names what JavaScript
    had when Python's value cannot tell: ``undefined``, ``null``, ``DateTime``, ``Date``."""
    if kind in ("DateTime", "Date"):
        return f"[{kind}: {value}]"
    if value is None:
        return "null" if kind == "null" else "[undefined]"
    if isinstance(value, dict | list):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        text = text.replace(',"', ', "').replace('":', '": ')
        return f"[{'Object' if isinstance(value, dict) else 'Array'}: {text}]"
    if value == "":
        return "[empty]"
    return _js_text(value)


def error_text(error: ExpressionError) -> str:
    """The bracketed text the editor shows for a failed expression (n8n's ``expressionModalInput`` messages)."""
    message = error.message
    if message.startswith(NO_EXECUTION):
        return "[Execute previous nodes for preview]"
    if message.startswith(UNEXECUTED_PREFIX) and message.endswith(UNEXECUTED_SUFFIX):
        node = message[len(UNEXECUTED_PREFIX) : -len(UNEXECUTED_SUFFIX)]
        return f"[Execute node \u2018{node}\u2019 for preview]"
    return f"[{message}]"


_KIND_JS = (
    "((v) => v === undefined ? 'undefined' : v === null ? 'null' : (v && v.isLuxonDateTime) ? 'DateTime'"
    " : v instanceof Date ? 'Date' : '')"
)


def _kind(expression: str, value: Any, ctx: ExpressionContext, item_index: int) -> str:
    """What JavaScript had for a one-segment template whose value Python cannot tell apart (null or undefined,
    a date as its ISO text): the segment evaluated again inside a type check (expressions have no side effects)."""
    if value is not None and not isinstance(value, str):
        return ""
    template = parse_template(expression[1:])
    if not template.is_single:
        return ""
    code = template.segments[0].statements.first  # n8n: the value of `{{ x; }}` is x
    try:
        kind = evaluate(f"={{{{ {_KIND_JS}(({code})) }}}}", ctx, item_index)
    except ExpressionError:
        return ""
    return kind if isinstance(kind, str) else ""


def preview_now(expression: str, ctx: ExpressionContext, item_index: int) -> PreviewResult:
    """Evaluate ``expression`` (a parameter value: ``=`` and a template, or plain text) for item ``item_index``."""
    if not expression.startswith("="):
        return PreviewResult(shown(expression))
    try:
        value = evaluate(expression, ctx, item_index)
    except ExpressionError as error:
        return PreviewResult(error_text(error), {"message": error.message, "description": error.description})
    return PreviewResult(shown(value, _kind(expression, value, ctx, item_index)))


async def preview(expression: str, ctx: ExpressionContext, item_index: int) -> PreviewResult:
    """:func:`preview_now` in a user-code worker thread, so a slow expression never holds the event loop."""
    return await run_in_worker(preview_now, expression, ctx, item_index)
