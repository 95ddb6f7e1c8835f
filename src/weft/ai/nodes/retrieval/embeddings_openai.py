"""``@n8n/n8n-nodes-langchain.embeddingsOpenAi``: Embeddings OpenAI (any OpenAI-compatible server by Base URL)."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.ai.models.openai import OPENAI_BASE_URL
from weft.ai.nodes.lm_chat_common import custom_headers
from weft.ai.nodes.retrieval._common import options_of
from weft.ai.retrieval.connections import AI_EMBEDDING
from weft.ai.retrieval.embeddings import OpenAIEmbeddings, OpenAIEmbeddingSettings
from weft.ai.retrieval.traced import TracedEmbeddings
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext


class EmbeddingsOpenAi(NodeType):
    """Supplies :class:`OpenAIEmbeddings`; each call is a run of the node (``ai_embedding``).

    Options: Dimensions, Base URL (typeVersions 1 and 1.1; later the credential's), Batch Size (texts a request,
    default 512), Strip New Lines (default on), Timeout (seconds, -1: none), Encoding Format.
    """

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.embeddingsOpenAi",
        display_name="Embeddings OpenAI",
        versions=(1, 1.1, 1.2),
        description="Use Embeddings OpenAI",
        inputs=(),
        outputs=(AI_EMBEDDING,),
        credentials=("openAiApi",),
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> TracedEmbeddings:
        return TracedEmbeddings(OpenAIEmbeddings(await self.settings(ctx, item_index)), ctx)

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> OpenAIEmbeddingSettings:
        credentials = await ctx.get_credentials("openAiApi")
        options = options_of(ctx, item_index)
        default_model = "text-embedding-ada-002" if float(ctx.node.typeVersion) == 1 else "text-embedding-3-small"
        model = ctx.get_node_parameter("model", item_index, default_model)
        timeout = _number(options.get("timeout"))
        return OpenAIEmbeddingSettings(
            model=str(model or default_model),
            api_key=str(credentials.get("apiKey") or ""),
            base_url=str(options.get("baseURL") or credentials.get("url") or OPENAI_BASE_URL),
            batch_size=int(_number(options.get("batchSize")) or 512),
            strip_new_lines=options.get("stripNewLines", True) is not False,
            dimensions=int(d) if (d := _number(options.get("dimensions"))) else None,
            encoding_format=str(options["encodingFormat"]) if options.get("encodingFormat") else None,
            timeout=timeout if timeout is not None and timeout > 0 else None,
            organization=str(credentials.get("organizationId") or "") or None,
            headers=custom_headers(credentials),
        )


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


__all__ = ["EmbeddingsOpenAi"]
