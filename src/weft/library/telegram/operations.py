"""Each resource and operation's Bot API method and body, as n8n's Telegram node builds them."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.telegram.fields import add_additional_fields, add_reply_markup
from weft.nodes.contract import ExecuteContext

#: The operations that send a file: the body field named after them (n8n's ``getPropertyName``).
FILE_OPERATIONS = ("sendAnimation", "sendAudio", "sendDocument", "sendPhoto", "sendSticker", "sendVideo")
_CHAT = {
    "get": ("getChat", ()),
    "administrators": ("getChatAdministrators", ()),
    "leave": ("leaveChat", ()),
    "member": ("getChatMember", (("user_id", "userId"),)),
    "setDescription": ("setChatDescription", (("description", "description"),)),
    "setTitle": ("setChatTitle", (("title", "title"),)),
}
_MESSAGE_BY_ID = {"deleteMessage", "pinChatMessage", "unpinChatMessage"}


def build(ctx: ExecuteContext, resource: str, operation: str, index: int) -> tuple[str, dict[str, Any]]:
    """The method to call and its body for item ``index``."""
    param = ctx.get_node_parameter
    body: dict[str, Any] = {}
    if resource == "callback":
        if operation == "answerQuery":
            body["callback_query_id"] = param("queryId", index)
            body.update(param("additionalFields", index, {}) or {})
            return "answerCallbackQuery", body
        if operation == "answerInlineQuery":
            body["inline_query_id"] = param("queryId", index)
            body["results"] = param("results", index)
            body.update(param("additionalFields", index, {}) or {})
            return "answerInlineQuery", body
    elif resource == "chat" and operation in _CHAT:
        endpoint, extra = _CHAT[operation]
        body["chat_id"] = param("chatId", index)
        for field, name in extra:
            body[field] = param(name, index)
        return endpoint, body
    elif resource == "file" and operation == "get":
        return "getFile", {"file_id": param("fileId", index)}
    elif resource == "message":
        return _message(ctx, operation, index)
    elif resource not in ("callback", "chat", "file"):
        raise NodeOperationError(ctx.node.name, f'The resource "{resource}" is not known!', item_index=index)
    return "", body  # n8n posts to the bot URL itself for an operation it does not know


def _message(ctx: ExecuteContext, operation: str, index: int) -> tuple[str, dict[str, Any]]:
    param = ctx.get_node_parameter
    body: dict[str, Any] = {}
    if operation == "editMessageText":
        if param("messageType", index, "message") == "inlineMessage":
            body["inline_message_id"] = param("inlineMessageId", index)
        else:
            body["chat_id"] = param("chatId", index)
            body["message_id"] = param("messageId", index)
        body["text"] = param("text", index)
        add_additional_fields(ctx, body, index)
        return operation, body
    body["chat_id"] = param("chatId", index)
    if operation in _MESSAGE_BY_ID:
        body["message_id"] = param("messageId", index)
        if operation == "pinChatMessage" and (param("additionalFields", index, {}) or {}).get("disable_notification"):
            body["disable_notification"] = True
    elif operation in FILE_OPERATIONS:
        body[file_field(operation)] = param("file", index, "")
        add_additional_fields(ctx, body, index)
    elif operation == "sendChatAction":
        body["action"] = param("action", index, "typing")
    elif operation == "sendLocation":
        body["latitude"] = param("latitude", index, 0)
        body["longitude"] = param("longitude", index, 0)
        add_additional_fields(ctx, body, index)
    elif operation == "sendMessage":
        body["text"] = param("text", index)
        add_additional_fields(ctx, body, index, ctx.node.typeVersion)
    elif operation == "sendMediaGroup":
        body.update(param("additionalFields", index, {}) or {})
        body["media"] = _media(ctx, index)
    elif operation == "sendMessageDraft":
        return operation, _draft(ctx, body, index)
    elif operation in ("sendRichMessage", "sendRichMessageDraft"):
        return operation, _rich(ctx, operation, body, index)
    return operation, body


def file_field(operation: str) -> str:
    """``getPropertyName``: ``sendPhoto`` → ``photo``."""
    return operation.replace("send", "", 1).lower()


def _media(ctx: ExecuteContext, index: int) -> list[dict[str, Any]]:
    media = ctx.get_node_parameter("media", index, {}) or {}
    sent = []
    for entry in media.get("media") or []:
        entry = dict(entry)
        extra = entry.pop("additionalFields", None)
        if extra is not None:
            entry.update(extra)
        sent.append(entry)
    return sent


def _draft_id(ctx: ExecuteContext, index: int) -> Any:
    draft_id = ctx.get_node_parameter("draftId", index, 1)
    if not draft_id:
        raise NodeOperationError(ctx.node.name, "Draft ID must be non-zero", item_index=index)
    return draft_id


def _draft(ctx: ExecuteContext, body: dict[str, Any], index: int) -> dict[str, Any]:
    draft_id = _draft_id(ctx, index)
    body["draft_id"] = draft_id
    body["text"] = ctx.get_node_parameter("text", index, "")
    body.update(ctx.get_node_parameter("additionalFields", index, {}) or {})
    return body


def _rich(ctx: ExecuteContext, operation: str, body: dict[str, Any], index: int) -> dict[str, Any]:
    if operation == "sendRichMessageDraft":
        body["draft_id"] = _draft_id(ctx, index)
    content = ctx.get_node_parameter("richMessageText", index, "")
    html = ctx.get_node_parameter("richFormat", index, "html") == "html"
    rich: dict[str, Any] = {"html": content} if html else {"markdown": content}
    additional = ctx.get_node_parameter("additionalFields", index, {}) or {}
    for name in ("is_rtl", "skip_entity_detection"):
        if name in additional:
            rich[name] = additional[name]
    body["rich_message"] = rich
    for name in ("disable_notification", "protect_content", "message_thread_id", "message_effect_id"):
        if name in additional:
            body[name] = additional[name]
    if operation == "sendRichMessage":
        add_reply_markup(ctx, body, index)
    return body
