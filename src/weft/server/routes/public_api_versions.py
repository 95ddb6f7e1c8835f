"""``GET /api/v1/workflows/{id}/{versionId}``: one version of a workflow (n8n's workflow history).

Weft keeps no history: the version asked for is the workflow as it is now when ``versionId`` is its current
version id, else ``404 Not Found``, as n8n answers for a version it does not have.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from weft.db.base import to_iso
from weft.server.deps import InstanceDep
from weft.server.routes.public_api import PublicApiError, require

router = APIRouter(tags=["public API"])


@router.get("/workflows/{workflow_id}/{version_id}", dependencies=[require("workflow:read")])
async def get_workflow_version(instance: InstanceDep, workflow_id: str, version_id: str) -> dict[str, Any]:
    stored = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if stored is None or stored.version_id is None or stored.version_id != version_id:
        raise PublicApiError(404, "Not Found")
    return {
        "versionId": stored.version_id,
        "workflowId": stored.id,
        "name": stored.name,
        "description": stored.data.get("description"),
        "nodes": stored.data.get("nodes") or [],
        "connections": stored.data.get("connections") or {},
        "authors": "",
        "createdAt": to_iso(stored.updated_at),
        "updatedAt": to_iso(stored.updated_at),
    }


__all__ = ["router"]
