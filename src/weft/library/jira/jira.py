"""The Jira Software node (``n8n-nodes-base.jira`` 1): n8n's ``Jira.execute`` over :mod:`.issues` and
:mod:`.comments`.

Jira Cloud searches ``POST /rest/api/2/search/jql`` (pages by ``nextPageToken``), Jira Server ``POST
/rest/api/2/search`` (pages by ``startAt``); comments and attachments use API 3 on Cloud (comments as Atlassian
Documents) and API 2 on Server. As in n8n, the query built for one item is kept for the next. Under "continue" a
failed item outputs ``{error: <message>}``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any, ClassVar

from weft.errors import NodeError
from weft.library.jira import comments, issues
from weft.library.jira.transport import CREDENTIALS, Run
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

Operation = Callable[[Run, int], Coroutine[Any, Any, Any]]
_RESOURCES: dict[str, Mapping[str, Operation]] = {
    "issue": issues.OPERATIONS,
    "issueComment": comments.COMMENT_OPERATIONS,
    "issueAttachment": comments.ATTACHMENT_OPERATIONS,
    "user": comments.USER_OPERATIONS,
}


class Jira(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.jira",
        display_name="Jira Software",
        versions=(1,),
        description="Consume Jira Software API",
        group=("output",),
        usable_as_tool=True,
        credentials=tuple(CREDENTIALS.values()),
        defaults={"jiraVersion": "cloud", "resource": "issue", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "issue"))
        operation = str(scope.parameter("operation", 0, "create"))
        found = _RESOURCES.get(resource, {}).get(operation)
        out: list[Item] = []
        if found is None:
            return [out]  # n8n runs no branch and outputs nothing
        async with ApiRequests(ctx) as api:
            run = Run(api=api, scope=scope, version=str(scope.parameter("jiraVersion", 0, "cloud")))
            for index in range(len(ctx.get_input_data())):
                try:
                    answer = await found(run, index)
                    out.extend(_items(answer, index))
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
            if resource == "issueAttachment" and operation in ("get", "getAll") and scope.parameter("download", 0):
                await _download(run, out)
        return [out]


def _items(answer: Any, index: int) -> list[Item]:
    rows = answer if isinstance(answer, list) else [answer]
    return [{"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}} for row in rows]


async def _download(run: Run, out: list[Item]) -> None:
    """Each attachment's file (its ``content`` URL, with the credential) into the binary property."""
    ctx = run.api.ctx
    name = str(run.scope.parameter("binaryProperty", 0, "data"))
    for item in out:
        attachment = item["json"]
        if attachment.get("error"):
            continue
        item["binary"] = {}
        try:
            data = await run.request(
                "", "GET", 0, None, None, str(attachment.get("content")), json=False, encoding="arraybuffer"
            )
            data = data if isinstance(data, bytes) else str(data).encode()
            filename, mime = attachment.get("filename"), attachment.get("mimeType")
            item["binary"][name] = await ctx.prepare_binary_data(data, filename, mime)
        except NodeError as error:
            if not ctx.continue_on_fail():
                raise
            item["json"] = {"error": error.message}


__all__ = ["Jira"]
