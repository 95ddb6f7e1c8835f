"""Each HubSpot operation as n8n's ``HubspotV2.execute`` runs it for one item: the request(s) and the answer
(an object, a list, or ``None`` for an empty answer). ``qs`` is shared by the run's items, as in n8n."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from weft.errors import NodeOperationError
from weft.library.hubspot.fields import (
    COMPANY_CREATE_FIELDS,
    COMPANY_UPDATE_FIELDS,
    CONTACT_FIELDS,
    DEAL_FIELDS,
    DEAL_UPDATE_FIELDS,
    epoch_ms,
    properties,
)
from weft.library.hubspot.transport import hubspot_all, hubspot_request
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string


@dataclass
class Op:
    """One item's operation: the run's API, parameters, shared query and item index."""

    api: ApiRequests
    scope: RoutingScope
    index: int
    qs: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, *default: Any, extract: bool = False) -> Any:
        return self.scope.parameter(name, self.index, *default, extract_value=extract)

    def first(self, name: str, *default: Any) -> Any:
        return self.scope.parameter(name, 0, *default)

    async def call(self, method: str, endpoint: str, body: Any = None, qs: dict[str, Any] | None = None) -> Any:
        return await hubspot_request(self.api, method, endpoint, self.index, body, qs)

    async def all(self, key: str, method: str, endpoint: str, body: Any = None) -> list[Any]:
        return await hubspot_all(self.api, key, method, endpoint, self.index, body, self.qs)


Handler = Callable[[Op], Awaitable[Any]]


def _properties_collection(op: Op, fields: dict[str, Any], key: str = "properties") -> None:
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


def _contact_options(op: Op, fields: dict[str, Any], key: str) -> None:
    if fields.get("formSubmissionMode"):
        op.qs["formSubmissionMode"] = fields["formSubmissionMode"]
    if fields.get("listMemberships"):
        op.qs["showListMemberships"] = fields["listMemberships"]
    _properties_collection(op, fields, key)


async def contact_upsert(op: Op) -> Any:
    email = op.get("email")
    fields = dict(op.get("additionalFields", {}) or {})
    options = dict(op.get("options", {}) or {})
    body = {"properties": properties(fields, CONTACT_FIELDS, "property")}
    answer = await op.call("POST", f"/contacts/v1/contact/createOrUpdate/email/{js_string(email)}", body)
    if fields.get("associatedCompanyId"):
        link = {"fromObjectId": answer.get("vid"), "toObjectId": fields["associatedCompanyId"]}
        link.update(category="HUBSPOT_DEFINED", definitionId=1)
        await op.call("PUT", "/crm-associations/v1/associations/create-batch", [link])
    if options.get("resolveData"):
        return answer
    is_new = answer.get("isNew")
    if fields.get("properties"):
        op.qs["property"] = fields["properties"]
    profile = await op.call("GET", f"/contacts/v1/contact/vid/{js_string(answer.get('vid'))}/profile", None, op.qs)
    profile["isNew"] = is_new
    return profile


async def contact_get(op: Op) -> Any:
    contact = op.get("contactId", extract=True)
    _contact_options(op, dict(op.get("additionalFields", {}) or {}), "properties")
    return await op.call("GET", f"/contacts/v1/contact/vid/{js_string(contact)}/profile", None, op.qs)


def _list(
    endpoint: str, key: str, fields_name: str, limit_key: str, options: Callable[[Op, dict[str, Any]], None]
) -> Handler:
    async def run(op: Op) -> Any:
        options(op, dict(op.get(fields_name, {}) or {}))
        if op.first("returnAll", False):
            return await op.all(key, "GET", endpoint)
        op.qs[limit_key] = op.first("limit", 100)
        return ((await op.call("GET", endpoint, None, op.qs)) or {}).get(key)

    return run


def _contact_list_options(op: Op, fields: dict[str, Any]) -> None:
    _contact_options(op, fields, "property")


def _contact_recent_options(op: Op, fields: dict[str, Any]) -> None:
    _contact_options(op, fields, "properties")


def _delete(endpoint: str, parameter: str) -> Handler:
    async def run(op: Op) -> Any:
        found = op.get(parameter, extract=True)
        answer = await op.call("DELETE", endpoint.format(js_string(found)))
        return {"vid": found, "deleted": True} if answer is None else answer

    return run


def _search(kind: str) -> Handler:
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
    _properties_collection(op, fields)


def _since_options(op: Op, fields: dict[str, Any]) -> None:
    if fields.get("since"):
        op.qs["since"] = epoch_ms(fields["since"])
    if fields.get("includePropertyVersions"):
        op.qs["includePropertyVersions"] = fields["includePropertyVersions"]
    _properties_collection(op, fields)


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
    _properties_collection(op, filters)
    return await op.call("GET", f"/deals/v1/deal/{js_string(deal)}")


def _deal_list_options(op: Op, filters: dict[str, Any]) -> None:
    if filters.get("includeAssociations"):
        op.qs["includeAssociations"] = filters["includeAssociations"]
    _properties_collection(op, filters)
    for key in ("properties", "propertiesWithHistory"):
        value = filters.get(key)
        if value:
            op.qs[key] = value if isinstance(value, list) else js_string(value).split(",")


def _no_options(op: Op, fields: dict[str, Any]) -> None:
    return None


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


OPERATIONS: dict[str, dict[str, Handler]] = {
    "contact": {
        "upsert": contact_upsert,
        "get": contact_get,
        "getAll": _list("/contacts/v1/lists/all/contacts/all", "contacts", "additionalFields", "count",
                        _contact_list_options),
        "getRecentlyCreatedUpdated": _list("/contacts/v1/lists/recently_updated/contacts/recent", "contacts",
                                           "additionalFields", "count", _contact_recent_options),
        "delete": _delete("/contacts/v1/contact/vid/{}", "contactId"),
        "search": _search("contacts"),
    },
    "company": {
        "create": company_create,
        "update": company_update,
        "get": company_get,
        "getAll": _list("/companies/v2/companies/paged", "companies", "options", "limit", _company_list_options),
        "getRecentlyCreatedUpdated": _list("/companies/v2/companies/recent/modified", "results",
                                           "additionalFields", "count", _since_options),
        "searchByDomain": company_by_domain,
        "delete": _delete("/crm/v3/objects/companies/{}", "companyId"),
    },
    "deal": {
        "create": deal_create,
        "update": deal_update,
        "get": deal_get,
        "getAll": _list("/deals/v1/deal/paged", "deals", "filters", "limit", _deal_list_options),
        "getRecentlyCreatedUpdated": _list("/deals/v1/deal/recent/created", "results", "filters", "count",
                                           _since_options),
        "delete": _delete("/deals/v1/deal/{}", "dealId"),
        "search": _search("deals"),
    },
    "engagement": {"create": engagement_create, "get": engagement_get, "getAll": engagement_get_all,
                   "delete": engagement_delete},
    "ticket": {"get": ticket_get, "delete": ticket_delete},
}  # fmt: skip


def operation(node: str, resource: str, name: str) -> Handler:
    """The handler of ``resource``/``name``, or a typed error naming what Weft lacks."""
    found = OPERATIONS.get(resource, {}).get(name)
    if found is None:
        raise NodeOperationError(
            node,
            f'The operation "{name}" of the resource "{resource}" is not supported by Weft yet',
            description="Use an HTTP Request node with the HubSpot credential for this operation.",
        )
    return found


__all__ = ["OPERATIONS", "Op", "operation"]
