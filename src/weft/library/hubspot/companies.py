"""HubSpot's company operations (create, update, get, list, recently modified, search by domain, delete) as
n8n's ``HubspotV2.execute`` runs them for one item."""

from __future__ import annotations

from typing import Any

from weft.library.hubspot.common import delete_operation, list_operation, properties_collection, since_options
from weft.library.hubspot.fields import COMPANY_CREATE_FIELDS, COMPANY_UPDATE_FIELDS, properties
from weft.library.hubspot.op import Handler, Op
from weft.library.hubspot.transport import hubspot_all
from weft.nodes.values import js_string


async def company_create(op: Op) -> Any:
    fields = dict(op.get("additionalFields", {}) or {})
    body = [{"name": "name", "value": op.get("name")}, *properties(fields, COMPANY_CREATE_FIELDS, "name")]
    return await op.call("POST", "/companies/v2/companies", {"properties": body})


async def company_update(op: Op) -> Any:
    company = op.get("companyId", extract=True)
    fields = dict(op.get("updateFields", {}) or {})
    body = {"properties": properties(fields, COMPANY_UPDATE_FIELDS, "name")}
    return await op.call("PUT", f"/companies/v2/companies/{js_string(company)}", body)


async def company_get(op: Op) -> Any:
    company = op.get("companyId", extract=True)
    fields = dict(op.get("additionalFields", {}) or {})
    if fields.get("includeMergeAudits"):
        op.qs["includeMergeAudits"] = fields["includeMergeAudits"]
    return await op.call("GET", f"/companies/v2/companies/{js_string(company)}", None, op.qs)


def _company_list_options(op: Op, fields: dict[str, Any]) -> None:
    if fields.get("formSubmissionMode"):
        op.qs["formSubmissionMode"] = fields["formSubmissionMode"]
    if fields.get("listMerberships"):
        op.qs["showListMemberships"] = fields["listMerberships"]
    properties_collection(op, fields)


async def company_by_domain(op: Op) -> Any:
    domain = js_string(op.get("domain"))
    if "https://" in domain:
        domain = domain.replace("https://", "", 1)
    elif "http://" in domain:
        domain = domain.replace("http://", "", 1)
    options = dict(op.get("options", {}) or {})
    body: dict[str, Any] = {"requestOptions": {}}
    if options.get("properties"):
        body["requestOptions"] = {"properties": options["properties"]}
    endpoint = f"/companies/v2/domains/{domain}/companies"
    if op.first("returnAll", False):
        return await hubspot_all(op.api, "results", "POST", endpoint, op.index, body, {})
    body["limit"] = op.first("limit", 100)
    return ((await op.call("POST", endpoint, body)) or {}).get("results")


COMPANY_OPERATIONS: dict[str, Handler] = {
    "create": company_create,
    "update": company_update,
    "get": company_get,
    "getAll": list_operation("/companies/v2/companies/paged", "companies", "options", "limit",
                             _company_list_options),
    "getRecentlyCreatedUpdated": list_operation("/companies/v2/companies/recent/modified", "results",
                                                "additionalFields", "count", since_options),
    "searchByDomain": company_by_domain,
    "delete": delete_operation("/crm/v3/objects/companies/{}", "companyId"),
}  # fmt: skip

__all__ = ["COMPANY_OPERATIONS"]
