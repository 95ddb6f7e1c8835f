"""The Code node's Python (``language: pythonNative``, and the legacy ``python``), as n8n's native task runner.

The code is the body of a function; running once for all items it reads ``_items`` (the input items, each
``{"json": …, "binary": …}``) and returns a list of items or dictionaries; running once for each item it
reads ``_item`` and returns one dictionary (``None`` drops the item), paired to that item. ``print`` goes to
the log. It runs in a confined child process (:mod:`weft.sandbox_py`), never in Weft's own.
"""

from __future__ import annotations

import logging
from typing import Any

from weft.errors import NodeOperationError
from weft.expressions.normalize import normalize_all_items, validate_item
from weft.nodes.contract import ExecuteContext
from weft.sandbox_py import PythonSandboxConfig, PythonTask, ensure_enabled, run_python
from weft.workflow import Item, NodeOutput

logger = logging.getLogger("weft.code.python")

#: n8n's ``PYTHON_TEXT_KEYS``: Python's words in the result-validation messages.
_PYTHON_WORDS = (("an array of objects", "an array of dictionaries"), ("an object", "a dictionary"))


async def execute_python(ctx: ExecuteContext) -> NodeOutput:
    """Run the node's ``pythonCode`` over its input items."""
    config = PythonSandboxConfig.from_env()
    ensure_enabled(ctx.node.name, config)
    mode = str(ctx.get_node_parameter("mode", 0, "runOnceForAllItems"))
    items = ctx.get_input_data()
    task = PythonTask(
        node_name=ctx.node.name,
        code=ctx.get_node_parameter("pythonCode", 0, "", raw=True),
        mode=mode,
        items=[_plain(item) for item in items],
        timeout_s=ctx.expression_context().limits.code_time_s,
        continue_on_fail=ctx.continue_on_fail(),
    )
    outcome = await run_python(task, config)
    for line in outcome.prints:
        logger.info("[Node %r] %s", ctx.node.name, " ".join(line))
    try:
        if mode == "runOnceForEachItem":
            return [[_each_item(ctx.node.name, value, index) for index, value in enumerate(_as_list(outcome.result))]]
        return [normalize_all_items(ctx.node.name, outcome.result)]
    except NodeOperationError as exc:
        raise _in_python_words(exc) from None


def _plain(item: Item) -> dict[str, Any]:
    """What n8n sends the runner of an item: its ``json``, ``binary`` and ``pairedItem``."""
    return {key: value for key, value in item.items() if key in ("json", "binary", "pairedItem")}


def _as_list(result: Any) -> list[Any]:
    return result if isinstance(result, list) else []


def _each_item(node_name: str, value: Any, index: int) -> Item:
    """n8n's ``validateRunCodeEachItem`` over one entry the runner made (``{json, pairedItem, binary?}``)."""
    if not isinstance(value, dict):
        raise NodeOperationError(node_name, "Code doesn't return a single object", item_index=index)
    validate_item(node_name, value, index)
    out: dict[str, Any] = {"json": value["json"]}
    if "pairedItem" in value:  # the runner pairs each result; its continueOnFail error item has none
        out["pairedItem"] = value["pairedItem"]
    if value.get("binary"):
        out["binary"] = value["binary"]
    return out  # type: ignore[return-value]


def _in_python_words(exc: NodeOperationError) -> NodeOperationError:
    message, description = exc.message, exc.description
    for js, python in _PYTHON_WORDS:
        message = message.replace(js, python)
        description = description.replace(js, python) if description else description
    return NodeOperationError(exc.node_name, message, description=description, item_index=exc.item_index)
