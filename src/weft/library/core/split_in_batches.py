"""Loop Over Items (``n8n-nodes-base.splitInBatches`` v3): hands out ``batchSize`` items per run.

Output 0 is ``done``, output 1 is ``loop``. The node keeps its state in the node context, as n8n's
``SplitInBatchesV3``: ``items`` still to hand out, ``processedItems`` that came back from the loop,
``currentRunIndex``, ``maxRunIndex``, ``sourceData``, ``noItemsLeft`` and ``done``. When no items are left,
``done`` gets every processed item once. The legacy one-output versions 1 and 2 live in
:mod:`._split_in_batches_v1`.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from weft.library.core._split_in_batches_v1 import execute_split_in_batches_v1
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params
from weft.workflow import MAIN, Item, NodeOutput


class SplitInBatches(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.splitInBatches",
        display_name="Loop Over Items (Split in Batches)",
        versions=(1, 2, 3),
        description="Split data into batches and iterate over each batch",
        group=("organization",),
        outputs=(MAIN, MAIN),
        defaults={"batchSize": 1, "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput | None:
        if ctx.node.typeVersion < 3:
            return execute_split_in_batches_v1(ctx)
        params = Params(ctx)
        items = list(ctx.get_input_data())
        state = ctx.get_context("node")
        batch_size = max(1, int(params.get("batchSize", 0, 1)))
        options = params.get("options", 0, {}) or {}
        source = _input_source(ctx)
        if "items" not in state or options.get("reset") is True:
            # 1. first run (or reset): keep the input, hand out the first batch
            state["currentRunIndex"] = 0
            state["maxRunIndex"] = -(-len(items) // batch_size)
            state["sourceData"] = copy.deepcopy(source)
            batch = items[:batch_size]
            state["items"] = [dict(i) for i in items[batch_size:]]
            state["processedItems"] = []
        else:
            # 2. the loop came back: remember what it produced, hand out the next batch
            state["currentRunIndex"] += 1
            batch = [_with_source(i, state.get("sourceData")) for i in state["items"][:batch_size]]
            state["items"] = state["items"][batch_size:]
            returned = [{**i, "pairedItem": {"sourceOverwrite": source, "item": n}} for n, i in enumerate(items)]
            state["processedItems"] = [*state["processedItems"], *returned]
        state["noItemsLeft"] = not state["items"]
        if not batch:
            state["done"] = True
            return [list(state["processedItems"]), []]
        state["done"] = False
        return [[], batch]


def _input_source(ctx: ExecuteContext) -> Any:
    """n8n ``getInputSourceData()``: where main input 0 came from."""
    execute_data = getattr(ctx, "execute_data", None) or {}
    sources = (execute_data.get("source") or {}).get(MAIN) or []
    return sources[0] if sources else None


def _with_source(item: dict[str, Any], source: Any) -> Item:
    """n8n ``getPairedItemInformation``: a stored item's pairing, pointing at the loop's original input."""
    paired = item.get("pairedItem")
    if paired is None:
        new_paired: Any = {"item": 0, "sourceOverwrite": source}
    elif isinstance(paired, list):
        new_paired = [_add_source(p, source) for p in paired]
    else:
        new_paired = _add_source(paired, source)
    return {**item, "pairedItem": new_paired}  # type: ignore[typeddict-item]


def _add_source(paired: Any, source: Any) -> dict[str, Any]:
    if isinstance(paired, int):
        return {"item": paired, "sourceOverwrite": source}
    return {**paired, "sourceOverwrite": source}
