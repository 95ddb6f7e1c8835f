"""HubSpot's deal operations (create, update, get, list, recently created, delete, search) as n8n's
``HubspotV2.execute`` runs them for one item."""

from __future__ import annotations

from typing import Any

from weft.library.hubspot.common import (
    delete_operation,
    list_operation,
    properties_collection,
    search_operation,
    since_options,
)
from weft.library.hubspot.fields import DEAL_FIELDS, DEAL_UPDATE_FIELDS, properties
from weft.library.hubspot.op import Handler, Op
from weft.nodes.values import js_string


async def deal_create(op: Op) -> Any:
    fields = dict(op.get("additionalFields", {}) or {})
    stage = op.get("stage")
    body: dict[str, Any] = {"properties": []}
    if stage:
        body["properties"].append({"name": "dealstage", "value": stage})
    association: dict[str, Any] = {}
    if fields.get("associatedCompany"):
        association["associatedCompanyIds"] = fields["associatedCompany"]
    if fields.get("associatedVids"):
        association["associatedVids"] = fields["associatedVids"]
    body["properties"].extend(properties(fields, DEAL_FIELDS, "name"))
    body["associations"] = association
    return await op.call("POST", "/deals/v1/deal", body)


async def deal_update(op: Op) -> Any:
    fields = dict(op.get("updateFields", {}) or {})
    deal = op.get("dealId", {}, extract=True)
    body = {"properties": properties(fields, DEAL_UPDATE_FIELDS, "name")}
    return await op.call("PUT", f"/deals/v1/deal/{js_string(deal)}", body)


async def deal_get(op: Op) -> Any:
    deal = op.get("dealId", {}, extract=True)
    filters = dict(op.get("filters", {}) or {})
    if filters.get("includePropertyVersions"):
        op.qs["includePropertyVersions"] = filters["includePropertyVersions"]
    properties_collection(op, filters)
    return await op.call("GET", f"/deals/v1/deal/{js_string(deal)}")


def _deal_list_options(op: Op, filters: dict[str, Any]) -> None:
    if filters.get("includeAssociations"):
        op.qs["includeAssociations"] = filters["includeAssociations"]
    properties_collection(op, filters)
    for key in ("properties", "propertiesWithHistory"):
        value = filters.get(key)
        if value:
            op.qs[key] = value if isinstance(value, list) else js_string(value).split(",")


DEAL_OPERATIONS: dict[str, Handler] = {
    "create": deal_create,
    "update": deal_update,
    "get": deal_get,
    "getAll": list_operation("/deals/v1/deal/paged", "deals", "filters", "limit", _deal_list_options),
    "getRecentlyCreatedUpdated": list_operation("/deals/v1/deal/recent/created", "results", "filters", "count",
                                                since_options),
    "delete": delete_operation("/deals/v1/deal/{}", "dealId"),
    "search": search_operation("deals"),
}  # fmt: skip

__all__ = ["DEAL_OPERATIONS"]
