"""``POST /api/v1/audit``: n8n's security audit (:mod:`weft.services.audit`, which ``weft audit`` prints too)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from weft.server.deps import InstanceDep
from weft.server.routes.public_api import PublicApiError, require
from weft.services.audit import CATEGORIES, DAYS_ABANDONED_WORKFLOW, generate_audit

router = APIRouter(tags=["public API"])


@router.post("/audit", dependencies=[require("securityAudit:generate")])
async def generate_audit_route(instance: InstanceDep, request: Request) -> Any:
    body = await request.json() if await request.body() else {}
    options = (body or {}).get("additionalOptions") or {}
    categories = options.get("categories") or list(CATEGORIES)
    if not isinstance(categories, list) or any(c not in CATEGORIES for c in categories):
        raise PublicApiError(400, f"request/body/additionalOptions/categories must be among {', '.join(CATEGORIES)}")
    days = int(options.get("daysAbandonedWorkflow") or DAYS_ABANDONED_WORKFLOW)
    return await instance.runner.db(generate_audit, instance.store, instance.settings, categories, days)


__all__ = ["router"]
