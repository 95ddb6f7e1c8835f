"""Execute Workflow Trigger (``n8n-nodes-base.executeWorkflowTrigger``): where a sub-workflow starts.

It outputs the items the calling workflow sent. v1 and v1.1 with ``inputSource: passthrough`` pass them through
unchanged; v1.1 with ``inputSource: workflowInputs`` keeps only the declared fields (absent ones become
``null``; as n8n's, the trigger checks no type: the calling node's resource mapper does).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

PASSTHROUGH = "passthrough"
WORKFLOW_INPUTS = "workflowInputs"
JSON_EXAMPLE = "jsonExample"


class ExecuteWorkflowTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.executeWorkflowTrigger",
        display_name="Execute Workflow Trigger",
        versions=(1, 1.1, 1.2),
        description="Helpers for calling other n8n workflows. Used for designing modular, microservice-like workflows.",
        group=("trigger",),
        inputs=(),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        source = PASSTHROUGH
        if ctx.node.typeVersion >= 1.1:  # v1 has no input definitions
            source = ctx.get_node_parameter("inputSource", 0, _default_source(ctx), raw=True)
        if source == PASSTHROUGH:
            return [items]
        fields = _field_entries(ctx, source)
        return [[declared_item(ctx, item, index, fields) for index, item in enumerate(items)]]


def _default_source(ctx: ExecuteContext) -> str:
    """v1.1's default is ``workflowInputs`` (n8n omits it from exported JSON), but with no declared fields
    n8n would emit empty items, so Weft passes the data through instead."""
    declared = ctx.get_node_parameter("workflowInputs.values", 0, None, raw=True)
    return WORKFLOW_INPUTS if declared else PASSTHROUGH


def _field_entries(ctx: ExecuteContext, source: str) -> list[tuple[str, str]]:
    if source == WORKFLOW_INPUTS:
        values = ctx.get_node_parameter("workflowInputs.values", 0, [], raw=True) or []
        return [(str(v.get("name", "")), str(v.get("type") or "string")) for v in values if isinstance(v, dict)]
    if source == JSON_EXAMPLE:
        raw = ctx.get_node_parameter("jsonExample", 0, "{}", raw=True)
        try:
            example = json.loads(raw) if isinstance(raw, str) else raw
        except json.JSONDecodeError as exc:
            raise NodeOperationError(
                ctx.node.name,
                f"The 'JSON Example' parameter is not valid JSON: {exc.msg}",
                description="Fix the JSON example of the Execute Workflow Trigger.",
            ) from None
        if not isinstance(example, dict):
            raise NodeOperationError(ctx.node.name, "The 'JSON Example' parameter must be a JSON object")
        return [(name, _json_type(value)) for name, value in example.items()]
    raise NodeOperationError(
        ctx.node.name,
        "Internal Error: Invalid input source",
        description=f"Set 'inputSource' to {WORKFLOW_INPUTS!r}, {JSON_EXAMPLE!r} or {PASSTHROUGH!r}.",
    )


def _json_type(value: Any) -> str:
    if value is None:
        return "any"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "string"


def declared_item(
    ctx: ExecuteContext, item: Item, index: int, fields: list[tuple[str, str]], *, convert: bool | None = None
) -> Item:
    """A new item with only the declared fields, absent ones ``null`` (n8n's trigger, which checks no type).

    With ``convert`` given (the caller's ``workflowInputs.attemptToConvertTypes``), each value is checked
    against its declared type, converted when ``convert`` is true, as n8n's resource mapper does."""
    source = item.get("json") or {}
    out: dict[str, Any] = {}
    for name, type_ in fields:
        if name not in source:
            out[name] = None
            continue
        value = source[name]
        ok, converted = (True, value) if convert is None else validate_field_type(value, type_, strict=not convert)
        if not ok:
            raise NodeOperationError(
                ctx.node.name,
                f"'{name}' expects a {type_} but we got {_describe(value)}",
                description="Send a value of that type, or enable 'Attempt to Convert Types' in the Workflow Inputs.",
                item_index=index,
            )
        out[name] = converted
    return {"json": out, "pairedItem": {"item": index}}


def validate_field_type(value: Any, type_: str, *, strict: bool) -> tuple[bool, Any]:
    """``(valid, value)`` for a workflow input of ``type_`` (n8n ``validateFieldType`` with ``parseStrings``)."""
    if value is None or type_ == "any":
        return True, value
    checks = {
        "string": lambda v: isinstance(v, str),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
    }
    check = checks.get(type_)
    if check is None or check(value):
        return True, value
    if strict:
        return False, value
    return _convert(value, type_)


def _convert(value: Any, type_: str) -> tuple[bool, Any]:
    if type_ == "string":
        return True, json.dumps(value) if isinstance(value, dict | list) else _js_string(value)
    if type_ == "number":
        try:
            number = float(str(value).strip())
        except ValueError:
            return False, value
        return True, int(number) if number.is_integer() else number
    if type_ == "boolean":
        text = str(value).strip().lower()
        if text in ("true", "1"):
            return True, True
        if text in ("false", "0"):
            return True, False
        return False, value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            return False, value
        wanted = list if type_ == "array" else dict
        return (True, parsed) if isinstance(parsed, wanted) else (False, value)
    return False, value


def _js_string(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _describe(value: Any) -> str:
    """n8n ``getValueDescription``."""
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return f"'{_js_string(value)}'"
