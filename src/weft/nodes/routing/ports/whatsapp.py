"""Ports of the WhatsApp Business Cloud node's functions (``nodes/WhatsApp/MessageFunctions.ts`` and
``MediaFunctions.ts``): the message's type, recipient, template and components, the upload of an item's binary
data (as a media to send, or on its own), and the node's words for a failed send.

*Send and Wait for Response* is code in n8n too (``customOperations``): :mod:`weft.library.whatsapp.whatsapp_node`
runs it."""

from __future__ import annotations

import re
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.paths import UNDEFINED, set_path
from weft.nodes.routing.ports.common import response_error
from weft.nodes.routing.ports.form_data import Part, encode, new_boundary
from weft.nodes.routing.postreceive import Items

_NEW_TEST_NUMBER = (
    "If you’re sending to a new test number, try sending a message to it from within the Meta developer portal first."
)
_ERROR_CODE = re.compile(r"^\(#\d+\) ")


def _body(options: dict[str, Any]) -> dict[str, Any]:
    """``if (!requestOptions.body) requestOptions.body = {}``."""
    if not options.get("body"):
        options["body"] = {}
    body: dict[str, Any] = options["body"]
    return body


def _js_number(value: Any) -> float:
    """``Number(value)`` for a parameter's value (``NaN`` for text that is not a number)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    text = str(value or "").strip()
    try:
        return float(text) if text else 0.0
    except ValueError:
        return float("nan")


def _number(value: float) -> int | float | None:
    if value != value:  # NaN is null in JSON
        return None
    return int(value) if value.is_integer() else value


@port("preSend", "setType", "ed8452a43d99b619")
async def set_type(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The body's ``type``: the message type, or ``template``."""
    operation = call.get_node_parameter("operation")
    kind = "template" if operation == "sendTemplate" else call.get_node_parameter("messageType", None)
    if options.get("body"):
        options["body"]["type"] = kind
    return options


@port("preSend", "cleanPhoneNumber", "1de3193d662142ab")
async def clean_phone_number(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """``to``: the recipient's number without ``-``, ``(``, ``)`` or ``+``."""
    number = str(call.get_node_parameter("recipientPhoneNumber"))
    _body(options)["to"] = re.sub(r"[\-()+]", "", number)
    return options


async def _upload_form(call: RoutingCall) -> tuple[str, bytes, str]:
    """``getUploadFormData``: the file name, the multipart body (the file and ``messaging_product``) and its
    boundary."""
    name = str(call.get_node_parameter("mediaPropertyName") or "").strip()
    if not name:
        raise NodeOperationError(
            call.node_name, 'Parameter "mediaPropertyName" is not defined', item_index=call.item_index
        )
    ctx = call.scope.ctx
    binary = ctx.assert_binary_data(call.item_index, name)
    fields = call.get_node_parameter("additionalFields")
    given = fields.get("mediaFileName") if isinstance(fields, dict) else None
    file_name = given or binary.get("fileName")
    if not file_name:
        raise NodeOperationError(call.node_name, "No file name given for media upload.", item_index=call.item_index)
    data = await ctx.get_binary_data_buffer(call.item_index, name)
    boundary = new_boundary()
    mime = binary.get("mimeType")
    parts = [
        Part("file", data, str(mime) if mime else None, str(file_name)),
        Part("messaging_product", b"whatsapp"),
    ]
    return str(file_name), encode(parts, boundary), boundary


def _multipart(options: dict[str, Any], body: bytes, boundary: str) -> None:
    headers = dict(options.get("headers") or {})
    headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    options["headers"] = headers
    options["body"] = body


@port("preSend", "setupUpload", "6a62e7f265c06e1e")
async def setup_upload(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Media upload: the item's binary data as the multipart body."""
    _, body, boundary = await _upload_form(call)
    _multipart(options, body, boundary)
    return options


@port("preSend", "mediaUploadFromItem", "a1a52ce93559ec1a")
async def media_upload_from_item(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """A media message from the item's binary data: uploaded first (``POST /<phone number id>/media``), then sent
    by the id WhatsApp answers (a document with its file name)."""
    file_name, body, boundary = await _upload_form(call)
    phone = call.get_node_parameter("phoneNumberId")
    upload: dict[str, Any] = {"url": f"/{phone}/media", "baseURL": options.get("baseURL"), "method": "POST"}
    _multipart(upload, body, boundary)
    answer = (await call.send_authenticated(upload)).get("body")
    kind = str(call.get_node_parameter("messageType"))
    target = _body(options)
    if not isinstance(target.get(kind), dict):
        target[kind] = {}
    target[kind]["id"] = answer.get("id") if isinstance(answer, dict) else UNDEFINED
    if kind == "document":
        target[kind]["filename"] = file_name
    return options


@port("preSend", "templateInfo", "219d1ff5a5e43ccb")
async def template_info(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """``template.name`` and ``template.language.code`` from the chosen ``name|language``."""
    parts = str(call.get_node_parameter("template")).split("|")
    body = _body(options)
    set_path(body, "template.name", parts[0])
    set_path(body, "template.language.code", parts[1] if len(parts) > 1 else UNDEFINED)
    return options


def _body_parameter(entry: dict[str, Any]) -> Any:
    kind = entry.get("type")
    if kind == "text":
        return entry
    if kind == "currency":
        amount = _js_number(entry.get("amount_1000")) * 1000
        currency = {"code": entry.get("code"), "fallback_value": entry.get("fallback_value")}
        return {"type": "currency", "currency": {**currency, "amount_1000": _number(amount)}}
    if kind == "date_time":
        return {"type": "date_time", "date_time": {"fallback_value": entry.get("date_time")}}
    return None


def _component(given: dict[str, Any]) -> dict[str, Any]:
    kind = given.get("type")
    comp: dict[str, Any] = {"type": kind}
    if kind == "body":
        entries = (given.get("bodyParameters") or {}).get("parameter") or []
        comp["parameters"] = [_body_parameter(e if isinstance(e, dict) else {}) for e in entries]
    elif kind == "button":
        index = given.get("index")
        comp["index"] = None if index is None else _js_string(index)
        comp["sub_type"] = given.get("sub_type")
        comp["parameters"] = [(given.get("buttonParameters") or {}).get("parameter")]
    elif kind == "header":
        entries = (given.get("headerParameters") or {}).get("parameter") or []
        comp["parameters"] = [
            {"type": "image", "image": {"link": e.get("imageLink")}} if e.get("type") == "image" else e for e in entries
        ]
    return comp


def _js_string(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@port("preSend", "componentsRequest", "12835233ead01799")
async def components_request(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """A template's components: body parameters (text, currency in thousandths, date), a button's, a header's."""
    components = call.get_node_parameter("components")
    given = components.get("component") if isinstance(components, dict) else None
    if not given:
        return options
    set_path(_body(options), "template.components", [_component(c if isinstance(c, dict) else {}) for c in given])
    return options


@port("postReceive", "sendErrorPostReceive", "8b27e068a46aebc3")
async def send_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A failed send (the operation ignores HTTP errors to get here): Meta's error, its ``(#code)`` cut, in the
    node's words for a bad media id or URL."""
    status = response.get("statusCode")
    if status == 500:
        raise response_error(
            call, {"statusCode": 500, "body": {}}, message="Sending failed", description=_NEW_TEST_NUMBER
        )
    if status == 400:
        body = response.get("body")
        found = body.get("error") if isinstance(body, dict) else None
        error = dict(found) if isinstance(found, dict) else {}
        error["message"] = _ERROR_CODE.sub("", str(error.get("message")), count=1)
        kind = call.get_node_parameter("messageType", "media")
        for ending, what in (
            ("is not a valid whatsapp business account media attachment ID", "ID"),
            ("is not a valid URI.", "URL"),
        ):
            if error["message"].endswith(ending):
                raise response_error(
                    call,
                    {"statusCode": 400, "body": {"error": error}},
                    message=f"Invalid {kind} {what}",
                    description=error["message"],
                )
        raise response_error(call, {**response, "body": {"error": error}})
    if isinstance(status, int) and status > 399:
        raise response_error(call, response)
    return items
