"""HubSpot's engagement operations (create, get, list, delete) as n8n's ``HubspotV2.execute`` runs them for one
item, with n8n's per-type metadata builders."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.hubspot.fields import epoch_ms
from weft.library.hubspot.op import Handler, Op
from weft.nodes.values import js_string


async def engagement_get(op: Op) -> Any:
    engagement = op.get("engagementId", extract=True)
    return await op.call("GET", f"/engagements/v1/engagements/{js_string(engagement)}", None, op.qs)


async def engagement_get_all(op: Op) -> Any:
    endpoint = "/engagements/v1/engagements/paged"
    if op.first("returnAll", False):
        return await op.all("results", "GET", endpoint)
    op.qs["limit"] = op.first("limit", 100)
    return ((await op.call("GET", endpoint, None, op.qs)) or {}).get("results")


async def engagement_delete(op: Op) -> Any:
    engagement = op.get("engagementId", extract=True)
    answer = await op.call("DELETE", f"/engagements/v1/engagements/{js_string(engagement)}", None, op.qs)
    return {"vid": engagement, "deleted": True} if answer is None else answer


def _keep(meta: dict[str, Any], *names: str) -> dict[str, Any]:
    return {name: meta[name] for name in names if meta.get(name)}


def _emails(entries: Any) -> list[dict[str, Any]]:
    return [{"email": email} for entry in entries or [] for email in js_string(entry).split(",")]


def _seconds(value: Any) -> int | None:
    stamp = epoch_ms(value)
    return None if stamp is None else stamp // 1000


def _metadata(kind: str, meta: dict[str, Any]) -> dict[str, Any]:
    """n8n's ``getEmailMetadata`` / ``getTaskMetadata`` / ``getMeetingMetadata`` / ``getCallMetadata``."""
    if kind == "email":
        sender = {key: meta[field] for field, key in (("fromEmail", "email"), ("firstName", "firstName"),
                                                       ("lastName", "lastName")) if meta.get(field)}  # fmt: skip
        body = {"from": sender, "cc": _emails(meta.get("cc")), "bcc": _emails(meta.get("bcc"))}
        return {**body, **_keep(meta, "subject", "html", "text")}
    if kind == "task":
        return _keep(meta, "body", "subject", "status", "forObjectType")
    if kind == "meeting":
        times = {key: _seconds(meta[key]) for key in ("startTime", "endTime") if meta.get(key)}  # type: ignore[operator]
        return {**_keep(meta, "body"), **times, **_keep(meta, "title", "internalMeetingNotes")}
    if kind == "call":
        return _keep(meta, "toNumber", "fromNumber", "status", "durationMilliseconds", "recordingUrl", "body")
    return {}


async def engagement_create(op: Op) -> Any:
    kind = js_string(op.get("type"))
    meta = dict(op.get("metadata", {}) or {})
    links = dict(op.get("additionalFields.associations", {}) or {})
    if not meta:
        raise NodeOperationError(op.api.ctx.node.name, "At least one metadata field needs to set", item_index=op.index)
    owner = links.get("ownerId")
    engagement: dict[str, Any] = {"type": kind.upper()}
    if isinstance(owner, int | float) and not isinstance(owner, bool) and owner:
        engagement["ownerId"] = owner
    if kind == "task" and float(op.api.ctx.node.typeVersion) >= 2.2:
        due = op.get("dueDate", None)
        if due:
            stamp = epoch_ms(due)
            if stamp is None:
                raise NodeOperationError(op.api.ctx.node.name, "Invalid date string", item_index=op.index)
            engagement["timestamp"] = stamp
    names = ("companyIds", "contactIds", "dealIds", "ownerIds", "ticketIds")
    associations = {key: js_string(links[key]).split(",") for key in names if links.get(key)}
    body = {"engagement": engagement, "metadata": _metadata(kind, meta), "associations": associations}
    return await op.call("POST", "/engagements/v1/engagements", body)


ENGAGEMENT_OPERATIONS: dict[str, Handler] = {
    "create": engagement_create,
    "get": engagement_get,
    "getAll": engagement_get_all,
    "delete": engagement_delete,
}

__all__ = ["ENGAGEMENT_OPERATIONS"]
