"""The metadata a stack entry carries across an engine request, typed (n8n's ``IExecuteData.metadata``).

A requested tool's entry and the resumed requester's entry carry what the engine needs when it pops them
again: whether the node is being resumed (no second ``nodeExecuteBefore``), the runs whose results make its
:class:`~weft.nodes.contract.EngineResponse`, the lineage a tool keeps (``preserveSourceOverwrite``), the
tool's time limit. It is stored with the execution, so :meth:`EntryMetadata.to_json` gives n8n's plain JSON
keys and :meth:`EntryMetadata.of` reads them back; keys Weft does not know are kept as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.nodes.contract import ExecuteNodeAction
from weft.workflow import ExecuteData


@dataclass(frozen=True, kw_only=True, slots=True)
class SubNodeRun:
    """One requested action and the run of its node that answers it."""

    node_name: str
    run_index: int
    action: ExecuteNodeAction

    def to_json(self) -> dict[str, Any]:
        return {"nodeName": self.node_name, "runIndex": self.run_index, "action": self.action.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SubNodeRun:
        return cls(
            node_name=data["nodeName"],
            run_index=int(data["runIndex"]),
            action=ExecuteNodeAction.from_json(data["action"]),
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class SubNodeExecution:
    """What a resumed requester gets its response from (``subNodeExecutionData``)."""

    actions: tuple[SubNodeRun, ...] = ()
    request_metadata: dict[str, Any] = field(default_factory=dict)
    """The request's own metadata, handed back unchanged in the response."""

    def to_json(self) -> dict[str, Any]:
        return {"actions": [a.to_json() for a in self.actions], "metadata": self.request_metadata}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SubNodeExecution:
        return cls(
            actions=tuple(SubNodeRun.from_json(a) for a in data.get("actions") or ()),
            request_metadata=dict(data.get("metadata") or {}),
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class EntryMetadata:
    """A stack entry's metadata. Each field is read in one place of the engine, named on it."""

    node_was_resumed: bool = False
    """``nodeWasResumed``: the requester is being resumed; the loop does not fire ``nodeExecuteBefore`` again."""
    sub_node_execution: SubNodeExecution | None = None
    """``subNodeExecutionData``: :func:`weft.engine.requests.collect_action_responses` builds the response."""
    preserve_source_overwrite: bool = False
    """``preserveSourceOverwrite``: the node runs as a tool and keeps its items' lineage (outcomes' paired items)."""
    preserved_source_overwrite: dict[str, Any] | None = None
    """``preservedSourceOverwrite``: the lineage of the requester's own input, kept through nested requests."""
    timeout_ms: float | None = None
    """``timeoutMs``: :func:`weft.engine.run_node.run_node` bounds the node's run."""
    forward_all_outputs: bool = False
    """``forwardAllOutputs``: a disabled node passes every input through, not only the first."""
    resume_error: Any = None
    """``resumeError``: the node resumes with an error, so it is not retried."""
    concurrent_group: str | None = None
    """``weftConcurrentGroup``: requested nodes that run at once (the loop runs the group's entries together)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys Weft does not read, kept."""

    @classmethod
    def of(cls, entry: ExecuteData) -> EntryMetadata:
        metadata = entry.get("metadata")
        if not metadata:
            return _EMPTY
        data = dict(metadata)
        sub = data.pop("subNodeExecutionData", None)
        timeout = data.pop("timeoutMs", None)
        return cls(
            node_was_resumed=bool(data.pop("nodeWasResumed", False)),
            sub_node_execution=SubNodeExecution.from_json(sub) if sub else None,
            preserve_source_overwrite=bool(data.pop("preserveSourceOverwrite", False)),
            preserved_source_overwrite=data.pop("preservedSourceOverwrite", None),
            timeout_ms=float(timeout) if timeout else None,
            forward_all_outputs=bool(data.pop("forwardAllOutputs", False)),
            resume_error=data.pop("resumeError", None),
            concurrent_group=data.pop("weftConcurrentGroup", None),
            extra=data,
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.node_was_resumed:
            data["nodeWasResumed"] = True
        if self.sub_node_execution is not None:
            data["subNodeExecutionData"] = self.sub_node_execution.to_json()
        if self.preserve_source_overwrite:
            data["preserveSourceOverwrite"] = True
        if self.preserved_source_overwrite is not None:
            data["preservedSourceOverwrite"] = self.preserved_source_overwrite
        if self.timeout_ms:
            data["timeoutMs"] = self.timeout_ms
        if self.forward_all_outputs:
            data["forwardAllOutputs"] = True
        if self.resume_error is not None:
            data["resumeError"] = self.resume_error
        if self.concurrent_group is not None:
            data["weftConcurrentGroup"] = self.concurrent_group
        return {**data, **self.extra}

    def write(self, entry: ExecuteData) -> None:
        """Store this metadata on ``entry`` (no ``metadata`` key when there is nothing to store)."""
        data = self.to_json()
        if data:
            entry["metadata"] = data
        else:
            entry.pop("metadata", None)


_EMPTY = EntryMetadata()

__all__ = ["EntryMetadata", "SubNodeExecution", "SubNodeRun"]
