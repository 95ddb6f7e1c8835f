"""Ports of the Brevo node's functions (``nodes/Brevo/GenericFunctions.ts``: ``BrevoNode.Validators`` and the
attribute type interceptors; the inline functions of ``AttributeDescription.ts`` and ``ContactDescription.ts``).
Addresses are read as nodemailer reads them (:mod:`.brevo_addresses`)."""

from __future__ import annotations

import base64
from typing import Any

from weft.errors import NodeOperationError, WeftError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.ports.brevo_addresses import addresses
from weft.nodes.routing.ports.high_level import js_string

#: ``BrevoNode.INTERCEPTORS``: the attribute ``type`` each category sends (a normal attribute is always boolean).
ATTRIBUTE_TYPES = {"category": "category", "normal": "boolean", "transactional": "id"}


def _body(options: dict[str, Any]) -> dict[str, Any]:
    body = options.get("body")
    if not isinstance(body, dict):
        body = {}
        options["body"] = body
    return body


@port("preSend", "", "e7d779f619631c14")
async def attribute_type(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Creating an attribute: the ``type`` its category implies."""
    category = call.get_node_parameter("attributeCategory")
    if isinstance(category, str) and category in ATTRIBUTE_TYPES:
        _body(options)["type"] = ATTRIBUTE_TYPES[category]
    return options


@port("preSend", "", "dad1cfa179b65536")
async def update_enabled(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Upserting a contact: ``updateEnabled: true``."""
    _body(options)["updateEnabled"] = True
    return options


def _parameter(call: RoutingCall, name: str) -> Any:
    value = call.get_node_parameter(name)
    return value if isinstance(value, dict) else {}


def _address_field(key: str, value: Any) -> dict[str, Any]:
    """``validateEmailStrings({[key]: value})``: the header's addresses (``sender``: the first), or ``undefined``
    for an empty value (nodemailer sets no header for it)."""
    if not value:
        return {key: UNDEFINED}
    found = addresses(js_string(value))
    if key == "sender":
        return {key: found[0] if found else UNDEFINED}
    return {key: found}


@port("preSend", "validateAndCompileCCEmails", "17feaecee8610cf2")
async def cc_emails(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    cc = _parameter(call, "additionalFields.receipientsCC.receipientCc").get("cc", UNDEFINED)
    _body(options).update(_address_field("cc", cc))
    return options


@port("preSend", "validateAndCompileBCCEmails", "5fe93b79c4e8189e")
async def bcc_emails(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    bcc = _parameter(call, "additionalFields.receipientsBCC.receipientBcc").get("bcc", UNDEFINED)
    _body(options).update(_address_field("bcc", bcc))
    return options


@port("preSend", "validateAndCompileRecipientEmails", "fddd39aa1aacaccf")
async def recipient_emails(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _body(options).update(_address_field("to", call.get_node_parameter("receipients")))
    return options


@port("preSend", "validateAndCompileSenderEmail", "725b6faad1308127")
async def sender_email(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _body(options).update(_address_field("sender", call.get_node_parameter("sender")))
    return options


@port("preSend", "validateAndCompileTags", "a16c1beac149be18")
async def tags(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """``a, b,`` as ``["a", "b"]``."""
    tag = _parameter(call, "additionalFields.emailTags.tags").get("tag", UNDEFINED)
    if not isinstance(tag, str):
        raise _type_error(call, "split", tag)
    _body(options)["tags"] = [entry.strip() for entry in tag.split(",") if entry.strip() != ""]
    return options


@port("preSend", "validateAndCompileTemplateParameters", "5364d8c659965064")
async def template_parameters(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """``key=value,key2=value2`` as ``params`` (entries without exactly one ``=`` left out)."""
    given = _parameter(call, "additionalFields.templateParameters.parameterValues").get("parameters", UNDEFINED)
    if not isinstance(given, str):
        raise _type_error(call, "split", given)
    params: dict[str, str] = {}
    for entry in given.split(","):
        parts = entry.split("=")
        if len(parts) == 2:
            params[parts[0]] = parts[1]
    _body(options)["params"] = params
    return options


def file_name(item_index: int, mime_type: str, extension: str | None, name: str | None) -> str:
    """``getFileName`` (n8n 2.41): the name with the file's extension, ``file-<item>.<ext>`` without a name."""
    ext = extension if extension is not None else (mime_type.split("/")[1] if "/" in mime_type else "undefined")
    if not name:
        return f"file-{item_index}.{ext}"
    return name if name.lower().endswith(f".{ext.lower()}") else f"{name}.{ext}"


@port("preSend", "validateAndCompileAttachmentsData", "35b1c128068a0a57")
async def attachments(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Each binary property named (comma-separated) as ``{content: base64, name}`` in ``attachment``."""
    listed = _parameter(call, "additionalFields.emailAttachments.attachment")
    body = _body(options)
    attachment = body.get("attachment") if isinstance(body.get("attachment"), list) else []
    assert isinstance(attachment, list)
    ctx = call.scope.ctx
    try:
        names = listed.get("binaryPropertyName", UNDEFINED)
        if not isinstance(names, str):
            raise _type_error(call, "split", names)
        for name in names.split(","):
            binary = ctx.assert_binary_data(call.item_index, name.strip())
            data = await ctx.get_binary_data_buffer(call.item_index, name.strip())
            mime = str(binary.get("mimeType") or "")
            label = file_name(call.item_index, mime, binary.get("fileExtension"), binary.get("fileName"))
            attachment.append({"content": base64.b64encode(data).decode("ascii"), "name": label})
    except WeftError as error:
        raise NodeOperationError(call.node_name, error.message, item_index=call.item_index) from error
    body["attachment"] = attachment
    return options


def _type_error(call: RoutingCall, what: str, of: Any) -> NodeOperationError:
    """The ``TypeError`` n8n meets on a missing value."""
    return NodeOperationError(
        call.node_name, f"Cannot read properties of {js_string(of)} (reading '{what}')", item_index=call.item_index
    )
