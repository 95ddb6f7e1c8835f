"""Running another node type's logic inside Item Lists: a context that shows it its own parameters.

Item Lists (``itemLists``) bundles what became separate nodes (Split Out, Aggregate, Remove Duplicates, Sort,
Limit, Summarize). Item Lists runs their ``execute`` with a :class:`DelegatedContext`: everything is the Item
Lists node's context (its name in errors, its input, its expressions) except the node's ``typeVersion`` and
``parameters``, and the parameter defaults, which are those of the node type that does the work.
"""

from __future__ import annotations

from typing import Any

from weft.nodes.contract import MISSING, ExecuteContext, NodeType
from weft.nodes.parameters import node_parameter
from weft.workflow import NodeOutput


class DelegatedContext:
    """``ctx`` as the node type ``worker`` (at ``version``, with ``parameters``) should see it."""

    def __init__(self, ctx: ExecuteContext, worker: NodeType, version: float, parameters: dict[str, Any]) -> None:
        self._ctx = ctx
        self._worker = worker
        self.node = ctx.node.model_copy(update={"typeVersion": version, "parameters": parameters})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)

    def get_node_parameter(
        self,
        name: str,
        item_index: int = 0,
        default: Any = MISSING,
        *,
        raw: bool = False,
        extract_value: bool = False,
    ) -> Any:
        """As the engine's ``get_node_parameter``, over the delegated parameters and the worker's defaults."""
        return node_parameter(
            self.node.name,
            self.node.parameters,
            self._worker.description.defaults,
            name,
            item_index,
            default,
            raw=raw,
            extract_value=extract_value,
            context=self._ctx.expression_context,
        )


async def run_as(ctx: ExecuteContext, worker: NodeType, version: float, parameters: dict[str, Any]) -> NodeOutput:
    """The output of ``worker`` run at ``version`` with ``parameters`` on the Item Lists node's input."""
    delegated: Any = DelegatedContext(ctx, worker, version, parameters)
    output = await worker.execute(delegated)
    if not isinstance(output, list):
        return [[]]
    return output
