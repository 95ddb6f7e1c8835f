"""The OpenAI node (``@n8n/n8n-nodes-langchain.openAi``): see :mod:`.node`."""

from __future__ import annotations

from weft.ai.nodes.openai_node.node import OpenAi

__all__ = ["OpenAi"]
