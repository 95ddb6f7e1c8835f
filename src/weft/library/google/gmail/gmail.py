"""Gmail (``n8n-nodes-base.gmail`` 1, 2, 2.1, 2.2; ``gmailTool``): messages, labels, drafts and threads through
the Gmail API, with the ``gmailOAuth2`` credential or a service account (``googleApi``). Recorded: cases
s201-s239.

As n8n's ``GmailV2``: each item's error gets `` (item N)``; under "continue" it becomes ``{error}`` on that item;
``get``/``getAll`` of messages, drafts and threads unescape the HTML entities of ``snippet``. 2.1 and later append
n8n's attribution to sent mails unless ``options.appendAttribution`` is off; 2.2 replies to a message's
``Reply-To`` when it has one. Version 1 is n8n's ``GmailV1`` (:mod:`._v1`). "Send and Wait for Response" mails the
question with signed links and waits (:mod:`._send_and_wait`; the "Custom Form" response type is not supported).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from weft.errors import ExpressionError, NodeError, NodeOperationError
from weft.library.google.gmail import _drafts, _labels, _messages, _threads, _v1
from weft.library.google.gmail._api import GmailApi, Params
from weft.library.google.gmail._send_and_wait import send_and_wait
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

_RESOURCES = {"message": _messages.run, "label": _labels.run, "draft": _drafts.run, "thread": _threads.run}
_ESCAPES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&#39;": "'", "&quot;": '"'}
_ENTITY = re.compile("|".join(_ESCAPES))


class Gmail(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.gmail",
        display_name="Gmail",
        versions=(1, 2, 2.1, 2.2),
        description="Consume the Gmail API",
        group=("transform",),
        usable_as_tool=True,
        credentials=("googleApi", "gmailOAuth2"),
    )
    #: n8n marks only the V2 family (2 and later) ``usableAsTool``.
    tool_versions: ClassVar[tuple[float, ...]] = (2, 2.1, 2.2)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        resource = str(params.get("resource", 0, "message"))
        operation = str(params.get("operation", 0, ""))
        run = _RESOURCES.get(resource)
        if resource == "message" and operation == "sendAndWait" and float(ctx.node.typeVersion) >= 2:
            async with GmailApi(ctx, params) as api:
                return await send_and_wait(ctx, api)
        if float(ctx.node.typeVersion) < 2:
            return [await _version_1(ctx, params, resource, operation)]
        out: list[Item] = []
        async with GmailApi(ctx, params) as api:
            for index in range(len(ctx.get_input_data())):
                out.extend(await _item(ctx, api, run, resource, operation, index))
        if resource in ("draft", "message", "thread") and operation in ("get", "getAll"):
            for item in out:
                _unescape_snippet(item)
        return [out]


async def _item(ctx: ExecuteContext, api: GmailApi, run: Any, resource: str, operation: str, index: int) -> list[Item]:
    try:
        if run is None:
            raise NodeOperationError(ctx.node.name, f'The resource "{resource}" is not known', item_index=index)
        found = await run(ctx, api, operation, index)
        return [_paired(entry, index) for entry in found]
    except (NodeError, ExpressionError) as error:
        message = f"{error.message} (item {index})"
        if ctx.continue_on_fail():
            return [{"json": {"error": message}, "pairedItem": {"item": index}}]
        raise NodeOperationError(ctx.node.name, message, description=error.description, item_index=index) from error


async def _version_1(ctx: ExecuteContext, params: Params, resource: str, operation: str) -> list[Item]:
    out: list[Item] = []
    async with GmailApi(ctx, params) as api:
        for index in range(len(ctx.get_input_data())):
            try:
                found = await _v1.run(ctx, api, resource, operation, index)
            except (NodeError, ExpressionError) as error:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                continue
            out.extend(_paired(entry, index) for entry in found)
    return out


def _paired(entry: Any, index: int) -> Item:
    """n8n's ``constructExecutionMetaData(returnJsonArray(...))``: a plain object becomes ``{json}``."""
    if isinstance(entry, dict) and "json" in entry and isinstance(entry["json"], dict):
        item: Item = {"json": entry["json"]}
        if entry.get("binary"):
            item["binary"] = entry["binary"]
    else:
        item = {"json": entry if isinstance(entry, dict) else {}}
    item["pairedItem"] = {"item": index}
    return item


def _unescape_snippet(item: Item) -> None:
    """n8n's ``unescapeSnippets`` (``escapeHtml``, which in fact unescapes the five entities Gmail writes)."""
    snippet = item["json"].get("snippet")
    if isinstance(snippet, str) and snippet:
        item["json"]["snippet"] = _ENTITY.sub(lambda match: _ESCAPES[match.group(0)], snippet)


__all__ = ["Gmail"]
