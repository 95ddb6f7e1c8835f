"""The context a node runs in when an agent calls it inline as a tool (n8n's tool ``SupplyDataContext``).

It wraps the sub-node's supply context: the one input item is the model's arguments (``getInputData`` of the
``ai_tool`` input), ``$fromAI()`` reads them, and everything else (credentials, services, cancellation, the
workflow) comes from the wrapped context.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any, Literal

from weft.errors import NodeOperationError
from weft.expressions import ExpressionContext, evaluate
from weft.nodes.contract import MISSING, EngineResponse, ExecutionServices, SupplyDataContext
from weft.nodes.resources import ExecutionResources
from weft.workflow import MAIN, Item, NodeModel, Workflow


class ToolCallContext:
    """An :class:`~weft.nodes.contract.ExecuteContext` for one inline tool call."""

    engine_response: EngineResponse | None = None

    def __init__(self, parent: SupplyDataContext, item: Item, *, run_index: int) -> None:
        self._parent = parent
        self._item = item
        self.node: NodeModel = parent.node
        self.workflow: Workflow = parent.workflow
        self.mode: str = parent.mode
        self.run_index = run_index
        self.execution_id = parent.execution_id
        self.services: ExecutionServices | None = getattr(parent, "services", None)
        self._context: dict[str, dict[str, Any]] = {}
        self._expression_context: ExpressionContext | None = None

    def __getattr__(self, name: str) -> Any:
        """Whatever else the engine's context offers (execution resources …) comes from the wrapped context."""
        return getattr(self._parent, name)

    def expression_context(self) -> ExpressionContext:
        if self._expression_context is None:
            base = self._parent.expression_context()
            self._expression_context = dataclasses.replace(
                base,
                run_index=self.run_index,
                connection_input=[self._item],
                input_data={MAIN: [[self._item]]},
                from_ai_args=dict(self._item["json"]),
            )
        return self._expression_context

    def get_node_parameter(
        self, name: str, item_index: int = 0, default: Any = MISSING, *, raw: bool = False, extract_value: bool = False
    ) -> Any:
        value = self._parent.get_node_parameter(name, item_index, default, raw=True)
        if not raw:
            value = evaluate(value, self.expression_context(), item_index, parameter=name)
        if extract_value and isinstance(value, dict) and value.get("__rl"):
            value = value.get("value")
        return value

    def evaluate_expression(self, expression: str, item_index: int = 0, *, parameter: str | None = None) -> Any:
        return evaluate(expression, self.expression_context(), item_index, parameter=parameter)

    def get_input_data(self, input_index: int = 0, connection_type: str = MAIN) -> list[Item]:
        return [self._item] if input_index == 0 else []

    async def get_input_connection_data(self, connection_type: str, item_index: int = 0) -> list[Any]:
        return await self._parent.get_input_connection_data(connection_type, item_index)

    async def get_credentials(self, credential_type: str) -> dict[str, Any]:
        return await self._parent.get_credentials(credential_type)

    def check_cancelled(self) -> None:
        self._parent.check_cancelled()

    def execution_resources(self) -> ExecutionResources:
        return self._parent.execution_resources()

    def continue_on_fail(self) -> bool:
        return bool(self.node.continueOnFail) or self.node.onError in ("continueRegularOutput", "continueErrorOutput")

    def get_context(self, kind: Literal["node", "flow"]) -> dict[str, Any]:
        return self._context.setdefault(kind, {})

    def put_execution_to_wait(self, wait_till: datetime, *, resume_node: bool = False) -> None:
        raise NodeOperationError(self.node.name, "A node run as a tool inside an agent cannot wait")

    def get_resume_url(self) -> str:
        return ""

    def is_streaming(self) -> bool:
        return False

    async def send_chunk(self, kind: str, content: Any = None) -> None:
        """Tools do not stream."""


__all__ = ["ToolCallContext"]
