"""Tool names as n8n derives them from node names (``nodeNameToToolName`` in ``tool-helpers.ts``)."""

from __future__ import annotations

import re

_INVALID = re.compile(r"[^a-zA-Z0-9_-]+")

#: Providers accept tool names of at most 64 characters.
MAX_TOOL_NAME_LENGTH = 64


def node_name_to_tool_name(name: str) -> str:
    """``'Test Node'`` → ``'Test_Node'``: every run of other characters becomes ``_``; cut to 64, no trailing ``_-``."""
    tool_name = _INVALID.sub("_", name)
    if len(tool_name) > MAX_TOOL_NAME_LENGTH:
        tool_name = tool_name[:MAX_TOOL_NAME_LENGTH].rstrip("_-")
    return tool_name


__all__ = ["MAX_TOOL_NAME_LENGTH", "node_name_to_tool_name"]
