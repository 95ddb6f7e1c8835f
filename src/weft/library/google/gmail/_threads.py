"""Gmail's thread operations (n8n's ``GmailV2`` ``thread`` branch): get, getAll, reply, delete, trash, untrash,
addLabels, removeLabels."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.gmail._api import GmailApi
from weft.library.google.gmail._messages import METADATA_HEADERS, prepare_query, reply
from weft.nodes.contract import ExecuteContext

THREADS = "/gmail/v1/users/me/threads"


async def run(ctx: ExecuteContext, api: GmailApi, operation: str, index: int) -> list[Any]:
    p = api.params
    if operation == "getAll":
        return await get_all(ctx, api, index)
    if operation == "reply":
        return [await reply(ctx, api, str(p.get("messageId", index)), index)]
    thread_id = str(p.get("threadId", index))
    if operation == "get":
        return await get(api, thread_id, index)
    if operation == "delete":
        await api.request("DELETE", f"{THREADS}/{thread_id}", None, None, index)
        return [{"success": True}]
    if operation in ("trash", "untrash"):
        return [await api.request("POST", f"{THREADS}/{thread_id}/{operation}", None, None, index)]
    key = {"addLabels": "addLabelIds", "removeLabels": "removeLabelIds"}.get(operation)
    if key is None:
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known', item_index=index)
    body = {key: p.get("labelIds", index, [])}
    return [await api.request("POST", f"{THREADS}/{thread_id}/modify", body, None, index)]


async def get(api: GmailApi, thread_id: str, index: int) -> list[Any]:
    p = api.params
    only_messages = bool(p.get("options.returnOnlyMessages", index, False))
    simple = bool(p.get("simple", index, True))
    qs = {"format": "metadata", "metadataHeaders": METADATA_HEADERS} if simple else {"format": "full"}
    thread = await api.request("GET", f"{THREADS}/{thread_id}", None, qs, index)
    messages = await api.simplified(thread.get("messages"), index)
    if only_messages:
        return messages
    thread["messages"] = messages
    return [thread]


async def get_all(ctx: ExecuteContext, api: GmailApi, index: int) -> list[Any]:
    p = api.params
    qs = prepare_query(ctx, dict(p.get("filters", index, {}) or {}), index)
    if p.get("returnAll", index, False):
        return await api.request_all("threads", THREADS, qs, index)
    answer = await api.request("GET", THREADS, None, {**qs, "maxResults": p.get("limit", index, 50)}, index)
    return list(answer.get("threads") or [])


__all__ = ["run"]
