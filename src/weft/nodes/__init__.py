"""Node types (L3): the contract, the registry, tool synthesis and the built-in nodes."""

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
