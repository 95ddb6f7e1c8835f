"""The contract between node types and whatever runs them (the engine, the agent, tests).

A node type is a class with a :class:`NodeDescription` and an async ``execute(ctx)``. ``execute`` returns the
node's output (one list of items per output), ``None`` to end the branch, or an :class:`EngineRequest`: "run
these nodes for me and call me again with their results". The engine answers with an :class:`EngineResponse`
in ``ctx.engine_response`` on the next call. The agent (``weft.ai``) and the engine (``weft.engine``) meet here
and never import each other.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from weft.nodes.engine_request import (
    ActionMetadata,
    ActionResponse,
    EngineRequest,
    EngineResponse,
    ExecuteNodeAction,
    is_engine_request,
)
from weft.workflow import MAIN, Item, NodeModel, NodeOutput, Workflow

if TYPE_CHECKING:
    from weft.binary import Data
    from weft.expressions import ExpressionContext
    from weft.nodes.resources import ExecutionResources


class _Missing:
    """Sentinel: "no default given" (distinct from ``None``)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()

#: n8n's ``WAIT_INDEFINITELY``: a :meth:`ExecuteContext.put_execution_to_wait` time that only a resume call ends.
WAIT_INDEFINITELY = datetime(3000, 1, 1, tzinfo=UTC)


# --------------------------------------------------------------------------- tools


ToolKind = Literal["node", "toolkit", "answered", "gated"]
"""What a tool is: see :attr:`ToolSpec.kind`."""

InlineInvoke = Callable[[dict[str, Any]], Awaitable[Any]]
"""Runs a tool inside its caller (``arguments -> result``), without an engine request."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolSpec:
    """A tool as an agent sees it: name, description, JSON Schema, and the node that runs it.

    Tool sub-nodes supply one (or a list, for toolkits such as MCP) from ``supply_data``; the agent offers it to
    the model and, when the model calls it, asks the engine to run ``source_node_name``. Each field is read in
    one place: ``kind`` by the agent's tool table (:mod:`weft.ai.agent.tools`), ``timeout_ms`` there too (it
    becomes the action's :attr:`ActionMetadata.timeout_ms`), ``invoke`` by callers that run tools themselves
    (agents before version 3, the MCP Server Trigger).
    """

    name: str
    """Name the model calls (:func:`~weft.nodes.tool_names.node_name_to_tool_name` of the node, for most tools)."""
    description: str
    parameters: dict[str, Any]
    """JSON Schema of the arguments (an ``object`` schema)."""
    source_node_name: str
    """The node the engine runs for a call (for a gated tool: the gate)."""
    kind: ToolKind = "node"
    """``node``: a function run by ``source_node_name``. ``toolkit``: one of the tools a toolkit node (MCP Client
    Tool) offers; the node is run with ``tool: <name>`` added to the arguments (n8n's ``isFromToolkit``).
    ``answered``: the agent answers the call itself and nothing runs (``format_final_json_response``).
    ``gated``: ``source_node_name`` is a gate (a human approval) that must let the call through before
    ``gated_node_name`` runs (n8n's ``gatedToolNodeName``)."""
    gated_node_name: str | None = None
    """For ``gated`` tools: the tool node the gate approves."""
    timeout_ms: float | None = None
    """Bounds each run of the tool; a run that takes longer fails as a tool error."""
    invoke: InlineInvoke | None = field(default=None, compare=False)
    """Runs the tool in the caller's process (recording the sub-node's run as n8n's ``logWrapper`` does)."""

    @property
    def from_toolkit(self) -> bool:
        return self.kind == "toolkit"


# --------------------------------------------------------------------------- node description


Connections = tuple[str, ...] | Callable[[Mapping[str, Any]], tuple[str, ...]]


class _Properties:
    """The ``properties`` field: the ones given, else n8n's description of the type's default version."""

    def __get__(self, obj: NodeDescription | None, owner: type | None = None) -> tuple[Mapping[str, Any], ...]:
        if obj is None:
            return ()  # the field's default
        given: tuple[Mapping[str, Any], ...] = obj.__dict__.get("_properties", ())
        if given:
            return given
        from weft.nodes.node_properties import properties_for

        return tuple(properties_for(obj.name, obj.default_version))

    def __set__(self, obj: NodeDescription, value: tuple[Mapping[str, Any], ...]) -> None:
        obj.__dict__["_properties"] = tuple(value)


@dataclass(frozen=True, kw_only=True)
class NodeDescription:
    """What a node type is: its n8n type name, versions and connections."""

    name: str
    """Full type name as in workflow JSON: ``n8n-nodes-base.set``, ``@n8n/n8n-nodes-langchain.agent``."""
    display_name: str
    versions: tuple[float, ...] = (1,)
    """Every ``typeVersion`` a workflow may use."""
    description: str = ""
    group: tuple[str, ...] = ("transform",)
    """``trigger`` marks start nodes; ``input``, ``output``, ``transform`` as in n8n."""
    inputs: Connections = (MAIN,)
    """Input connection types, or a function of the node's parameters (Merge's number of inputs)."""
    outputs: Connections = (MAIN,)
    """Output connection types, or a function of the parameters (Switch's rules)."""
    required_inputs: int | tuple[int, ...] | Callable[[Mapping[str, Any]], int | tuple[int, ...] | None] | None = None
    """Inputs that must have data for the node to run when the stack empties (n8n ``requiredInputs``)."""
    usable_as_tool: bool = False
    """An ``…Tool`` variant of this node is synthesized for agents."""
    credentials: tuple[str, ...] = ()
    defaults: Mapping[str, Any] = field(default_factory=dict)
    """Parameter defaults by dotted path; :meth:`ExecuteContext.get_node_parameter` falls back on them."""
    properties: tuple[Mapping[str, Any], ...] = _Properties()  # type: ignore[assignment]
    """n8n's property descriptions of the default version; a type that sets none gets n8n's own
    (:func:`weft.nodes.node_properties.properties_for`, read on first use)."""

    @property
    def default_version(self) -> float:
        return max(self.versions)

    @property
    def is_trigger(self) -> bool:
        return "trigger" in self.group

    def input_types(self, parameters: Mapping[str, Any]) -> tuple[str, ...]:
        return self.inputs(parameters) if callable(self.inputs) else self.inputs

    def output_types(self, parameters: Mapping[str, Any]) -> tuple[str, ...]:
        return self.outputs(parameters) if callable(self.outputs) else self.outputs

    @property
    def is_sub_node(self) -> bool:
        """A node without main outputs that supplies something to its parent (model, memory, tool)."""
        outs = self.outputs if not callable(self.outputs) else ()
        return bool(outs) and MAIN not in outs


# --------------------------------------------------------------------------- contexts


class ChatMemoryStore(Protocol):
    """Where chat memory lives between executions: messages as JSON, per session key, oldest first."""

    def load(self, session_key: str, *, last: int | None = None) -> list[dict[str, Any]]: ...

    def append(self, session_key: str, messages: list[dict[str, Any]]) -> None: ...

    def clear(self, session_key: str) -> None: ...


class ExecutionServices(Protocol):
    """What the host (CLI, server, worker) provides to nodes beyond the engine itself."""

    async def execute_workflow(
        self,
        ctx: ExecuteContext,
        workflow: Mapping[str, Any],
        items: list[Item],
        *,
        wait: bool = True,
    ) -> NodeOutput | None:
        """Run a sub-workflow (already loaded as JSON) with ``items`` as its trigger input; its last output."""
        ...

    async def get_credentials(self, ctx: ExecuteContext, credential_type: str) -> dict[str, Any]:
        """The decrypted data of the node's credential of ``credential_type``."""
        ...

    #: Hosts that persist chat memory (the server) expose ``chat_memory: ChatMemoryStore``; nodes read it with
    #: ``getattr(ctx.services, "chat_memory", None)`` and fall back to a process-wide in-memory store.


class NodeContext(Protocol):
    """What every context offers: the node, its parameters and the workflow."""

    node: NodeModel
    workflow: Workflow
    mode: str
    run_index: int
    execution_id: str | None

    def get_node_parameter(
        self,
        name: str,
        item_index: int = 0,
        default: Any = MISSING,
        *,
        raw: bool = False,
        extract_value: bool = False,
    ) -> Any:
        """The parameter at dotted path ``name``, expressions evaluated for ``item_index``.

        ``default`` is returned when the parameter is absent (else the type's ``defaults``; else an error).
        ``raw`` skips evaluation. ``extract_value`` unwraps n8n resource locators (``{"__rl": true, "value"}``).
        """
        ...

    def evaluate_expression(self, expression: str, item_index: int = 0, *, parameter: str | None = None) -> Any: ...

    def expression_context(self) -> ExpressionContext:
        """The data expressions and Code see for this run."""
        ...

    def get_input_data(self, input_index: int = 0, connection_type: str = MAIN) -> list[Item]: ...

    async def get_input_connection_data(self, connection_type: str, item_index: int = 0) -> list[Any]:
        """What the sub-nodes connected on ``connection_type`` supply (models, memory, tools, parsers)."""
        ...

    async def get_credentials(self, credential_type: str) -> dict[str, Any]: ...

    def check_cancelled(self) -> None:
        """Raise :class:`~weft.errors.CancelSignal` if the execution was cancelled."""
        ...

    def execution_resources(self) -> ExecutionResources:
        """Resources opened once per execution (an MCP session) and closed by the engine when it ends."""
        ...

    # binary data (implemented once, in ``weft.nodes.binary.BinaryHelpers``)

    async def prepare_binary_data(
        self, data: Data, file_path: str | None = None, mime_type: str | None = None
    ) -> dict[str, Any]:
        """A binary entry for bytes or chunks, stored in the execution's binary-data mode (``prepareBinaryData``)."""
        ...

    async def binary_entry(self, data: Data, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """A binary entry with exactly ``metadata``, its bytes stored."""
        ...

    def assert_binary_data(self, item_index: int, property_name: Any, input_index: int = 0) -> dict[str, Any]:
        """An input item's binary entry, or n8n's error naming the missing field."""
        ...

    async def get_binary_data_buffer(self, item_index: int, property_name: Any, input_index: int = 0) -> bytes:
        """All bytes of an input item's binary property."""
        ...

    def get_binary_stream(self, binary: Mapping[str, Any], chunk_size: int = ...) -> AsyncIterator[bytes]:
        """A binary entry's bytes, chunk by chunk."""
        ...

    async def binary_bytes(self, binary: Mapping[str, Any]) -> bytes:
        """All bytes of a binary entry."""
        ...


class ExecuteContext(NodeContext, Protocol):
    """What a node sees while it runs on the execution stack (n8n's ``IExecuteFunctions``)."""

    engine_response: EngineResponse | None
    """Results of the actions this node requested, when it is resumed; else ``None``."""
    services: ExecutionServices | None

    def continue_on_fail(self) -> bool:
        """Whether the node should turn item errors into ``{json: {error}}`` items (``onError`` ≠ stop)."""
        ...

    def get_context(self, kind: Literal["node", "flow"]) -> dict[str, Any]:
        """Mutable state kept with the execution (``contextData``), per node or per workflow."""
        ...

    def put_execution_to_wait(self, wait_till: datetime, *, resume_node: bool = False) -> None:
        """Pause the execution after this node until ``wait_till`` or a resume call.

        With ``resume_node`` the node runs again on resume (chapter 23's ``waitReason: 'resume-node'``);
        otherwise it passes its output through like n8n's Wait node.
        """
        ...

    def get_resume_url(self) -> str: ...

    def is_streaming(self) -> bool:
        """Whether the client reads this execution's answer as a stream (``send_chunk`` reaches it)."""
        ...

    async def send_chunk(self, kind: str, content: Any = None) -> None:
        """Stream a chunk (``begin``/``item``/``end``/``error``) to the client, when the execution streams."""
        ...


class SupplyDataContext(NodeContext, Protocol):
    """What a sub-node sees while it supplies data to its parent (n8n's ``ISupplyDataFunctions``)."""

    parent_node_name: str

    def add_input_data(self, connection_type: str, data: list[list[Item]]) -> int:
        """Open a run of this sub-node with ``data`` as its ``inputOverride``; returns the run index."""
        ...

    def add_output_data(
        self,
        connection_type: str,
        run_index: int,
        data: list[list[Item]] | BaseException,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        """Close that run with output ``data`` (or an error)."""
        ...


# --------------------------------------------------------------------------- node types


class NodeType:
    """Base class of node types. Subclasses set ``description`` and implement what they support."""

    description: ClassVar[NodeDescription]
    #: n8n's ``methods.credentialTest`` (a credential's ``testedBy``): ``{credential type: test}``, each test
    #: taking the credential's data and answering ``{"status": "OK" | "Error", "message": …}``.
    credential_tests: ClassVar[Mapping[str, Callable[[Mapping[str, Any]], Awaitable[dict[str, str]]]]] = {}

    async def execute(self, ctx: ExecuteContext) -> NodeOutput | EngineRequest | None:
        """Run on the execution stack. Sub-nodes that are only supplied need not implement it."""
        raise NotImplementedError(f"Node type {self.description.name!r} cannot be executed on its own")

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> Any:
        """Supply an object (a chat model, a memory, a tool definition …) to the parent node."""
        raise NotImplementedError(f"Node type {self.description.name!r} supplies no data")

    @classmethod
    def supports(cls, method: Literal["execute", "supply_data"]) -> bool:
        return getattr(cls, method) is not getattr(NodeType, method)


__all__ = [
    "MISSING",
    "WAIT_INDEFINITELY",
    "ActionMetadata",
    "ActionResponse",
    "ChatMemoryStore",
    "EngineRequest",
    "EngineResponse",
    "ExecuteContext",
    "ExecuteNodeAction",
    "ExecutionServices",
    "InlineInvoke",
    "NodeContext",
    "NodeDescription",
    "NodeType",
    "SupplyDataContext",
    "ToolKind",
    "ToolSpec",
    "is_engine_request",
]
