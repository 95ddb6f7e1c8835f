"""Code (``n8n-nodes-base.code``): the user's JavaScript, run in the expression sandbox.

Modes as n8n's: ``runOnceForAllItems`` (default) returns the output items; ``runOnceForEachItem`` runs once
per input item and returns that item's output (paired to it). With ``continueOnFail``, a failing item (or,
running once for all items, the whole run) becomes ``{json: {error: message}}``. Version 2's ``language``
``pythonNative`` (or the legacy ``python``) runs ``pythonCode`` in a confined child process
(``_python_code``, docs/python-code.md); version 1 is JavaScript only, as n8n's.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.expressions import CodeResult, run_code, run_code_for_item
from weft.expressions.code import code_deadline
from weft.expressions.offload import run_in_worker
from weft.library.core._python_code import execute_python
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

DEFAULT_JS = """// Loop over input items and add a new field called 'myNewField' to the JSON of each one
for (const item of $input.all()) {
  item.json.myNewField = 1;
}

return $input.all();"""


class Code(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.code",
        display_name="Code",
        versions=(1, 2),
        description="Run custom JavaScript or Python code",
        defaults={"mode": "runOnceForAllItems", "language": "javaScript", "jsCode": DEFAULT_JS, "pythonCode": ""},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        language = ctx.get_node_parameter("language", 0, "javaScript") if ctx.node.typeVersion == 2 else "javaScript"
        if language in ("python", "pythonNative"):
            return await execute_python(ctx)
        if language != "javaScript":
            raise NodeOperationError(
                ctx.node.name,
                f"Unsupported language: {language}",
                description="Set 'language' to 'javaScript' or 'pythonNative'.",
            )
        mode = ctx.get_node_parameter("mode", 0, "runOnceForAllItems")
        code = str(ctx.get_node_parameter("jsCode", 0, raw=True))
        # user code runs in a worker thread, never on the event loop: a `while (true) {}` holds only its thread
        # (until the time limit ends it) while the server answers other requests
        # (weft.expressions.offload's pool, not asyncio's default executor: the database calls use that one)
        if mode == "runOnceForEachItem":
            return [await run_in_worker(self._each_item, ctx, code)]
        expression_ctx = ctx.expression_context()
        try:
            result = await run_in_worker(run_code, code, expression_ctx, _static_data(ctx))
        except NodeError as exc:
            if not ctx.continue_on_fail():
                raise
            # as n8n's task runner: no pairedItem; the engine pairs it only where that is unambiguous
            return [[{"json": {"error": exc.message}}]]
        return [result.items]

    def _each_item(self, ctx: ExecuteContext, code: str) -> list[Item]:
        _refuse_all_items_methods(ctx.node.name, code)
        expression_ctx = ctx.expression_context()
        static_data = _static_data(ctx)
        deadline = code_deadline(expression_ctx)  # one limit for the whole run, as n8n's task timeout
        out: list[Item] = []
        for index in range(len(ctx.get_input_data())):
            try:
                result: CodeResult = run_code_for_item(code, expression_ctx, index, static_data, deadline)
            except NodeError as exc:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": exc.message}, "pairedItem": {"item": index}})
                continue
            out.extend(result.items)
        return out


def _static_data(ctx: ExecuteContext) -> dict[str, Any] | None:
    """The workflow's static data for ``$getWorkflowStaticData`` (none in a context without a workflow)."""
    workflow = getattr(ctx, "workflow", None)
    return None if workflow is None else workflow.static_data


_ALL_ITEMS_METHOD = re.compile(r"\$input\.(first|last|all|itemMatching)")


def _refuse_all_items_methods(node_name: str, code: str) -> None:
    """n8n's ``validateNoDisallowedMethodsInRunForEach``: ``$input.all()`` and the like need all items."""
    match = _ALL_ITEMS_METHOD.search(code)
    if match is None:
        return
    method = match.group(1)
    for number, line in enumerate(code.split("\n"), start=1):
        line = line.lstrip()
        if method in line and not line.startswith(("//", "/*", "*")):
            raise NodeOperationError(
                node_name,
                f"Can't use .{method}() here [line {number}, for item 0]",
                description="This is only available in 'Run Once for All Items' mode",
                item_index=0,
            )
