"""Sticky Note (``n8n-nodes-base.stickyNote``): a comment on the canvas. It is kept in the workflow and written
back unchanged, has no inputs and no outputs, and never runs (recorded: cases n300, n301)."""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import NodeDescription, NodeType


class StickyNote(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.stickyNote",
        display_name="Sticky Note",
        versions=(1,),
        description="Make your workflow easier to understand",
        inputs=(),
        outputs=(),
        defaults={"height": 160, "width": 240, "color": 1},
    )
