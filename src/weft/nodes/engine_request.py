"""The engine-request types a node returns and is resumed with (n8n's ``EngineRequest`` / ``EngineResponse``):
"run these nodes for me, then call me again with their results". Re-exported by :mod:`weft.nodes.contract`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.workflow import AI_TOOL, Item, TaskData


@dataclass(frozen=True, kw_only=True, slots=True)
class ActionMetadata:
    """What travels with one requested action (n8n's action ``metadata``), typed; stored as plain JSON."""

    item_index: int = 0
    """The requester's input item the node's input is built from (``itemIndex``)."""
    parent_node_name: str | None = None
    """Re-parents the node's run (``parentNodeName``: a tool approved by a human gate runs under the gate)."""
    timeout_ms: float | None = None
    """Bounds the node's run (``timeoutMs``); on timeout it fails like any tool error."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Other keys (n8n's ``hitl``, a provider's thinking blocks …), kept as they are."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"itemIndex": self.item_index}
        if self.parent_node_name is not None:
            data["parentNodeName"] = self.parent_node_name
        if self.timeout_ms:
            data["timeoutMs"] = self.timeout_ms
        return {**data, **self.extra}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> ActionMetadata:
        data = dict(data or {})
        parent = data.pop("parentNodeName", None)
        timeout = data.pop("timeoutMs", None)
        return cls(
            item_index=int(data.pop("itemIndex", 0) or 0),
            parent_node_name=None if parent is None else str(parent),
            timeout_ms=float(timeout) if timeout else None,
            extra=data,
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class ExecuteNodeAction:
    """Ask the engine to run one node (n8n's ``ExecuteNodeAction``)."""

    node_name: str
    """The node to run; usually a tool connected to the requester."""
    input: dict[str, Any]
    """Arguments, merged over the requester's input item to form the node's input item."""
    id: str
    """Correlation id, e.g. the model's tool-call id; the tool's input gets it as ``toolCallId``."""
    type: str = AI_TOOL
    """Connection type the node's output is logged under (``ai_tool``): never routed downstream."""
    metadata: ActionMetadata = field(default_factory=ActionMetadata)

    def to_json(self) -> dict[str, Any]:
        return {
            "actionType": "ExecutionNodeAction",
            "nodeName": self.node_name,
            "input": self.input,
            "type": self.type,
            "id": self.id,
            "metadata": self.metadata.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExecuteNodeAction:
        return cls(
            node_name=data["nodeName"],
            input=dict(data.get("input") or {}),
            id=str(data.get("id", "")),
            type=data.get("type", AI_TOOL),
            metadata=ActionMetadata.from_json(data.get("metadata")),
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class EngineRequest:
    """Returned by ``execute`` instead of items: run ``actions``, then resume me (n8n's ``EngineRequest``)."""

    actions: list[ExecuteNodeAction]
    metadata: dict[str, Any] = field(default_factory=dict)
    """Kept by the engine and handed back in the response: the requester's state across the round trip.
    It is stored with the execution, so it must be plain JSON."""
    concurrent: bool = False
    """Run the actions at once instead of one after the other (beyond n8n: the agent option
    ``runToolCallsConcurrently``). Their run records stay in request order; a node that would wait fails."""

    def to_json(self) -> dict[str, Any]:
        return {"actions": [a.to_json() for a in self.actions], "metadata": self.metadata}


@dataclass(frozen=True, kw_only=True, slots=True)
class ActionResponse:
    """The result of one requested action: the node's run record."""

    action: ExecuteNodeAction
    data: TaskData
    """The node's ``ITaskData``; its output is in ``data["data"]["ai_tool"]``."""

    @property
    def items(self) -> list[Item]:
        """The items the node produced on the action's connection type (``[]`` when none)."""
        outputs = self.data.get("data", {}).get(self.action.type) or [[]]
        return list(outputs[0] or []) if outputs else []

    @property
    def failed(self) -> bool:
        return self.data.get("executionStatus") == "error"


@dataclass(frozen=True, kw_only=True, slots=True)
class EngineResponse:
    """Handed to a resumed node: the results of the actions it requested (n8n's ``EngineResponse``)."""

    action_responses: list[ActionResponse] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    """The request's metadata, unchanged."""


def is_engine_request(value: object) -> bool:
    return isinstance(value, EngineRequest)


__all__ = [
    "ActionMetadata",
    "ActionResponse",
    "EngineRequest",
    "EngineResponse",
    "ExecuteNodeAction",
    "is_engine_request",
]
