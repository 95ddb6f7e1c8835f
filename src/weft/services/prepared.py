"""A workflow ready to run: its JSON, the parsed :class:`Workflow`, parsed once per version and cached.

Parsing and validating a workflow costs more than running a small one, so the hot paths (webhooks,
schedules) keep one :class:`PreparedWorkflow` per ``(id, versionId)``.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from weft.nodes.registry import NodeRegistry, default_registry
from weft.workflow import Workflow, parse_workflow, validate_workflow

if TYPE_CHECKING:
    from weft.db.workflows import StoredWorkflow


@dataclass(frozen=True, kw_only=True)
class PreparedWorkflow:
    id: str | None
    version_id: str | None
    data: dict[str, Any]
    """The workflow JSON (snapshotted into each execution)."""
    workflow: Workflow

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.data.get("settings") or {})


def prepare(data: dict[str, Any], registry: NodeRegistry, *, version_id: str | None = None) -> PreparedWorkflow:
    """Parse and validate ``data``; :class:`~weft.errors.WorkflowDefinitionError` says what is wrong."""
    model = parse_workflow(data, source=f"Workflow {data.get('id') or data.get('name')!r}")
    validate_workflow(model, registry)
    return PreparedWorkflow(id=model.id, version_id=version_id, data=data, workflow=Workflow(model))


class WorkflowCache:
    """The newest :class:`PreparedWorkflow` per ``(id, versionId)``, bounded (least recently used go first)."""

    def __init__(self, registry: NodeRegistry, max_size: int = 256) -> None:
        self._registry = registry
        self._max = max_size
        self._items: OrderedDict[tuple[str, str | None], PreparedWorkflow] = OrderedDict()

    def get(self, stored: StoredWorkflow) -> PreparedWorkflow:
        key = (stored.id, stored.version_id)
        hit = self._items.get(key)
        if hit is not None:
            self._items.move_to_end(key)
            return hit
        prepared = prepare(stored.data, self._registry, version_id=stored.version_id)
        self._items[key] = prepared
        while len(self._items) > self._max:
            self._items.popitem(last=False)
        return prepared


def server_registry(registry: NodeRegistry | None = None) -> NodeRegistry:
    """The registry the server runs with (default: the process-wide one, which has the server's node types)."""
    return registry or default_registry()


__all__ = ["PreparedWorkflow", "WorkflowCache", "prepare", "server_registry"]
