"""HubSpot's ticket operations (get, delete) as n8n's ``HubspotV2.execute`` runs them for one item."""

from __future__ import annotations

from typing import Any

from weft.library.hubspot.op import Handler, Op
from weft.nodes.values import js_string


async def ticket_get(op: Op) -> Any:
    ticket = op.get("ticketId", extract=True)
    fields = dict(op.get("additionalFields", {}) or {})
    if fields.get("properties"):
        op.qs["properties"] = fields["properties"]
    if fields.get("propertiesWithHistory"):
        op.qs["propertiesWithHistory"] = js_string(fields["propertiesWithHistory"]).split(",")
    if fields.get("includeDeleted"):
        op.qs["includeDeleted"] = fields["includeDeleted"]
    return await op.call("GET", f"/crm-objects/v1/objects/tickets/{js_string(ticket)}", None, op.qs)


async def ticket_delete(op: Op) -> Any:
    ticket = op.get("ticketId", extract=True)
    await op.call("DELETE", f"/crm-objects/v1/objects/tickets/{js_string(ticket)}")
    return {"vid": ticket, "deleted": True}


TICKET_OPERATIONS: dict[str, Handler] = {"get": ticket_get, "delete": ticket_delete}

__all__ = ["TICKET_OPERATIONS"]
