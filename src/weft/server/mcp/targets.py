"""Which MCP Server Trigger a URL belongs to.

n8n registers three webhooks per trigger (``isFullPath``): ``GET <path>/sse``, ``POST <path>/messages`` and
``DELETE <path>`` before version 2, ``GET``/``POST``/``DELETE <path>`` from version 2. Production URLs
(``/mcp/…``) belong to active workflows; test URLs (``/mcp-test/…``) to any saved workflow (n8n's need the
editor to listen first; Weft serves the saved workflow, as its Chat Trigger's test URL does).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal, cast
from weakref import WeakKeyDictionary

from weft.ai.nodes.mcp_trigger import is_mcp_trigger, trigger_urls
from weft.db.webhooks import normalize_path
from weft.services.activation import ActiveWorkflows
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import WorkflowRunner
from weft.workflow import NodeModel

log = logging.getLogger("weft.mcp")

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


async def find_saved(runner: WorkflowRunner, method: str, path: str) -> tuple[McpTarget, Role] | None:
    """The trigger of any saved workflow for ``method path`` (test URLs)."""
    for stored in await runner.db(runner.store.workflows.list):
        nodes = stored.data.get("nodes") or []
        if not any(isinstance(n, dict) and n.get("type") == "@n8n/n8n-nodes-langchain.mcpTrigger" for n in nodes):
            continue
        try:
            prepared = runner.cache.get(stored)
        except Exception as exc:  # a broken workflow is skipped, as the active table skips it
            log.error("Workflow %r cannot be served over MCP: %s", stored.id, exc)
            continue
        hit = targets_of(prepared, test=True).get((method, normalize_path(path)))
        if hit is not None:
            return hit
    return None


__all__ = [
    "McpTarget",
    "Role",
    "TargetIndex",
    "active_methods",
    "find_active",
    "find_saved",
    "targets_of",
    "trigger_urls",
]
