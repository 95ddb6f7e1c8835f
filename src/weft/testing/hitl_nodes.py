"""A HITL node type for tests: it "sends" each question to :data:`SENT` (the message, the links, the call), so a
test can answer it through the signed links without a chat or a mail. Registered by the tests that use it."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.ai.hitl.send_and_wait import ApprovalOption, SendAndWaitHitlTool
from weft.nodes.contract import ExecuteContext, NodeDescription
from weft.nodes.webhooks import WebhookOptions
from weft.workflow import AI_TOOL, NodeModel

#: Every question asked, oldest first: ``{executionId, message, links: {label: url}, tool}``.
SENT: list[dict[str, Any]] = []


class RecordingHitlTool(SendAndWaitHitlTool):
    """Recording HITL Tool: asks by appending to :data:`SENT`; Approve / Disapprove links."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.testing.recordingHitlTool",
        display_name="Recording HITL Tool",
        inputs=(AI_TOOL,),
        outputs=(AI_TOOL,),
        defaults={"options": {}, "approvalOptions": {"values": {"approvalType": "double"}}},
    )

    async def send(self, ctx: ExecuteContext, message: str, options: list[ApprovalOption]) -> None:
        links = {option.label: option.url for option in options}
        SENT.append({"executionId": ctx.execution_id, "message": message, "links": links, "tool": self.tool_call(ctx)})

    @classmethod
    def waiting_webhook_options(cls, node: NodeModel) -> WebhookOptions:
        return WebhookOptions(methods=("GET", "POST"), path="", response_mode="onReceived")


__all__ = ["SENT", "RecordingHitlTool"]
