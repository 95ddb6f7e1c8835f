"""The Google Docs node (``n8n-nodes-base.googleDocs`` 1, 2): n8n's ``GoogleDocs.execute``.

"create" makes a Google Docs file through the Drive API; "get" answers the document, or (simplified) its
``documentId`` and the text of its paragraphs; "update" sends the actions as one ``batchUpdate`` and answers its
reply (simplified: the first reply's content) with the ``documentId``. A service account (``googleApi``) or an
OAuth2 credential (``googleDocsOAuth2Api``) authenticates, as the ``authentication`` parameter says.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.google._common import google_request
from weft.library.google.docs.actions import requests
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

_ID = re.compile(r"https://docs.google.com/document/d/([a-zA-Z0-9-_]+)/")


def document_id(url: Any) -> str:
    """n8n's ``extractID``, else the text itself."""
    text = js_string(url)
    match = _ID.search(text)
    return match.group(1) if match else text


async def _request(
    api: ApiRequests, scope: RoutingScope, method: str, endpoint: str, index: int,
    body: dict[str, Any] | None = None, url: str | None = None,
) -> Any:  # fmt: skip
    """n8n's Docs ``googleApiRequest`` (the credential by ``authentication``, default ``serviceAccount``)."""
    options: dict[str, Any] = {"headers": {"Content-Type": "application/json"}, "method": method, "json": True,
                               "url": url or f"https://docs.googleapis.com/v1{endpoint}"}  # fmt: skip
    if body:
        options["body"] = body
    authentication = str(scope.parameter("authentication", 0, "serviceAccount"))
    return await google_request(
        api, options, oauth2_type="googleDocsOAuth2Api", service="docs", item_index=index,
        authentication=authentication,
    )  # fmt: skip


def _text(document: Any) -> str:
    parts: list[str] = []
    for entry in ((document or {}).get("body") or {}).get("content") or []:
        paragraph = entry.get("paragraph") if isinstance(entry, dict) else None
        if paragraph:
            for element in paragraph.get("elements") or []:
                run = element.get("textRun") if isinstance(element, dict) else None
                parts.append(js_string(run.get("content")) if run else "")
    return "".join(parts)


async def _create(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    folder = scope.parameter("folderId", index, "default")
    body: dict[str, Any] = {"name": scope.parameter("title", index), "mimeType": "application/vnd.google-apps.document"}
    if folder and folder != "default":
        body["parents"] = [folder]
    return await _request(api, scope, "POST", "", index, body, "https://www.googleapis.com/drive/v3/files")


async def _get(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    doc = document_id(scope.parameter("documentURL", index))
    found = await _request(api, scope, "GET", f"/documents/{doc}", index)
    if scope.parameter("simple", index, True):
        return {"documentId": doc, "content": _text(found)}
    return found


async def _update(api: ApiRequests, scope: RoutingScope, index: int) -> Any:
    doc = document_id(scope.parameter("documentURL", index))
    simple = scope.parameter("simple", index, True)
    actions = scope.parameter("actionsUi", index, {}) or {}
    control = (scope.parameter("updateFields", index, {}) or {}).get("writeControlObject") or {}
    body: dict[str, Any] = {"requests": []}
    if control:
        body["writeControl"] = {str(control.get("control")): control.get("value")}
    if actions:
        body["requests"] = requests(actions.get("actionFields") or [])
    found = await _request(api, scope, "POST", f"/documents/{doc}:batchUpdate", index, body)
    if simple:
        replies = (found or {}).get("replies") or [{}]
        first = replies[0] if isinstance(replies[0], dict) else {}
        found = next(iter(first.values())) if first else {}
        found = found if isinstance(found, dict) else {}
    return {**found, "documentId": doc}


_OPERATIONS = {"create": _create, "get": _get, "update": _update}


class GoogleDocs(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.googleDocs",
        display_name="Google Docs",
        versions=(1, 2),
        description="Consume Google Docs API.",
        group=("input",),
        usable_as_tool=True,
        credentials=("googleApi", "googleDocsOAuth2Api"),
        defaults={"resource": "document", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "document"))
        operation = str(scope.parameter("operation", 0, "create"))
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            for index in range(len(ctx.get_input_data())):
                try:
                    handler = _OPERATIONS.get(operation) if resource == "document" else None
                    if handler is None:
                        message = f'The operation "{operation}" of resource "{resource}" is not supported'
                        raise NodeOperationError(ctx.node.name, message, item_index=index)
                    answer = await handler(api, scope, index)
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                    continue
                rows = answer if isinstance(answer, list) else [answer]
                out.extend({"json": r if isinstance(r, dict) else {}, "pairedItem": {"item": index}} for r in rows)
        return [out]


__all__ = ["GoogleDocs", "document_id"]
