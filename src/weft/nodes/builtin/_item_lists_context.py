"""Running another node type's logic inside Item Lists: a context that shows it its own parameters.

Item Lists (``itemLists``) bundles what became separate nodes (Split Out, Aggregate, Remove Duplicates, Sort,
Limit, Summarize). Item Lists runs their ``execute`` with a :class:`DelegatedContext`: everything is the Item
Lists node's context (its name in errors, its input, its expressions) except the node's ``typeVersion`` and
``parameters``, and the parameter defaults, which are those of the node type that does the work.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.expressions import evaluate
from weft.nodes.contract import MISSING, ExecuteContext, NodeType
from weft.workflow import NodeOutput

_ABSENT: Any = object()


def _lookup(data: Mapping[str, Any], path: str) -> Any:
    if path in data:
        return data[path]
    current: Any = data
    for part in path.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return _ABSENT
        current = current[part]
    return current


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
        value = _lookup(self.node.parameters, name)
        if value is _ABSENT:
            value = self._worker.description.defaults.get(name, _ABSENT)
        if value is _ABSENT:
            if default is MISSING:
                raise NodeOperationError(
                    self.node.name,
                    f"Could not get parameter {name!r}",
                    description=f"Set the parameter {name!r} on node {self.node.name!r}.",
                )
            return default
        if not raw:
            value = evaluate(value, self._ctx.expression_context(), item_index, parameter=name)
        if extract_value and isinstance(value, dict) and value.get("__rl"):
            value = value.get("value")
        return value


async def run_as(ctx: ExecuteContext, worker: NodeType, version: float, parameters: dict[str, Any]) -> NodeOutput:
    """The output of ``worker`` run at ``version`` with ``parameters`` on the Item Lists node's input."""
    delegated: Any = DelegatedContext(ctx, worker, version, parameters)
    output = await worker.execute(delegated)
    if not isinstance(output, list):
        return [[]]
    return output
