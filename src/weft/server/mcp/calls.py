"""Listing a trigger's tools (an execution that is not saved) and running a tool call (a saved execution).

Both run the trigger node (:class:`weft.ai.nodes.mcp_trigger.McpTrigger`), which hands its answer back through
the execution's webhook responder. The tool list is kept per workflow version, so ``tools/list`` and the
check of a called tool's name cost no execution after the first.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from weft.ai.nodes.mcp_trigger import LIST_TOOLS_KEY, TOOL_CALL_KEY
from weft.engine import run_workflow
from weft.errors import WeftError
from weft.nodes.webhooks import WebhookResponse
from weft.server.mcp.targets import McpTarget
from weft.services.db_services import DbServices
from weft.services.runner import WorkflowRunner

#: Tool lists kept (one per workflow version and trigger).
CACHE_SIZE = 256


class TriggerFailedError(WeftError):
    """The trigger's execution ended without an answer (a tool could not be built): n8n's 500."""

    def __init__(self, node_name: str) -> None:
        super().__init__(
            f"The MCP Server Trigger {node_name!r} ended without an answer; open its execution to see which tool "
            "could not be built.",
            node_name=node_name,
        )
        self.node_name = node_name


@dataclass(frozen=True, kw_only=True)
class ToolList:
    """The ``tools/list`` entries, and the node behind each tool name."""

    tools: list[dict[str, Any]]
    sources: dict[str, str]


class ToolCalls:
    """Lists tools and calls them for the triggers of one instance."""

    def __init__(self, runner: WorkflowRunner) -> None:
        self.runner = runner
        self._lists: OrderedDict[tuple[Any, ...], ToolList] = OrderedDict()

    async def list_tools(self, target: McpTarget) -> ToolList:
        key = (target.prepared.id, target.prepared.version_id, target.node.name, target.test)
        cached = self._lists.get(key)
        if cached is not None:
            self._lists.move_to_end(key)
            return cached
        payload = await self._list(target)
        listed = ToolList(tools=list(payload["tools"]), sources=dict(payload.get("sources") or {}))
        self._lists[key] = listed
        while len(self._lists) > CACHE_SIZE:
            self._lists.popitem(last=False)
        return listed

    async def _list(self, target: McpTarget) -> dict[str, Any]:
        answers: list[WebhookResponse] = []
        services = DbServices(self.runner, respond=answers.append)
        await run_workflow(
            target.prepared.workflow,
            registry=self.runner.registry,
            mode="manual" if target.test else "webhook",
            start_node=target.node.name,
            trigger_items=[{"json": {LIST_TOOLS_KEY: True}}],
            services=services,
        )
        if not answers:
            raise TriggerFailedError(target.node.name)
        payload: dict[str, Any] = json.loads(answers[0].body)
        return payload

    async def call_tool(
        self, target: McpTarget, name: str, arguments: dict[str, Any], message_id: str | None
    ) -> dict[str, Any]:
        """Run the call as a stored execution; the trigger's payload (``{"result": …}`` or ``{"error": …}``)."""
        listed = await self.list_tools(target)
        call: dict[str, Any] = {"toolName": name, "arguments": arguments}
        if name in listed.sources:
            call["sourceNodeName"] = listed.sources[name]
        request: dict[str, Any] = {TOOL_CALL_KEY: call}
        if message_id is not None:
            request["mcpMessageId"] = message_id
        loop = asyncio.get_running_loop()
        responded: asyncio.Future[WebhookResponse] = loop.create_future()

        def respond(response: WebhookResponse) -> None:
            if not responded.done():
                responded.set_result(response)

        task = self.runner.spawn(
            self.runner.run(
                target.prepared,
                mode="manual" if target.test else "webhook",
                start_node=target.node.name,
                trigger_items=[{"json": request}],
                respond=respond,
            )
        )
        await asyncio.wait((task, responded), return_when=asyncio.FIRST_COMPLETED)
        if not responded.done():
            task.result()  # an error of the runner itself propagates
            raise TriggerFailedError(target.node.name)
        payload: dict[str, Any] = json.loads(responded.result().body)
        return payload


__all__ = ["CACHE_SIZE", "ToolCalls", "ToolList", "TriggerFailedError"]
