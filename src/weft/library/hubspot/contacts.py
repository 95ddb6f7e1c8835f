"""HubSpot's contact operations (upsert, get, list, recently created/updated, delete, search) as n8n's
``HubspotV2.execute`` runs them for one item."""

from __future__ import annotations

from typing import Any

from weft.library.hubspot.common import delete_operation, list_operation, properties_collection, search_operation
from weft.library.hubspot.fields import CONTACT_FIELDS, properties
from weft.library.hubspot.op import Handler, Op
from weft.nodes.values import js_string


def _contact_options(op: Op, fields: dict[str, Any], key: str) -> None:
    if fields.get("formSubmissionMode"):
        op.qs["formSubmissionMode"] = fields["formSubmissionMode"]
    if fields.get("listMemberships"):
        op.qs["showListMemberships"] = fields["listMemberships"]
    properties_collection(op, fields, key)


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


def _contact_list_options(op: Op, fields: dict[str, Any]) -> None:
    _contact_options(op, fields, "property")


def _contact_recent_options(op: Op, fields: dict[str, Any]) -> None:
    _contact_options(op, fields, "properties")


CONTACT_OPERATIONS: dict[str, Handler] = {
    "upsert": contact_upsert,
    "get": contact_get,
    "getAll": list_operation("/contacts/v1/lists/all/contacts/all", "contacts", "additionalFields", "count",
                             _contact_list_options),
    "getRecentlyCreatedUpdated": list_operation("/contacts/v1/lists/recently_updated/contacts/recent", "contacts",
                                                "additionalFields", "count", _contact_recent_options),
    "delete": delete_operation("/contacts/v1/contact/vid/{}", "contactId"),
    "search": search_operation("contacts"),
}  # fmt: skip

__all__ = ["CONTACT_OPERATIONS"]
