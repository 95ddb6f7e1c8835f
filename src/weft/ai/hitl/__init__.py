"""Human approval of tool calls (n8n's Human-in-the-Loop tools, chapter 23).

* :mod:`.core`: what the agent and every ``<X>HitlTool`` share (the gated tools, the approval's meaning).
* :mod:`.send_and_wait`: the base class of HITL node types, any node with a send-and-wait operation.
"""

from weft.ai.hitl.core import (
    HITL_SUFFIX,
    HitlDecision,
    approval_item,
    denial_message,
    gated_action,
    gated_tools,
    hitl_action_input,
    hitl_decision,
    is_hitl_type,
)
from weft.ai.hitl.send_and_wait import SendAndWaitHitlTool, resume_request

__all__ = [
    "HITL_SUFFIX",
    "HitlDecision",
    "SendAndWaitHitlTool",
    "approval_item",
    "denial_message",
    "gated_action",
    "gated_tools",
    "hitl_action_input",
    "hitl_decision",
    "is_hitl_type",
    "resume_request",
]
