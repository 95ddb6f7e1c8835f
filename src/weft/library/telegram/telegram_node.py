"""Telegram (``n8n-nodes-base.telegram`` 1, 1.1, 1.2): the Bot API's messages (text, files by URL, id or upload,
media groups, edits, pins, chat actions, locations), chats, callback and inline query answers, and files (their
path, and the file itself as binary data).

Requests go to ``<baseUrl>/bot<accessToken>/<method>`` of the ``telegramApi`` credential (``baseUrl``:
``https://api.telegram.org`` unless set), JSON bodies, or multipart with the file when "Binary File" is on.
Send Message's text gets n8n's attribution line from 1.1 on (unless "Append n8n Attribution" is off), Markdown
as its parse mode unless set, and no link preview where it holds no link (1.2: unless set). A Telegram error
(``{"ok": false, "error_code": 400, "description": ...}``) fails the item with n8n's message; under "continue"
the item's output is ``{"error": <Telegram's description>}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.binary.meta import lookup
from weft.errors import NodeError, NodeOperationError
from weft.library.telegram.api import CREDENTIAL, api_request
from weft.library.telegram.multipart import upload_body
from weft.library.telegram.operations import build, file_field
from weft.library.telegram.send_and_wait import send_and_wait
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput
from weft.workflow.items import PairedItem


class Telegram(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.telegram",
        display_name="Telegram",
        versions=(1, 1.1, 1.2),
        description="Sends data to Telegram",
        group=("output",),
        usable_as_tool=True,
        credentials=(CREDENTIAL,),
        defaults={
            "resource": "message",
            "operation": "sendMessage",
            "chatId": "",
            "text": "",
            "binaryData": False,
            "binaryPropertyName": "data",
            "replyMarkup": "none",
            "additionalFields": {},
            "download": True,
            "messageType": "message",
        },
    )
    parameter_order: ClassVar[tuple[str, ...]] = (
        *("resource", "operation", "chatId", "messageId", "userId", "description", "title", "queryId", "results"),
        *("fileId", "download", "messageType", "binaryData", "binaryPropertyName", "inlineMessageId", "file"),
        *("action", "latitude", "longitude", "media", "text", "replyMarkup", "additionalFields"),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        resource = str(ctx.get_node_parameter("resource", 0, "message"))
        operation = str(ctx.get_node_parameter("operation", 0, "sendMessage"))
        if resource == "message" and operation == "sendAndWait":
            async with ApiRequests(ctx) as api:
                return await send_and_wait(ctx, api)
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            for index in range(len(ctx.get_input_data())):
                try:
                    out.extend(await _run_item(ctx, api, resource, operation, index))
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    message = error.description if error.description is not None else error.message
                    out.append({"json": {"error": message}, "pairedItem": {"item": index}})
        return [out]


async def _run_item(ctx: ExecuteContext, api: ApiRequests, resource: str, operation: str, index: int) -> list[Item]:
    endpoint, body = build(ctx, resource, operation, index)
    if ctx.get_node_parameter("binaryData", 0, False):
        response = await _upload(ctx, api, operation, endpoint, body, index)
    else:
        response = await api_request(api, "POST", endpoint, body, index)
    paired: PairedItem = {"item": index}
    if resource == "file" and operation == "get" and ctx.get_node_parameter("download", index, True):
        binary = await _download(ctx, api, response, index)
        return [{"json": response, "binary": {"data": binary}, "pairedItem": paired}]
    if resource == "chat" and operation == "administrators":
        rows = response.get("result") if isinstance(response, dict) else None
        return [{"json": row, "pairedItem": paired} for row in _json_array(rows)]
    return [{"json": row, "pairedItem": paired} for row in _json_array(response)]


def _json_array(value: Any) -> list[dict[str, Any]]:
    """n8n's ``returnJsonArray``."""
    rows = value if isinstance(value, list) else [value]
    return [row if isinstance(row, dict) else {"json": row} for row in rows]


async def _upload(
    ctx: ExecuteContext, api: ApiRequests, operation: str, endpoint: str, body: dict[str, Any], index: int
) -> Any:
    """The request with the item's binary file as multipart form data."""
    name = ctx.get_node_parameter("binaryPropertyName", index, "data")
    binary = ctx.assert_binary_data(index, name)
    given = ctx.get_node_parameter("additionalFields.fileName", index, "")
    filename = given or binary.get("fileName")
    if not filename:
        message = (
            f"File name is needed to {operation}. Make sure the property that holds the binary data\n"
            "\t\t\t\t\t\thas the file name property set or set it manually in the node using the File Name "
            "parameter under\n\t\t\t\t\t\tAdditional Fields."
        )
        raise NodeOperationError(ctx.node.name, message)
    data = await ctx.binary_bytes(binary)
    disable = body.get("disable_notification")
    body["disable_notification"] = "false" if disable is None or disable == "" else body["disable_notification"]
    content, content_type = upload_body(
        body, file_field(operation), str(filename), str(binary.get("mimeType") or ""), data
    )
    headers = {"Content-Type": content_type}
    return await api_request(api, "POST", endpoint, {}, index, {"body": content, "headers": headers})


async def _download(ctx: ExecuteContext, api: ApiRequests, response: Any, index: int) -> dict[str, Any]:
    """File Get with Download: the file at ``result.file_path`` as the item's ``data`` binary."""
    path = str(response["result"]["file_path"])
    credential = (await api.credential(CREDENTIAL)).data
    url = f"{credential.get('baseUrl')}/file/bot{credential.get('accessToken')}/{path}"
    data = await api.request(None, {"method": "GET", "url": url, "encoding": "arraybuffer"}, index)
    file_name = path.split("/")[-1]
    given = (ctx.get_node_parameter("additionalFields", index, {}) or {}).get("mimeType")
    mime = given if given is not None else (lookup(file_name) or "application/octet-stream")
    return await ctx.prepare_binary_data(bytes(data), file_name, mime)
