"""Item Lists (``n8n-nodes-base.itemLists`` 1, 2, 2.1, 2.2, 3, 3.1): n8n's legacy bundle of list operations.

Each operation runs the standalone node that n8n later split out of Item Lists, with the Item Lists node's
parameters (:mod:`weft.library.core._item_lists_context`): Split Out Items → Split Out, Concatenate Items
(``aggregateItems`` before 3) → Aggregate, Remove Duplicates → Remove Duplicates 1, Sort → Sort, Limit → Limit,
Summarize → Summarize 1. What differs by version is in :mod:`weft.library.core._item_lists_legacy` (1, 2.x)
and :mod:`weft.library.core._item_lists_dedupe` (3.1's Remove Duplicates).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.core._item_lists_context import DelegatedContext, run_as
from weft.library.core._item_lists_dedupe import remove_duplicates_31
from weft.library.core._item_lists_legacy import check_aggregated_fields, flatten_field_lists, split_out_fields
from weft.library.core.aggregate import Aggregate
from weft.library.core.limit import Limit
from weft.library.core.remove_duplicates import RemoveDuplicates
from weft.library.core.sort import Sort
from weft.library.core.split_out import SplitOut
from weft.library.core.summarize import Summarize
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeOutput

_OPERATIONS = ("splitOutItems", "concatenateItems", "limit", "removeDuplicates", "sort", "summarize")


class ItemLists(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.itemLists",
        display_name="Item Lists",
        versions=(1, 2, 2.1, 2.2, 3, 3.1),
        description="Helper for working with lists of items and transforming arrays",
        group=("input",),
        defaults={"resource": "itemList", "operation": "splitOutItems"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        operation = str(ctx.get_node_parameter("operation", 0, "splitOutItems"))
        if version < 3 and operation == "aggregateItems":
            operation = "concatenateItems"
        if operation not in _OPERATIONS or (version >= 3 and operation == "aggregateItems"):
            raise NodeOperationError(
                ctx.node.name,
                f'The operation "{operation}" is not supported!',
                description=f"Set 'operation' to one of {', '.join(_OPERATIONS)}.",
            )
        parameters = dict(ctx.node.parameters)
        if version < 3:
            parameters = flatten_field_lists(parameters)
        if operation == "splitOutItems":
            return await _split_out(ctx, version, parameters)
        if operation == "concatenateItems":
            return await _concatenate(ctx, version, parameters)
        if operation == "removeDuplicates":
            if version >= 3.1:
                return remove_duplicates_31(DelegatedContext(ctx, RemoveDuplicates(), 1, parameters))  # type: ignore[arg-type]
            return await run_as(ctx, RemoveDuplicates(), 1, parameters)
        if operation == "summarize":
            if version >= 2.1:  # no error for a field no item has (and, unlike Summarize 1.1, no hint)
                options = dict(parameters.get("options") or {})
                parameters["options"] = {**options, "continueIfFieldNotFound": True}
            return await run_as(ctx, Summarize(), 1, parameters)
        worker: NodeType = Limit() if operation == "limit" else Sort()
        return await run_as(ctx, worker, 1, parameters)


async def _split_out(ctx: ExecuteContext, version: float, parameters: dict[str, Any]) -> NodeOutput:
    raw = parameters.get("fieldToSplitOut", "")
    if version < 2.2:
        delegated: Any = DelegatedContext(ctx, SplitOut(), 1, parameters)
        for index in range(len(ctx.get_input_data())):
            split_out_fields(delegated, version, index)
    if version < 2 and isinstance(raw, str) and not raw.startswith("="):
        parameters["fieldToSplitOut"] = [raw]  # version 1 splits out one field, commas and all
    elif version >= 3 and isinstance(raw, str) and not raw.startswith("="):
        parameters["fieldToSplitOut"] = [field.strip().removeprefix("$json.") for field in raw.split(",")]
    return await run_as(ctx, SplitOut(), 1, parameters)


async def _concatenate(ctx: ExecuteContext, version: float, parameters: dict[str, Any]) -> NodeOutput:
    if version < 2.1:
        check_aggregated_fields(DelegatedContext(ctx, Aggregate(), 1, parameters))  # type: ignore[arg-type]
    output = await run_as(ctx, Aggregate(), 1, parameters)
    if version < 2 and parameters.get("aggregate") == "aggregateAllItemData":
        for item in output[0] or []:  # version 1 pairs the item with nothing
            item.pop("pairedItem", None)  # type: ignore[misc]
    return output
