"""Split In Batches v1 and v2 (``n8n-nodes-base.splitInBatches``), as n8n's ``SplitInBatchesV1``/``V2``.

The first run keeps the input in the node context and hands out the first ``batchSize`` items (default 10);
every later run hands out the next batch, each item's ``pairedItem`` pointing back at the loop's original input
(``sourceOverwrite``); ``options.reset`` starts over. ``noItemsLeft`` in the node context tells the loop it is
done.

* v1 has one output; when no items are left it returns nothing and the branch ends.
* v2 has two outputs, ``loop`` (0) and ``done`` (1): the items that came back from the loop are collected
  (``processedItems``) and, once no items are left, go out on ``done`` — Loop Over Items (v3) with its
  outputs the other way round.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from weft.library.core._legacy import legacy_param
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item, NodeOutput


def execute_split_in_batches_v1(ctx: ExecuteContext) -> NodeOutput | None:
    from weft.library.core.split_in_batches import _input_source, _with_source

    items = list(ctx.get_input_data())
    state = ctx.get_context("node")
    batch_size = max(1, int(legacy_param(ctx, "batchSize", 0, 10)))
    options = legacy_param(ctx, "options", 0, {}) or {}
    v2 = ctx.node.typeVersion >= 2
    batch: list[Item]
    if "items" not in state or options.get("reset") is True:
        # 1. first run (or reset): keep the rest of the input for the next runs
        state["currentRunIndex"] = 0
        state["maxRunIndex"] = math.ceil(len(items) / batch_size)
        state["sourceData"] = copy.deepcopy(_input_source(ctx))
        batch = items[:batch_size]
        state["items"] = [dict(i) for i in items[batch_size:]]
        if v2:
            state["processedItems"] = []
    else:
        # 2. called again (the loop came back): the next batch, paired to the loop's original input
        state["currentRunIndex"] += 1
        batch = [_with_source(i, state.get("sourceData")) for i in state["items"][:batch_size]]
        state["items"] = state["items"][batch_size:]
        if v2:
            source: Any = _input_source(ctx)
            returned = [{**i, "pairedItem": {"sourceOverwrite": source, "item": n}} for n, i in enumerate(items)]
            state["processedItems"] = [*state["processedItems"], *returned]
    state["noItemsLeft"] = not state["items"]
    if not v2:
        return [batch] if batch else None
    state["done"] = not batch
    return [batch, []] if batch else [[], list(state["processedItems"])]
