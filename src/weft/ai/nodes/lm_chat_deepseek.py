"""``@n8n/n8n-nodes-langchain.lmChatDeepSeek``: DeepSeek Chat Model, through DeepSeek's OpenAI-compatible API. The
base URL is the ``deepSeekApi`` credential's hidden ``url`` (default ``https://api.deepseek.com``), as in n8n."""

from __future__ import annotations

from weft.ai.nodes.lm_chat_common import MODEL_OUTPUTS, SettingsModelNode
from weft.ai.nodes.lm_chat_compatible import ExtraBodyChatModel, ExtraBodySettings, compatible_settings
from weft.nodes.contract import NodeDescription, SupplyDataContext

DEEPSEEK_BASE_URL = "https://api.deepseek.com"


class LmChatDeepSeek(SettingsModelNode[ExtraBodySettings]):
    """Supplies an OpenAI-compatible chat model on DeepSeek (credential ``deepSeekApi``: ``apiKey``, ``url``)."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatDeepSeek",
        display_name="DeepSeek Chat Model",
        versions=(1,),
        description="For advanced usage with an AI chain",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("deepSeekApi",),
    )

    base_url = DEEPSEEK_BASE_URL

    model_type = ExtraBodyChatModel

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> ExtraBodySettings:
        credentials = await ctx.get_credentials("deepSeekApi")
        return compatible_settings(
            ctx,
            item_index,
            credentials,
            default_url=self.base_url,
            default_model="deepseek-chat",
            provider="DeepSeek",
            credential_type="deepSeekApi",
        )


__all__ = ["DEEPSEEK_BASE_URL", "LmChatDeepSeek"]
