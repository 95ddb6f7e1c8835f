"""Gmail's label operations (n8n's ``GmailV2`` ``label`` branch): create, delete, get, getAll."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.gmail._api import GmailApi
from weft.nodes.contract import ExecuteContext

LABELS = "/gmail/v1/users/me/labels"


async def run(ctx: ExecuteContext, api: GmailApi, operation: str, index: int) -> list[Any]:
    p = api.params
    if operation == "create":
        body = {
            "labelListVisibility": p.get("options.labelListVisibility", index, "labelShow"),
            "messageListVisibility": p.get("options.messageListVisibility", index, "show"),
            "name": p.get("name", index),
        }
        return [await api.request("POST", LABELS, body, None, index)]
    if operation == "delete":
        await api.request("DELETE", f"{LABELS}/{p.get('labelId', index)}", None, None, index)
        return [{"success": True}]
    if operation == "get":
        return [await api.request("GET", f"{LABELS}/{p.get('labelId', index)}", None, None, index)]
    if operation == "getAll":
        labels = list((await api.request("GET", LABELS, None, None, index)).get("labels") or [])
        if not p.get("returnAll", index, False):
            labels = labels[: max(int(p.get("limit", index, 50)), 0)]
        return labels
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known', item_index=index)


__all__ = ["run"]
