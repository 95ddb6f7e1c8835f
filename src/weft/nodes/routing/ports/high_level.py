"""Ports of the HighLevel node's functions (``nodes/HighLevel/v1/GenericFunctions.ts`` for version 1, on
``rest.gohighlevel.com/v1`` with an API key; ``v2/GenericFunctions.ts`` for version 2, on
``services.leadconnectorhq.com`` with OAuth2), registered for the sources of n8n 2.41.1, whose descriptions Weft
ships (2.8.4's differ only in putting ids into paths unencoded and in an error class)."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from weft.errors import NodeApiError, NodeOperationError
from weft.expressions.session import DEFAULT_TIMEZONE
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.postreceive import Items
from weft.nodes.routing.request import RequestData
from weft.nodes.timezones import local_zone

V1_BASE = "https://rest.gohighlevel.com/v1"
V2_BASE = "https://services.leadconnectorhq.com"
_EMAIL = re.compile(
    r"^(([^<>()\[\]\\.,;:\s@\"]+(\.[^<>()\[\]\\.,;:\s@\"]+)*)|(\".+\"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}"
    r"\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$"
)
_PHONE = re.compile(
    r"((?:\+|00)[17](?: |\-)?|(?:\+|00)[1-9]\d{0,2}(?: |\-)?|(?:\+|00)1\-\d{3}(?: |\-)?)?(0\d|\([0-9]{3}\)|[1-9]{0,3})"
    r"(?:((?: |\-)[0-9]{2}){4}|((?:[0-9]{2}){4})|((?: |\-)[0-9]{3}(?: |\-)[0-9]{4})|([0-9]{7}))"
)
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$")
_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def js_string(value: Any) -> str:
    """``String(value)`` for the values a parameter holds."""
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def is_email_valid(email: Any) -> bool:
    return _EMAIL.search(js_string(email).lower()) is not None


def is_phone_valid(phone: Any) -> bool:
    return _PHONE.search(js_string(phone)) is not None


def _default_zone(call: RoutingCall) -> str:
    """luxon's default zone while n8n runs the node: the workflow's timezone (its data proxy sets it)."""
    settings = call.scope.ctx.workflow.settings
    return settings.timezone or call.scope.expression_context().timezone or DEFAULT_TIMEZONE


def _zone(name: str) -> Any:
    if name.lower() in ("utc", "gmt", "z"):
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def _parse_iso(text: str, zone: Any) -> datetime | None:
    if not _ISO.match(text):
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed.replace(tzinfo=zone) if parsed.tzinfo is None else parsed


def date_to_iso_suppress_millis(value: Any, zone_name: str) -> str | None:
    """``DateTime.fromISO(value).toISO({suppressMilliseconds: true})`` in luxon's default zone (``null`` when the
    value is no ISO date)."""
    zone = _zone(zone_name)
    parsed = _parse_iso(value, zone) if isinstance(value, str) else None
    if parsed is None:
        return None
    local = parsed.astimezone(zone)
    text = local.strftime("%Y-%m-%dT%H:%M:%S")
    if local.microsecond // 1000:
        text += f".{local.microsecond // 1000:03d}"
    if zone is UTC:
        return text + "Z"
    offset = local.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "-"
    return f"{text}{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def js_epoch_ms(value: Any) -> float | int:
    """``new Date(value).getTime()``: a date-only ISO string is UTC, a date-time without offset the host's time."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = js_string(value)
    zone = UTC if _DATE_ONLY.match(text) else _zone(local_zone())
    parsed = _parse_iso(text, zone)
    if parsed is None:
        return math.nan
    return int(parsed.timestamp() * 1000 + (0.5 if parsed.timestamp() >= 0 else -0.5))


def path_segment(value: Any) -> str:
    """n8n's ``toPathSegment`` (2.41; 2.8.4 put the id in the path as it is)."""
    return quote(js_string(value), safe="-_.!~*'()")


def _body(options: dict[str, Any]) -> dict[str, Any]:
    """``requestOptions.body ?? {}`` (the same object, set on the options)."""
    body = options.get("body")
    if not isinstance(body, dict):
        body = {}
        options["body"] = body
    return body


def _api_error(call: RoutingCall, message: str) -> NodeApiError:
    """``new NodeApiError(this.getNode(), {}, {message, description: message})``."""
    return NodeApiError(call.node_name, message, description=message, item_index=call.item_index)


@port("postReceive", "taskPostReceiceAction", "d8cf6dfb3cfc3f00")
async def task_post_receive(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """Each item gets the task's ``contactId`` (the node's parameter)."""
    contact_id = call.get_node_parameter("contactId")
    for item in items:
        if isinstance(item.get("json"), dict):
            item["json"]["contactId"] = contact_id
    return items


@port("preSend", "dueDatePreSendAction", "ad173e86e4996faa", "ad5a8c8d3b6a85e2")
async def due_date(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The task's ``dueDate`` (the parameter, else the update field) as ISO without milliseconds."""
    given = call.get_node_parameter("dueDate", None)
    if not given:
        fields = call.get_node_parameter("updateFields")
        given = fields.get("dueDate") if isinstance(fields, dict) else None
    if not given:
        raise _api_error(call, "dueDate is required")
    _body(options)["dueDate"] = date_to_iso_suppress_millis(given, _default_zone(call))
    return options


@port("preSend", "contactIdentifierPreSendAction", "678545a9ac2b103c")
async def contact_identifier(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The opportunity's contact: an email, a phone number or a contact id, by its form."""
    body = _body(options)
    identifier = call.get_node_parameter("contactIdentifier", None)
    if not identifier:
        fields = call.get_node_parameter("updateFields")
        identifier = fields.get("contactIdentifier", UNDEFINED) if isinstance(fields, dict) else UNDEFINED
    if is_email_valid(identifier):
        body["email"] = identifier
    elif is_phone_valid(identifier):
        body["phone"] = identifier
    else:
        body["contactId"] = identifier
    return options


@port("preSend", "validEmailAndPhonePreSendAction", "e064c6916cbaf901", "fd52ce361fc6d52b")
async def valid_email_and_phone(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    body = options.get("body") if isinstance(options.get("body"), dict) else {}
    assert isinstance(body, dict)
    if body.get("email") and not is_email_valid(body["email"]):
        raise _api_error(call, f'email "{js_string(body["email"])}" has invalid format')
    if body.get("phone") and not is_phone_valid(body["phone"]):
        raise _api_error(call, f'phone "{js_string(body["phone"])}" has invalid format')
    return options


@port("preSend", "dateTimeToEpochPreSendAction", "b0abeaa1d37656d4", "2758444f0c6f1288")
async def date_time_to_epoch(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The query's ``startDate`` and ``endDate`` as epoch milliseconds."""
    qs = options.get("qs")
    if isinstance(qs, dict):
        for key in ("startDate", "endDate"):
            if qs.get(key):
                qs[key] = js_epoch_ms(qs[key])
    return options


@port("preSend", "addLocationIdPreSendAction", "ff3191ddf9c5bb8b")
async def add_location_id(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Version 2: the location of the OAuth2 token (``oauthTokenData.locationId``) on the requests that need it."""
    token = (call.credentials or {}).get("oauthTokenData")
    location = token.get("locationId", UNDEFINED) if isinstance(token, dict) else UNDEFINED
    resource, operation = call.get_node_parameter("resource"), call.get_node_parameter("operation")
    if resource not in ("contact", "opportunity"):
        return options
    if operation == "create":
        _body(options)["locationId"] = location
    elif operation == "getAll":
        if not isinstance(options.get("qs"), dict):
            options["qs"] = {}
        options["qs"]["locationId" if resource == "contact" else "location_id"] = location
    return options


async def api_request(call: RoutingCall, method: str, resource: str, body: dict[str, Any] | None = None) -> Any:
    """``highLevelApiRequest`` of the node's version: its base, ``json: true``, the body only when not empty."""
    version_2 = call.scope.version >= 2
    options: dict[str, Any] = {"method": method, "url": f"{V2_BASE if version_2 else V1_BASE}{resource}", "json": True}
    if version_2:
        options["headers"] = {"Content-Type": "application/json", "Version": "2021-07-28"}
    if body:
        options["body"] = body
    return (await call.send_authenticated(options)).get("body")


@port("postReceive", "addNotePostReceiveAction", "9f8286b29fc32948")
async def add_note(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """With ``additionalFields.notes``, a note on the created contact (``POST /contacts/{id}/notes``)."""
    note = call.get_node_parameter("additionalFields.notes", 0)
    if not note:
        return items
    body = response.get("body")
    contact = body.get("contact") if isinstance(body, dict) else None
    if not isinstance(contact, dict):
        raise NodeOperationError(
            call.node_name, "No response data available to extract contact ID and user ID.", item_index=call.item_index
        )
    note_body = {"userId": contact.get("locationId", UNDEFINED), "body": note}
    await api_request(call, "POST", f"/contacts/{path_segment(contact.get('id', UNDEFINED))}/notes", note_body)
    return items


@port("preSend", "opportunityUpdatePreSendAction", "878f5acc854ec7f7")
async def opportunity_update(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Version 1: an update without ``status`` or ``title`` takes them from the opportunity as it is."""
    body = options.get("body") if isinstance(options.get("body"), dict) else {}
    assert isinstance(body, dict)
    if not body.get("status") or not body.get("title"):
        pipeline = path_segment(call.get_node_parameter("pipelineId"))
        opportunity = path_segment(call.get_node_parameter("opportunityId"))
        found = await api_request(call, "GET", f"/pipelines/{pipeline}/opportunities/{opportunity}")
        found = found if isinstance(found, dict) else {}
        body["status"] = body.get("status") or found.get("status", UNDEFINED)
        body["title"] = body.get("title") or found.get("name", UNDEFINED)
        options["body"] = body
    return options


@port("preSend", "taskUpdatePreSendAction", "5b887204ad7819b4", "6e435e3b1c32ad4d")
async def task_update(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """An update without ``title`` or ``dueDate`` takes them from the task as the API answers it (version 2's
    answer nests the task under ``task``, so there n8n sends no title and a ``null`` due date)."""
    body = options.get("body") if isinstance(options.get("body"), dict) else {}
    assert isinstance(body, dict)
    if not body.get("title") or not body.get("dueDate"):
        contact = path_segment(call.get_node_parameter("contactId"))
        task = path_segment(call.get_node_parameter("taskId"))
        found = await api_request(call, "GET", f"/contacts/{contact}/tasks/{task}")
        found = found if isinstance(found, dict) else {}
        body["title"] = body.get("title") or found.get("title", UNDEFINED)
        body["dueDate"] = body.get("dueDate") or date_to_iso_suppress_millis(found.get("dueDate"), _default_zone(call))
        options["body"] = body
    return options


@port("preSend", "splitTagsPreSendAction", "afc742ba75a6df35", "ecb43828ff9cb47b")
async def split_tags(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """``tags`` given as ``a, b`` become a list."""
    body = options.get("body")
    if isinstance(body, dict) and body.get("tags") and not isinstance(body["tags"], list):
        body["tags"] = [tag.strip() for tag in js_string(body["tags"]).split(",")]
    return options


@port("preSend", "addCustomFieldsPreSendAction", "dcdd6a43f4ed8200")
async def add_custom_fields(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Version 2: ``customFields.values`` (resource locators) as the API's ``{id, key, field_value}``."""
    body = options.get("body")
    raw = body.get("customFields") if isinstance(body, dict) else None
    if not raw or not isinstance(raw, dict) or not isinstance(raw.get("values"), list):
        return options
    formatted = []
    for field in raw["values"]:
        field_id = field.get("fieldId") if isinstance(field, dict) else None
        if not isinstance(field_id, dict) or "value" not in field_id:
            raise NodeOperationError(call.node_name, "Error processing custom fields.", item_index=call.item_index)
        key = field_id.get("cachedResultName")
        formatted.append(
            {
                "id": field_id["value"],
                "key": "default_key" if key is None else key,
                "field_value": field.get("fieldValue", UNDEFINED),
            }
        )
    assert isinstance(body, dict)
    body["customFields"] = formatted
    return options


@port("pagination", "highLevelApiPagination", "595fee96b63751f1", "620c712a0841da48")
async def pagination(call: RoutingCall, data: RequestData) -> Items:
    """Contacts or opportunities page by page: 100 a page while ``returnAll``, each next page asked with only
    the ``startAfterId`` and ``startAfter`` of the last page's ``meta`` (as n8n does), until ``meta.total``."""
    assert call.make_routing_request is not None
    root = {"contact": "contacts", "opportunity": "opportunities"}.get(str(call.get_node_parameter("resource")))
    return_all = call.get_node_parameter("returnAll", False)
    if not isinstance(data.options.get("qs"), dict):
        data.options["qs"] = {}
    if return_all:
        data.options["qs"]["limit"] = 100
    items: Items = []
    while True:
        page = await call.make_routing_request(data)
        found = page[0]["json"] if page and isinstance(page[0].get("json"), dict) else {}
        items.extend({"json": item} for item in _list(found.get(root or "", UNDEFINED), call))
        meta = found.get("meta")
        if not isinstance(meta, dict):
            raise _type_error(call, "startAfterId", "undefined")
        data.options["qs"] = {"startAfterId": meta.get("startAfterId"), "startAfter": meta.get("startAfter")}
        total = meta.get("total") or 0
        if not (return_all and isinstance(total, int | float) and total > len(items)):
            return items


def _list(value: Any, call: RoutingCall) -> list[Any]:
    if isinstance(value, list):
        return value
    raise _type_error(call, "forEach", js_string(value))


def _type_error(call: RoutingCall, what: str, of: str) -> NodeOperationError:
    """The ``TypeError`` n8n's pagination meets on an answer without the list or its ``meta``."""
    return NodeOperationError(
        call.node_name, f"Cannot read properties of {of} (reading '{what}')", item_index=call.item_index
    )
