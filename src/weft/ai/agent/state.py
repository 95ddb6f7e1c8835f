"""The agent's state between rounds: plain JSON kept in the engine request's metadata.

Everything needed to resume is here, so an agent waiting for its tools survives a wait, a restart or a move to
another worker: per input item the conversation so far (from the human message on; the system message and the
memory history are rebuilt each round, as n8n does), the tool calls waiting for results, the intermediate steps,
the number of tool rounds, and the output of items already finished. The metadata looks like::

    {"iterationCount": 2, "agent": {"version": 1, "items": [{"itemIndex": 0, "messages": [...], ...}, ...]}}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.ai.messages import Message, messages_from_json, messages_to_json
from weft.workflow import Item

STATE_KEY = "agent"
STATE_VERSION = 1


@dataclass(kw_only=True)
class PendingCall:
    """A tool call of the model's last turn, waiting for its result."""

    id: str
    name: str
    args: dict[str, Any]
    observation: str | None = None
    """Already known without running a node (an unknown tool's error), or received while other calls of the
    turn still wait (a human's approval)."""
    gated: dict[str, Any] | None = None
    """An approved gated call: the action (JSON) that runs the gated tool next (:mod:`weft.ai.hitl`)."""
    replay: dict[str, Any] | None = None
    """The arguments the model is shown for this call when they differ from ``args`` (a gated call's action)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "args": self.args}
        if self.observation is not None:
            data["observation"] = self.observation
        if self.gated is not None:
            data["gated"] = self.gated
        if self.replay is not None:
            data["replay"] = self.replay
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PendingCall:
        return cls(
            id=data["id"],
            name=data["name"],
            args=dict(data.get("args") or {}),
            observation=data.get("observation"),
            gated=data.get("gated"),
            replay=data.get("replay"),
        )


@dataclass(kw_only=True)
class ItemState:
    """One input item's conversation with the model."""

    item_index: int
    messages: list[Message] = field(default_factory=list)
    """From the human message on: ``Human, AI(tool_calls), Tool, …``."""
    pending: list[PendingCall] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    """n8n's intermediate steps so far (``{action, observation}``)."""
    iterations: int = 0
    """Model turns that asked for tools."""
    output: Item | None = None
    """Set once the item is finished (its answer, or its error item)."""

    @property
    def finished(self) -> bool:
        return self.output is not None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "itemIndex": self.item_index,
            "messages": messages_to_json(self.messages),
            "pending": [p.to_json() for p in self.pending],
            "steps": self.steps,
            "iterations": self.iterations,
        }
        if self.output is not None:
            data["output"] = self.output
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ItemState:
        return cls(
            item_index=int(data["itemIndex"]),
            messages=messages_from_json(data.get("messages") or []),
            pending=[PendingCall.from_json(p) for p in data.get("pending") or []],
            steps=list(data.get("steps") or []),
            iterations=int(data.get("iterations") or 0),
            output=data.get("output"),
        )


@dataclass(kw_only=True)
class AgentState:
    """All items' states and the number of request rounds (n8n's ``iterationCount``)."""

    items: dict[int, ItemState] = field(default_factory=dict)
    iteration_count: int = 0

    def to_metadata(self) -> dict[str, Any]:
        items = [self.items[i].to_json() for i in sorted(self.items)]
        return {"iterationCount": self.iteration_count, STATE_KEY: {"version": STATE_VERSION, "items": items}}

    @classmethod
    def from_metadata(cls, metadata: dict[str, Any] | None) -> AgentState:
        """The state of a resumed agent; an empty state for a first run (or metadata of another shape)."""
        saved = (metadata or {}).get(STATE_KEY) or {}
        items = [ItemState.from_json(d) for d in saved.get("items") or []]
        return cls(
            items={s.item_index: s for s in items},
            iteration_count=int((metadata or {}).get("iterationCount") or 0),
        )


__all__ = ["STATE_KEY", "AgentState", "ItemState", "PendingCall"]
