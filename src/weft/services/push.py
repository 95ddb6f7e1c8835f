"""Live execution events for the editor (n8n's push): ``nodeExecuteBefore`` / ``nodeExecuteAfter`` /
``executionFinished`` of a manual run, as they happen.

The runner attaches a :class:`PushHub` to the hooks of each manual execution. Every event is kept in the
execution's channel until a short while after it finished, so a subscriber that connects after the run started
(it learns the id from the run's answer) still sees every event, in order. Events carry what the canvas shows
(status, item counts per output, the error's message and description), never item data.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from weft.engine.hooks import ExecutionHooks

#: Seconds a finished execution's events stay for a late subscriber.
KEEP_AFTER_FINISH_S = 60.0
#: At most this many node events per execution are kept (a runaway loop cannot grow the hub without bound).
MAX_EVENTS = 5_000
Event = dict[str, Any]


@dataclass
class _Channel:
    events: list[Event] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.changed.set()
        self.changed = asyncio.Event()


class PushHub:
    """In-process publish/subscribe of execution events, one channel per execution id."""

    def __init__(self, keep_after_finish_s: float = KEEP_AFTER_FINISH_S) -> None:
        self._channels: dict[str, _Channel] = {}
        self._keep = keep_after_finish_s

    def knows(self, execution_id: str) -> bool:
        """Whether events of this execution are (still) held."""
        return execution_id in self._channels

    def attach(self, hooks: ExecutionHooks, execution_id: str, workflow_id: str | None) -> None:
        """Publish the lifecycle of the execution ``execution_id`` from its hooks."""
        if not self.knows(execution_id) or self._channels[execution_id].finished:  # a resumed run: a new channel
            self._channels[execution_id] = _Channel()

        def before(node_name: str, _task: Any) -> None:
            self.publish(execution_id, {"type": "nodeExecuteBefore", "data": _node(execution_id, node_name)})

        def after(node_name: str, task: dict[str, Any], _data: Any) -> None:
            self.publish(execution_id, {"type": "nodeExecuteAfter", "data": _after(execution_id, node_name, task)})

        def finished(run: dict[str, Any], _: Any) -> None:
            status = run.get("status")
            data = {"executionId": execution_id, "workflowId": workflow_id, "status": status}
            self.publish(execution_id, {"type": "executionFinished", "data": data})
            self._finish(execution_id)

        hooks.on("nodeExecuteBefore", before)
        hooks.on("nodeExecuteAfter", after)
        hooks.on("workflowExecuteAfter", finished)

    def publish(self, execution_id: str, event: Event) -> None:
        """Add ``event`` to the execution's channel and wake its subscribers."""
        channel = self._channels.setdefault(execution_id, _Channel())
        if channel.finished or (len(channel.events) >= MAX_EVENTS and event["type"] != "executionFinished"):
            return
        channel.add(event)

    def _finish(self, execution_id: str) -> None:
        channel = self._channels.get(execution_id)
        if channel is None or channel.finished:
            return
        channel.finished = True
        asyncio.get_running_loop().call_later(self._keep, self._drop, execution_id, channel)

    def _drop(self, execution_id: str, channel: _Channel) -> None:
        if self._channels.get(execution_id) is channel:
            del self._channels[execution_id]

    async def subscribe(self, execution_id: str, heartbeat_s: float = 15.0) -> AsyncIterator[Event | None]:
        """The execution's events from its first, then live ones until ``executionFinished``; ``None`` every
        ``heartbeat_s`` seconds without an event (a keep-alive for the stream)."""
        channel = self._channels.get(execution_id)
        if channel is None:
            return
        seen = 0
        while True:
            while seen < len(channel.events):
                event = channel.events[seen]
                seen += 1
                yield event
                if event["type"] == "executionFinished":
                    return
            if channel.finished:
                return
            try:
                await asyncio.wait_for(channel.changed.wait(), heartbeat_s)
            except TimeoutError:
                yield None


def _node(execution_id: str, node_name: str) -> dict[str, Any]:
    return {"executionId": execution_id, "nodeName": node_name}


def _after(execution_id: str, node_name: str, task: dict[str, Any]) -> dict[str, Any]:
    outputs = task.get("data") or {}
    counts = {kind: [len(items or []) for items in runs or []] for kind, runs in outputs.items()}
    error = task.get("error") if isinstance(task.get("error"), dict) else None
    data = _node(execution_id, node_name)
    data["status"] = task.get("executionStatus") or "success"
    data["executionTime"] = task.get("executionTime")
    data["itemCountByConnectionType"] = counts
    if error is not None:
        data["error"] = {"message": error.get("message"), "description": error.get("description")}
    return data


__all__ = ["KEEP_AFTER_FINISH_S", "PushHub"]
