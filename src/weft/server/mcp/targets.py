"""Which MCP Server Trigger a URL belongs to.

n8n registers three webhooks per trigger (``isFullPath``): ``GET <path>/sse``, ``POST <path>/messages`` and
``DELETE <path>`` before version 2, ``GET``/``POST``/``DELETE <path>`` from version 2. Production URLs
(``/mcp/…``) belong to active workflows; test URLs (``/mcp-test/…``) to the workflow the editor listens with
(:mod:`weft.services.listening`), as it was when listening started.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast
from weakref import WeakKeyDictionary

from weft.ai.nodes.mcp_trigger import is_mcp_trigger, trigger_urls
from weft.db.webhooks import normalize_path
from weft.services.activation import ActiveWorkflows
from weft.services.listening import Listener, TestWebhooks
from weft.services.prepared import PreparedWorkflow
from weft.workflow import NodeModel

Role = Literal["setup", "message", "delete"]


@dataclass(frozen=True, kw_only=True)
class McpTarget:
    """One MCP Server Trigger of a workflow."""

    prepared: PreparedWorkflow
    node: NodeModel
    test: bool = False

    @property
    def version(self) -> float:
        return float(self.node.typeVersion)

    @property
    def key(self) -> tuple[str | None, str, bool]:
        """What a session belongs to: the workflow, the trigger, production or test."""
        return (self.prepared.id, self.node.name, self.test)


def targets_of(prepared: PreparedWorkflow, *, test: bool = False) -> dict[tuple[str, str], tuple[McpTarget, Role]]:
    found: dict[tuple[str, str], tuple[McpTarget, Role]] = {}
    for node in prepared.workflow.nodes.values():
        if is_mcp_trigger(node):
            target = McpTarget(prepared=prepared, node=node, test=test)
            found.update((url, (target, cast(Role, role))) for url, role in trigger_urls(node).items())
    return found


class TargetIndex:
    """The active workflows' triggers by URL, rebuilt when the set of active workflows changes."""

    def __init__(self) -> None:
        self._source: object = None
        self._urls: dict[tuple[str, str], tuple[McpTarget, Role]] = {}

    def find(self, active: ActiveWorkflows, method: str, path: str) -> tuple[McpTarget, Role] | None:
        if active.workflows is not self._source:
            urls: dict[tuple[str, str], tuple[McpTarget, Role]] = {}
            for prepared in active.workflows.values():
                urls.update(targets_of(prepared))
            self._source, self._urls = active.workflows, urls
        return self._urls.get((method, normalize_path(path)))

    def methods(self, path: str) -> list[str]:
        path = normalize_path(path)
        return sorted({m for (m, p) in self._urls if p == path})


_INDEXES: WeakKeyDictionary[ActiveWorkflows, TargetIndex] = WeakKeyDictionary()


async def find_active(active: ActiveWorkflows, method: str, path: str) -> tuple[McpTarget, Role] | None:
    """The trigger of an active workflow for ``method path``; on a miss the active workflows are reloaded first,
    in case another process activated one."""
    index = _INDEXES.setdefault(active, TargetIndex())
    hit = index.find(active, method, path)
    if hit is None and await active.refresh():
        hit = index.find(active, method, path)
    return hit


def active_methods(active: ActiveWorkflows, path: str) -> list[str]:
    return _INDEXES.setdefault(active, TargetIndex()).methods(path)


async def find_listening(
    test_webhooks: TestWebhooks, method: str, path: str
) -> tuple[McpTarget, Role, Listener] | None:
    """The trigger the editor listens with for ``method path`` (test URLs), and its listener."""
    listener = await test_webhooks.find("mcp", method, path)
    if listener is None:
        return None
    hit = targets_of(listener.prepared, test=True).get((method, normalize_path(path)))
    return None if hit is None else (hit[0], hit[1], listener)


__all__ = [
    "McpTarget",
    "Role",
    "TargetIndex",
    "active_methods",
    "find_active",
    "find_listening",
    "targets_of",
    "trigger_urls",
]
