"""The contexts nodes run in: :class:`ExecuteContext` on the stack, :class:`SupplyContext` for sub-nodes.

They implement the protocols of ``weft.nodes.contract`` on top of the running execution (:class:`Execution`).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from weft.binary import Location
from weft.errors import CancelSignal, ConfigurationError, NodeOperationError, WeftError
from weft.expressions import ExpressionContext, evaluate
from weft.expressions.offload import cooperate
from weft.nodes.binary import BinaryHelpers
from weft.nodes.contract import MISSING, EngineResponse, ExecutionServices, NodeType
from weft.nodes.parameters import node_parameter
from weft.nodes.resources import ExecutionResources
from weft.workflow import MAIN, ExecuteData, Item, NodeModel, TaskData, Workflow

if TYPE_CHECKING:
    from weft.engine.loop import Execution


class _BaseContext(BinaryHelpers):
    """Parameters, expressions, credentials and sub-node data: what both contexts share."""

    def __init__(
        self,
        execution: Execution,
        node: NodeModel,
        node_type: NodeType,
        *,
        run_index: int,
        input_data: dict[str, list[list[Item] | None]],
        input_source: dict[str, Any] | None,
        connection_input: list[Item],
        from_ai_args: dict[str, Any] | None = None,
    ) -> None:
        self._execution = execution
        self.node = node
        self.node_type = node_type
        self.workflow: Workflow = execution.workflow
        self.mode = execution.mode
        self.run_index = run_index
        self.execution_id = execution.execution_id
        self.binary_data = execution.options.binary_data
        self.file_access = execution.options.file_access
        self.compression_limits = execution.options.compression_limits
        self.binary_location = Location(str(self.workflow.id or ""), str(self.execution_id or ""))
        self.services: ExecutionServices | None = execution.services
        self._input_data = input_data
        self._input_source = input_source
        self._connection_input = connection_input
        self._from_ai_args = from_ai_args
        self._expression_context: ExpressionContext | None = None

    # ------------------------------------------------------------------ parameters and expressions

    def expression_context(self) -> ExpressionContext:
        if self._expression_context is None:
            options = self._execution.options
            self._expression_context = ExpressionContext(
                workflow=self.workflow,
                node_name=self.node.name,
                run_index=self.run_index,
                connection_input=self._connection_input,
                input_data=self._input_data,
                input_source=self._input_source,
                run_execution_data=self._execution.data,
                mode=self.mode,
                execution_id=self.execution_id,
                resume_url=self._execution.resume_url(),
                custom_data=self._execution.custom_data,
                variables=options.variables,
                allow_env=options.allow_env,
                timezone=self.workflow.settings.timezone or options.timezone,
                from_ai_args=self._from_ai_args,
                limits=options.expression_limits,
            )
        return self._expression_context

    def get_node_parameter(
        self,
        name: str,
        item_index: int = 0,
        default: Any = MISSING,
        *,
        raw: bool = False,
        extract_value: bool = False,
    ) -> Any:
        cooperate()  # read per item in the nodes' loops: a long loop lets other requests through
        return node_parameter(
            self.node.name,
            self.node.parameters,
            self.node_type.description.defaults,
            name,
            item_index,
            default,
            raw=raw,
            extract_value=extract_value,
            context=self.expression_context,
        )

    def evaluate_expression(self, expression: str, item_index: int = 0, *, parameter: str | None = None) -> Any:
        cooperate()
        return evaluate(expression, self.expression_context(), item_index, parameter=parameter)

    def get_input_data(self, input_index: int = 0, connection_type: str = MAIN) -> list[Item]:
        inputs = self._input_data.get(connection_type) or []
        if input_index >= len(inputs):
            return []
        return inputs[input_index] or []

    # ------------------------------------------------------------------ collaborators

    async def get_credentials(self, credential_type: str) -> dict[str, Any]:
        if self.services is None:
            raise ConfigurationError(
                f"Node {self.node.name!r} needs a credential of type {credential_type!r}, but this execution has "
                "no credential store. Import it with 'weft import:credentials' and run through the server or CLI.",
            )
        return await self.services.get_credentials(self, credential_type)  # type: ignore[arg-type]

    async def get_input_connection_data(self, connection_type: str, item_index: int = 0) -> list[Any]:
        return await self._execution.supply_sub_node_data(self, connection_type, item_index)

    def check_cancelled(self) -> None:
        reason = self._execution.cancel_reason
        if reason is not None:
            raise CancelSignal(reason)

    def execution_resources(self) -> ExecutionResources:
        return self._execution.resources


class ExecuteContext(_BaseContext):
    """The context of a node on the execution stack (``weft.nodes.contract.ExecuteContext``)."""

    def __init__(
        self,
        execution: Execution,
        node: NodeModel,
        node_type: NodeType,
        execute_data: ExecuteData,
        *,
        run_index: int,
        connection_input: list[Item],
        engine_response: EngineResponse | None,
    ) -> None:
        from_ai = None
        if execute_data["node"].get("rewireOutputLogTo") and connection_input:
            from_ai = dict(connection_input[0]["json"])
        super().__init__(
            execution,
            node,
            node_type,
            run_index=run_index,
            input_data=execute_data["data"],
            input_source=execute_data.get("source"),
            connection_input=connection_input,
            from_ai_args=from_ai,
        )
        self.execute_data = execute_data
        self.engine_response = engine_response

    def continue_on_fail(self) -> bool:
        if self.node.continueOnFail or self.node.onError in ("continueRegularOutput", "continueErrorOutput"):
            return True
        return bool(self.execute_data["node"].get("rewireOutputLogTo")) and self.node.onError != "stopWorkflow"

    def get_context(self, kind: Literal["node", "flow"]) -> dict[str, Any]:
        key = "flow" if kind == "flow" else f"node:{self.node.name}"
        context_data: dict[str, Any] = self._execution.data["executionData"]["contextData"]
        return context_data.setdefault(key, {})  # type: ignore[no-any-return]

    def put_execution_to_wait(self, wait_till: datetime, *, resume_node: bool = False) -> None:
        from weft.engine.entry_metadata import EntryMetadata
        from weft.engine.irun import iso

        if EntryMetadata.of(self.execute_data).concurrent_group is not None:
            raise NodeOperationError(
                self.node.name,
                "A tool that waits cannot run concurrently with other tools",
                description="Turn off the agent's 'runToolCallsConcurrently' option to let this tool wait.",
            )
        if wait_till.tzinfo is None:
            wait_till = wait_till.replace(tzinfo=UTC)
        self._execution.data["waitTill"] = iso(wait_till.astimezone(UTC))
        if resume_node:
            self._execution.data["waitReason"] = "resume-node"

    def get_resume_url(self) -> str:
        return self._execution.resume_url() or ""

    def is_streaming(self) -> bool:
        execution = self._execution
        return execution.options.streaming and execution.hooks.has("sendChunk")

    async def send_chunk(self, kind: str, content: Any = None) -> None:
        await self._execution.hooks.run(
            "sendChunk",
            {
                "type": kind,
                "content": content,
                "metadata": {"nodeId": self.node.id, "nodeName": self.node.name, "runIndex": self.run_index},
            },
        )


class SupplyContext(_BaseContext):
    """The context of a sub-node supplying data to ``parent`` (``weft.nodes.contract.SupplyDataContext``).

    Each call the sub-node makes is recorded as one run of the sub-node, with ``source`` → the parent.
    """

    def __init__(self, execution: Execution, node: NodeModel, node_type: NodeType, parent: _BaseContext) -> None:
        super().__init__(
            execution,
            node,
            node_type,
            run_index=parent.run_index,
            input_data=parent._input_data,
            input_source=parent._input_source,
            connection_input=parent._connection_input,
            from_ai_args=parent._from_ai_args,
        )
        self.parent_node_name = parent.node.name
        self._parent_run_index = parent.run_index
        self._started: dict[int, float] = {}

    def add_input_data(self, connection_type: str, data: list[list[Item]]) -> int:
        runs = self._execution.run_data.setdefault(self.node.name, [])
        run_index = len(runs)
        task: TaskData = {
            "startTime": int(time.time() * 1000),
            "executionIndex": self._execution.next_execution_index(),
            "executionTime": 0,
            "executionStatus": "running",
            "source": [{"previousNode": self.parent_node_name, "previousNodeRun": self._parent_run_index}],
        }
        if data:  # a sub-node that failed to supply its data has no input (n8n: cases a051, a145)
            task["inputOverride"] = {connection_type: data}  # type: ignore[dict-item]
            # as n8n: the input is the run's data until the output replaces it (a failed run keeps it; a066)
            task["data"] = {connection_type: data}  # type: ignore[dict-item]
        runs.append(task)
        self._started[run_index] = time.perf_counter()
        self._execution.fire("nodeExecuteBefore", self.node.name, task)
        return run_index

    def add_output_data(
        self,
        connection_type: str,
        run_index: int,
        data: list[list[Item]] | BaseException,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        task = self._execution.run_data[self.node.name][run_index]
        started = self._started.pop(run_index, time.perf_counter())
        task["executionTime"] = int((time.perf_counter() - started) * 1000)
        if isinstance(data, BaseException):
            from weft.engine.outcomes import error_to_json

            task["executionStatus"] = "error"
            task["error"] = error_to_json(data, self.node.name)
        else:
            task["executionStatus"] = "success"
            task["data"] = {connection_type: data}  # type: ignore[dict-item]
        if metadata:
            task["metadata"] = metadata
        self._execution.fire("nodeExecuteAfter", self.node.name, task, self._execution.data)


def wrap_node_error(error: BaseException, node_name: str) -> WeftError:
    """Non-Weft exceptions from node code become a :class:`NodeOperationError` naming the node."""
    if isinstance(error, WeftError):
        return error
    wrapped = NodeOperationError(node_name, str(error) or type(error).__name__)
    wrapped.__cause__ = error
    return wrapped
