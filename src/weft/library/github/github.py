"""The GitHub node (``n8n-nodes-base.github`` 1, 1.1): n8n's ``Github.execute`` over :mod:`.operations`.

Per item: the operation's request (every page with "Return All"), its answer as the item's output (lists as one
item each). Issue "lock" outputs its input items, as n8n does. File "get" as binary puts the file's decoded
content in the item's binary property. Under "continue" a failed item outputs ``{error: <message>}``.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeError, NodeOperationError
from weft.library.github import operations as ops
from weft.library.github.transport import CREDENTIALS, file_sha, github_request, github_request_all
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

#: n8n's ``WAIT_INDEFINITELY``.
_WAIT_INDEFINITELY = datetime(3000, 1, 1, tzinfo=UTC)


def _answers(full_operation: str) -> bool:
    """Whether the operation's items are its answers (issue "lock" outputs its input items, as in n8n)."""
    return full_operation != "issue:lock"


class Github(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.github",
        display_name="GitHub",
        versions=(1, 1.1),
        description="Consume GitHub API",
        group=("input",),
        usable_as_tool=True,
        credentials=tuple(CREDENTIALS.values()),
        defaults={"authentication": "accessToken", "resource": "issue", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "issue"))
        operation = str(scope.parameter("operation", 0, "create"))
        items = ctx.get_input_data()
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            if resource == "workflow" and operation == "dispatchAndWait":
                return await _dispatch_and_wait(api, scope)
            for index in range(len(items)):
                try:
                    out.extend(await _run_item(api, scope, resource, operation, index))
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    if _answers(f"{resource}:{operation}"):
                        out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                    else:
                        items[index] = {**items[index], "json": {"error": error.message}}
        return [out] if _answers(f"{resource}:{operation}") else [items]


def _item(ctx: ExecuteContext, scope: RoutingScope, full_operation: str, index: int) -> ops.Item:
    owner = repository = ""
    if full_operation not in ("user:invite", "user:getUserIssues"):
        owner = str(scope.parameter("owner", index, "", extract_value=True))
    repo_less = ("user:getRepositories", "user:getUserIssues", "user:invite", "organization:getRepositories")
    if full_operation not in (*repo_less, "organization:getMembers"):
        repository = str(scope.parameter("repository", index, "", extract_value=True))
    return ops.Item(ctx=ctx, scope=scope, index=index, owner=owner, repository=repository)


async def _call(item: ops.Item, resource: str, operation: str) -> ops.Call:
    if resource == "file":
        return await ops.file_call(item, operation)
    builder = ops.BUILDERS.get(resource)
    if builder is None:
        raise NodeOperationError(item.ctx.node.name, f'The resource "{resource}" is not known!', item_index=item.index)
    return builder(item, operation)


async def _run_item(api: ApiRequests, scope: RoutingScope, resource: str, operation: str, index: int) -> list[Item]:
    item = _item(api.ctx, scope, f"{resource}:{operation}", index)
    if resource == "pullRequest" and operation in ("getDiff", "getPatch"):
        return [{"json": await _diff(api, item, operation), "pairedItem": {"item": index}}]
    call = await _call(item, resource, operation)
    if call.sha_of is not None:
        branch = call.body.get("branch")
        call.body["sha"] = await file_sha(api, item.owner, item.repository, call.sha_of, branch, index)
    as_binary = bool(scope.parameter("asBinaryProperty", index, False))
    if call.return_all:
        answer: Any = await github_request_all(api, call.method, call.endpoint, index, call.body, call.qs)
    else:
        answer = await github_request(api, call.method, call.endpoint, index, call.body, call.qs)
    if resource == "file" and operation == "get" and as_binary:
        return [await _file_as_binary(api.ctx, scope, index, answer)]
    if resource == "release" and operation == "delete":
        answer = {"success": True}
    return json_items(answer, index)


async def _diff(api: ApiRequests, item: ops.Item, operation: str) -> dict[str, Any]:
    kind = "diff" if operation == "getDiff" else "patch"
    endpoint = f"{item.repo}/pulls/{item.get('pullRequestNumber')}"
    headers = {"Accept": f"application/vnd.github.v3.{kind}"}
    text = await github_request(api, "GET", endpoint, item.index, None, None, headers=headers, json=False)
    return {kind: text}


async def _file_as_binary(ctx: ExecuteContext, scope: RoutingScope, index: int, answer: Any) -> Item:
    if isinstance(answer, list) and len(answer) > 1:
        raise NodeOperationError(ctx.node.name, "File Path is a folder, not a file.", item_index=index)
    source = ctx.get_input_data()[index]
    name = str(scope.parameter("binaryPropertyName", index, "data"))
    binary = dict(source.get("binary") or {})
    content = answer.get("content") if isinstance(answer, dict) else None
    path = answer.get("path") if isinstance(answer, dict) else None
    binary[name] = await ctx.prepare_binary_data(base64.b64decode(str(content or "")), path)
    return {"json": source["json"], "binary": binary, "pairedItem": {"item": index}}


def json_items(answer: Any, index: int) -> list[Item]:
    """n8n's ``returnJsonArray`` with the item's pairing: a list's entries, or the answer, one item each."""
    rows = answer if isinstance(answer, list) else [answer]
    return [_json_item(row, index) for row in rows]


def _json_item(row: Any, index: int) -> Item:
    """An answer's item. n8n's item for an empty answer (a 204) has ``json: undefined``; Weft's engine gives every
    item an object, so it is ``{}`` here."""
    return {"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}}


async def _dispatch_and_wait(api: ApiRequests, scope: RoutingScope) -> NodeOutput:
    """Dispatch an Actions workflow with the execution's resume URL in its inputs, then wait for the call."""
    ctx = api.ctx
    item = _item(ctx, scope, "workflow:dispatchAndWait", 0)
    inputs = ops.json_inputs(ctx, item.get("inputs"), 0)
    body = {"ref": item.get("ref", "", extract=True), "inputs": {**inputs, "resumeUrl": ctx.get_resume_url()}}
    endpoint = f"{item.repo}/actions/workflows/{item.get('workflowId', '', extract=True)}/dispatches"
    try:
        await github_request(api, "POST", endpoint, 0, body)
    except NodeApiError as error:
        if error.http_code != 404:
            raise
        message = (
            'The workflow to dispatch could not be found. Adjust the "workflow" parameter setting to dispatch '
            "the workflow correctly."
        )
        raise NodeOperationError(ctx.node.name, message, item_index=0) from None
    ctx.put_execution_to_wait(_WAIT_INDEFINITELY)
    return [ctx.get_input_data()]


__all__ = ["Github"]
