"""The Jira node's issue comment, attachment and user operations, as n8n builds them."""

from __future__ import annotations

import json
import uuid
from typing import Any

from weft.errors import NodeOperationError
from weft.library.jira.transport import Run
from weft.nodes.values import js_string


def _api(run: Run) -> str:
    return "2" if run.server else "3"


def _document(text: Any) -> dict[str, Any]:
    """A comment as an Atlassian Document (Jira Cloud's API 3)."""
    paragraph = {"type": "paragraph", "content": [{"type": "text", "text": text}]}
    return {"type": "doc", "version": 1, "content": [paragraph]}


def _comment_body(run: Run, index: int, wiki: bool) -> Any:
    if not run.param("jsonParameters", 0, False):
        text = run.param("comment", index)
        return text if run.server or wiki else _document(text)
    try:
        return json.loads(js_string(run.param("commentJson", index)))
    except ValueError:
        message = "Document Format must be a valid JSON"
        raise NodeOperationError(run.scope.node_name, message, item_index=index) from None


async def add(run: Run, index: int) -> Any:
    key = run.param("issueKey", index)
    options = run.fields("options", index)
    api = "2" if options.get("wikiMarkup") else _api(run)
    if options.get("expand"):
        run.qs["expand"] = options.pop("expand")
    body = {**options, "body": _comment_body(run, index, bool(options.get("wikiMarkup")))}
    return await run.request(f"/api/{api}/issue/{key}/comment", "POST", index, body, run.qs)


async def get(run: Run, index: int) -> Any:
    endpoint = f"/api/{_api(run)}/issue/{run.param('issueKey', index)}/comment/{run.param('commentId', index)}"
    run.qs.update(run.fields("options", index))
    return await run.request(endpoint, "GET", index, None, run.qs)


async def get_all(run: Run, index: int) -> Any:
    endpoint = f"/api/{_api(run)}/issue/{run.param('issueKey', index)}/comment"
    run.qs.update(run.fields("options", index))
    if run.param("returnAll", index, False):
        return await run.request_all("comments", endpoint, "GET", index, None, run.qs)
    run.qs["maxResults"] = run.param("limit", index, 50)
    answer = await run.request(endpoint, "GET", index, None, run.qs)
    return answer.get("comments") if isinstance(answer, dict) else None


async def remove(run: Run, index: int) -> Any:
    endpoint = f"/api/{_api(run)}/issue/{run.param('issueKey', index)}/comment/{run.param('commentId', index)}"
    await run.request(endpoint, "DELETE", index, None, run.qs)
    return {"success": True}


async def update(run: Run, index: int) -> Any:
    key, comment_id = run.param("issueKey", index), run.param("commentId", index)
    options = run.fields("options", index)
    if options.get("expand"):
        run.qs["expand"] = options.pop("expand")
    api = "2" if options.get("wikiMarkup") else _api(run)
    run.qs.update(options)
    body = {"body": _comment_body(run, index, bool(options.get("wikiMarkup")))}
    return await run.request(f"/api/{api}/issue/{key}/comment/{comment_id}", "PUT", index, body, run.qs)


COMMENT_OPERATIONS = {"add": add, "get": get, "getAll": get_all, "remove": remove, "update": update}


async def attachment_add(run: Run, index: int) -> Any:
    """Uploads the binary property as ``multipart/form-data`` (field ``file``)."""
    name = run.param("binaryPropertyName", index, "data")
    binary = run.api.ctx.assert_binary_data(index, name)
    data = await run.api.ctx.get_binary_data_buffer(index, name)
    boundary = f"----weft{uuid.uuid4().hex}"
    filename = js_string(binary.get("fileName") or "file").replace('"', "%22")
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
    head += f"Content-Type: {binary.get('mimeType') or 'application/octet-stream'}\r\n\r\n"
    content = head.encode() + data + f"\r\n--{boundary}--\r\n".encode()
    headers = {"Accept": "application/json", "X-Atlassian-Token": "no-check"}
    headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    endpoint = f"/api/{_api(run)}/issue/{run.param('issueKey', index)}/attachments"
    return await run.request(endpoint, "POST", index, None, None, None, content, headers=headers)


async def attachment_get(run: Run, index: int) -> Any:
    endpoint = f"/api/{_api(run)}/attachment/{run.param('attachmentId', index)}"
    return await run.request(endpoint, "GET", index, None, run.qs)


async def attachment_get_all(run: Run, index: int) -> Any:
    answer = await run.request(f"/api/2/issue/{run.param('issueKey', index)}", "GET", index, None, run.qs)
    found = list(((answer or {}).get("fields") or {}).get("attachment") or [])
    if not run.param("returnAll", index, False):
        found = found[: int(run.param("limit", index, 50))]
    return found


async def attachment_remove(run: Run, index: int) -> Any:
    endpoint = f"/api/{_api(run)}/attachment/{run.param('attachmentId', index)}"
    await run.request(endpoint, "DELETE", index, None, run.qs)
    return {"success": True}


ATTACHMENT_OPERATIONS = {
    "add": attachment_add,
    "get": attachment_get,
    "getAll": attachment_get_all,
    "remove": attachment_remove,
}


async def user_create(run: Run, index: int) -> Any:
    body = {"name": run.param("username", index), "emailAddress": run.param("emailAddress", index)}
    body.update({"displayName": run.param("displayName", index), **run.fields("additionalFields", index)})
    return await run.request(f"/api/{_api(run)}/user", "POST", index, body)


async def user_delete(run: Run, index: int) -> Any:
    run.qs["accountId"] = run.param("accountId", index)
    await run.request(f"/api/{_api(run)}/user", "DELETE", index, None, run.qs)
    return {"success": True}


async def user_get(run: Run, index: int) -> Any:
    run.qs["accountId"] = run.param("accountId", index)
    expand = run.fields("additionalFields", index).get("expand")
    if expand:
        run.qs["expand"] = ",".join(map(str, expand))
    return await run.request(f"/api/{_api(run)}/user", "GET", index, None, run.qs)


USER_OPERATIONS = {"create": user_create, "delete": user_delete, "get": user_get}

__all__ = ["ATTACHMENT_OPERATIONS", "COMMENT_OPERATIONS", "USER_OPERATIONS"]
