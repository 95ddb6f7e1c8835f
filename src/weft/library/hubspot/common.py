"""The HubSpot operations several resources share, as n8n's ``HubspotV2.execute`` runs them: list (all or
limited), delete, search, and the query options ("properties collection", "since") more than one list takes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from weft.errors import NodeOperationError
from weft.library.hubspot.fields import epoch_ms
from weft.library.hubspot.op import Handler, Op
from weft.nodes.values import js_string


def properties_collection(op: Op, fields: dict[str, Any], key: str = "properties") -> None:
    collection = fields.get("propertiesCollection")
    if not collection:
        return
    values = (collection or {}).get("propertiesValues") or {}
    names = values.get("properties")
    op.qs[key] = names if isinstance(names, list) else str(names).split(",")
    op.qs["propertyMode"] = _snake(str(values.get("propertyMode") or ""))


def _snake(text: str) -> str:
    out = ""
    for char in text:
        out += f"_{char.lower()}" if char.isupper() and out else char.lower()
    return out


def since_options(op: Op, fields: dict[str, Any]) -> None:
    if fields.get("since"):
        op.qs["since"] = epoch_ms(fields["since"])
    if fields.get("includePropertyVersions"):
        op.qs["includePropertyVersions"] = fields["includePropertyVersions"]
    properties_collection(op, fields)


def list_operation(
    endpoint: str, key: str, fields_name: str, limit_key: str, options: Callable[[Op, dict[str, Any]], None]
) -> Handler:
    async def run(op: Op) -> Any:
        options(op, dict(op.get(fields_name, {}) or {}))
        if op.first("returnAll", False):
            return await op.all(key, "GET", endpoint)
        op.qs[limit_key] = op.first("limit", 100)
        return ((await op.call("GET", endpoint, None, op.qs)) or {}).get(key)

    return run


def delete_operation(endpoint: str, parameter: str) -> Handler:
    async def run(op: Op) -> Any:
        found = op.get(parameter, extract=True)
        answer = await op.call("DELETE", endpoint.format(js_string(found)))
        return {"vid": found, "deleted": True} if answer is None else answer

    return run


def search_operation(kind: str) -> Handler:
    async def run(op: Op) -> Any:
        fields = dict(op.get("additionalFields", {}) or {})
        groups = op.get("filterGroupsUi", {}) or {}
        body: dict[str, Any] = {
            "sorts": [{"propertyName": fields.get("sortBy") or "createdate",
                       "direction": fields.get("direction") or "DESCENDING"}]
        }  # fmt: skip
        if groups.get("filterGroupsValues"):
            body["filterGroups"] = []
            for group in groups["filterGroupsValues"]:
                if group.get("filtersUi"):
                    filters = group["filtersUi"].get("filterValues") or []
                    for entry in filters:
                        entry.pop("type", None)
                        if entry.get("propertyName") is not None:
                            entry["propertyName"] = js_string(entry["propertyName"]).split("|")[0]
                    body["filterGroups"].append({"filters": filters})
            if len(body["filterGroups"]) > 3:
                raise NodeOperationError(op.api.ctx.node.name, "You can only have 3 filter groups", item_index=op.index)
        body.update(fields)
        endpoint = f"/crm/v3/objects/{kind}/search"
        if op.first("returnAll", False):
            return await op.all("results", "POST", endpoint, body)
        body["limit"] = op.first("limit", 100)
        return ((await op.call("POST", endpoint, body, op.qs)) or {}).get("results")

    return run


__all__ = ["delete_operation", "list_operation", "properties_collection", "search_operation", "since_options"]
