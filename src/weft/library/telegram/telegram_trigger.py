"""Telegram Trigger (``n8n-nodes-base.telegramTrigger`` v1-1.5): the bot's updates, by webhook.

On activation the bot's webhook is set to the node's URL (``setWebhook`` with ``allowed_updates`` and a
``secret_token``, unless ``getWebhookInfo`` already names that URL), on deactivation deleted. From v1.1 a call
without the ``X-Telegram-Bot-Api-Secret-Token`` header n8n set is refused (403); updates can be filtered (v1.5:
by the chosen update types; v1.2: by chat and user ids) and an image, video or document downloaded as binary
``data``.
"""

from __future__ import annotations

import hmac
import re
from typing import Any, ClassVar

from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import TriggerContext, WebhookRequest, WebhookResult, run_trigger_node
from weft.nodes.webhooks import WebhookResponse
from weft.workflow import NodeOutput

TELEGRAM_TRIGGER_TYPE = "n8n-nodes-base.telegramTrigger"
SECRET_HEADER = "x-telegram-bot-api-secret-token"
UPDATE_TYPE_KEYS = (
    "message",
    "edited_message",
    "channel_post",
    "edited_channel_post",
    "inline_query",
    "chosen_inline_result",
    "callback_query",
    "shipping_query",
    "pre_checkout_query",
    "poll",
)
_IMAGE_INDEX = {"small": 0, "medium": 1, "large": 2, "extraLarge": 3}
_CHAT_KEYS = ("message", "edited_message", "channel_post", "edited_channel_post", "callback_query")
_USER_KEYS = (*_CHAT_KEYS, "inline_query", "pre_checkout_query", "shipping_query")


def secret_token(ctx: ExecuteContext) -> str:
    """n8n's ``getSecretToken``: ``<workflow id>_<node id>`` with only ``A-Za-z0-9_-`` kept."""
    return re.sub(r"[^a-zA-Z0-9_\-]+", "", f"{ctx.workflow.id}_{ctx.node.id}")


async def _api(ctx: ExecuteContext, method: str, endpoint: str, body: dict[str, Any] | None = None) -> Any:
    async with ApiRequests(ctx) as api:
        credential = (await api.credential("telegramApi")).data
        base = str(credential.get("baseUrl") or "https://api.telegram.org").rstrip("/")
        options: dict[str, Any] = {"method": method, "url": f"{base}/bot{credential.get('accessToken')}/{endpoint}"}
        if body is not None:
            options["body"] = body
        return await api.request(None, {**options, "json": True})


class TelegramTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=TELEGRAM_TRIGGER_TYPE,
        display_name="Telegram Trigger",
        versions=(1, 1.1, 1.2, 1.3, 1.4, 1.5),
        description="Starts the workflow on a Telegram update",
        group=("trigger",),
        inputs=(),
        credentials=("telegramApi",),
        defaults={"updates": [], "additionalFields": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def check_exists(self, ctx: TriggerContext) -> bool:
        info = await _api(ctx, "POST", "getWebhookInfo", {})
        result = info.get("result") if isinstance(info, dict) else None
        return isinstance(result, dict) and result.get("url") == ctx.get_node_webhook_url()

    async def create(self, ctx: TriggerContext) -> bool:
        allowed = list(ctx.get_node_parameter("updates", default=[]) or [])
        if "*" in allowed:
            allowed = []
        elif ctx.node.typeVersion >= 1.5 and "callback_query" not in allowed:
            allowed.append("callback_query")
        body = {
            "url": ctx.get_node_webhook_url(),
            "allowed_updates": allowed,
            "secret_token": secret_token(ctx),
            "drop_pending_updates": ctx.node.typeVersion >= 1.3,
        }
        await _api(ctx, "POST", "setWebhook", body)
        return True

    async def delete(self, ctx: TriggerContext) -> bool:
        try:
            await _api(ctx, "POST", "deleteWebhook", {})
        except Exception:
            return False
        return True

    async def webhook(self, ctx: TriggerContext, request: WebhookRequest) -> WebhookResult:
        version = ctx.node.typeVersion
        if version > 1:
            given = request.headers.get(SECRET_HEADER, "").encode()
            if not hmac.compare_digest(secret_token(ctx).encode(), given):
                return WebhookResult(response=WebhookResponse.json({"message": "Provided secret is not valid"}, 403))
        update = request.body()
        if not isinstance(update, dict) or not _wanted(ctx, update):
            return WebhookResult()
        fields = ctx.get_node_parameter("additionalFields", default={}) or {}
        item: dict[str, Any] = {"json": update}
        if fields.get("download"):
            binary = await _download(ctx, update, str(fields.get("imageSize") or "large"))
            if binary is not None:
                item["binary"] = {"data": binary}
        return WebhookResult(workflow_data=[[item]])  # type: ignore[list-item]


def _wanted(ctx: ExecuteContext, update: dict[str, Any]) -> bool:
    """n8n's filters: the update types (v1.5), the chat and user ids (v1.2; v1.4 looks in every update type)."""
    version = ctx.node.typeVersion
    if version >= 1.5:
        updates = ctx.get_node_parameter("updates", default=[]) or []
        kind = next((key for key in UPDATE_TYPE_KEYS if update.get(key) is not None), None)
        if updates and "*" not in updates and kind is not None and kind not in updates:
            return False
    if version < 1.2:
        return True
    fields = ctx.get_node_parameter("additionalFields", default={}) or {}
    chats = _ids(fields.get("chatIds"))
    if chats and _pick(update, _CHAT_KEYS if version >= 1.4 else ("message",), "chat") not in chats:
        return False
    users = _ids(fields.get("userIds"))
    return not users or _pick(update, _USER_KEYS if version >= 1.4 else ("message",), "from") in users


def _ids(value: Any) -> list[str]:
    return [part.strip() for part in str(value).split(",")] if value else []


def _pick(update: dict[str, Any], keys: tuple[str, ...], field: str) -> str:
    for key in keys:
        entry = update.get(key)
        if key == "callback_query" and field == "chat":
            entry = (entry or {}).get("message")
        found = (entry or {}).get(field) if isinstance(entry, dict) else None
        if isinstance(found, dict) and found.get("id") is not None:
            return str(found["id"])
    return "undefined"


async def _download(ctx: ExecuteContext, update: dict[str, Any], size: str) -> dict[str, Any] | None:
    message = update.get("channel_post") if update.get("channel_post") else update.get("message")
    if not isinstance(message, dict):
        return None
    photo, video, document = message.get("photo"), message.get("video"), message.get("document")
    if isinstance(photo, list) and photo:
        index = _IMAGE_INDEX.get(size, 2)
        file_id = (photo[index] if index < len(photo) else photo[0]).get("file_id")
    elif isinstance(video, dict) or isinstance(document, dict):
        file_id = (video if isinstance(video, dict) else document or {}).get("file_id")
    else:
        return None
    found = await _api(ctx, "GET", f"getFile?file_id={file_id}")
    path = str(found["result"]["file_path"])
    async with ApiRequests(ctx) as api:
        credential = (await api.credential("telegramApi")).data
        base = str(credential.get("baseUrl") or "https://api.telegram.org").rstrip("/")
        url = f"{base}/file/bot{credential.get('accessToken')}/{path}"
        data = await api.request(None, {"method": "GET", "url": url, "encoding": "arraybuffer", "json": False})
    return await ctx.prepare_binary_data(bytes(data), path.rsplit("/", 1)[-1])


__all__ = ["TELEGRAM_TRIGGER_TYPE", "TelegramTrigger", "secret_token"]
