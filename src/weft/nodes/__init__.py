"""The node kit (L3): the contract, the registry and its catalog, parameters, tool synthesis, and what the host
needs of nodes (webhooks, forms, files, schedules, sub-workflows, mail). The node implementations are the library,
:mod:`weft.library`, which only the registry loads."""

from weft.nodes.contract import (
    MISSING,
    ActionResponse,
    ChatMemoryStore,
    EngineRequest,
    EngineResponse,
    ExecuteContext,
    ExecuteNodeAction,
    ExecutionServices,
    NodeContext,
    NodeDescription,
    NodeType,
    SupplyDataContext,
    ToolSpec,
    is_engine_request,
)
from weft.nodes.registry import NodeRegistry, default_registry

__all__ = [
    "MISSING",
    "ActionResponse",
    "ChatMemoryStore",
    "EngineRequest",
    "EngineResponse",
    "ExecuteContext",
    "ExecuteNodeAction",
    "ExecutionServices",
    "NodeContext",
    "NodeDescription",
    "NodeRegistry",
    "NodeType",
    "SupplyDataContext",
    "ToolSpec",
    "default_registry",
    "is_engine_request",
]
