"""The request body's optional parts, as n8n's Telegram ``GenericFunctions`` builds them: the additional fields
(``addAdditionalFields``: Send Message's parse mode, link preview and the "Append n8n Attribution" line) and
the reply markup (``addReplyMarkup``: inline and reply keyboards, force reply, keyboard removal)."""

from __future__ import annotations

import re
from typing import Any

from weft.nodes.contract import ExecuteContext
from weft.nodes.values import js_string

ATTRIBUTION = "This message was sent automatically with "
#: n8n's ``createUtmCampaignLink`` for this node (Weft has no n8n instance id to append).
CAMPAIGN_LINK = "https://n8n.io/?utm_source=n8n-internal&utm_medium=powered_by&utm_campaign=n8n-nodes-base.telegram"
_URL = re.compile(r"(https?|ftp|file)://\S+|www\.\S+|\S+\.\S+")


def add_additional_fields(ctx: ExecuteContext, body: dict[str, Any], index: int, version: float | None = None) -> None:
    """``addAdditionalFields``: ``version`` is given for Send Message only (as n8n passes it)."""
    operation = ctx.get_node_parameter("operation", index)
    additional = dict(ctx.get_node_parameter("additionalFields", index, {}) or {})
    if operation == "sendMessage":
        if version is not None and version >= 1.1 and "appendAttribution" not in additional:
            additional["appendAttribution"] = True
        if not additional.get("parse_mode"):
            additional["parse_mode"] = "Markdown"
        text = _js_text(body.get("text"))
        if not _URL.search(text):
            body["disable_web_page_preview"] = True
        if additional.get("appendAttribution"):
            if additional["parse_mode"] == "Markdown":
                body["text"] = f"{text}\n\n_{ATTRIBUTION}_[n8n]({CAMPAIGN_LINK})"
            elif additional["parse_mode"] == "HTML":
                body["text"] = f'{text}\n\n<em>{ATTRIBUTION}</em><a href="{CAMPAIGN_LINK}" target="_blank">n8n</a>'
        if version is not None and version >= 1.2 and "disable_web_page_preview" not in additional:
            body["disable_web_page_preview"] = True
        additional.pop("appendAttribution", None)
    body.update(additional)
    add_reply_markup(ctx, body, index)


def _js_text(value: Any) -> str:
    """What a regex test and a template literal make of the text (JavaScript ``String``)."""
    return js_string(value) if value is not None else "undefined"


def add_reply_markup(ctx: ExecuteContext, body: dict[str, Any], index: int) -> None:
    """``addReplyMarkup``: ``reply_markup`` from the Reply Markup parameter and its keyboard."""
    option = ""
    if ctx.get_node_parameter("operation", index) != "sendMediaGroup":
        option = str(ctx.get_node_parameter("replyMarkup", index, "none"))
        if option == "none":
            return
    markup: dict[str, Any] = {}
    body["reply_markup"] = markup
    if option in ("inlineKeyboard", "replyKeyboard"):
        markup_key = "keyboard" if option == "replyKeyboard" else "inline_keyboard"
        keyboard = ctx.get_node_parameter(option, index, {}) or {}
        markup[markup_key] = _rows(keyboard)
    elif option == "forceReply":
        body["reply_markup"] = ctx.get_node_parameter("forceReply", index, {})
    elif option == "replyKeyboardRemove":
        body["reply_markup"] = ctx.get_node_parameter("replyKeyboardRemove", index, {})
    if option == "replyKeyboard":
        markup.update(ctx.get_node_parameter("replyKeyboardOptions", index, {}) or {})


def _rows(keyboard: dict[str, Any]) -> list[list[dict[str, Any]]]:
    rows: list[list[dict[str, Any]]] = []
    for row in keyboard.get("rows") or []:
        buttons = (row.get("row") or {}).get("buttons") if isinstance(row, dict) else None
        if buttons is None:
            continue
        sent = []
        for button in buttons:
            data: dict[str, Any] = {"text": button["text"]} if "text" in button else {}
            data.update(button.get("additionalFields") or {})
            sent.append(data)
        rows.append(sent)
    return rows
