"""``@n8n/n8n-nodes-langchain.lmChatOpenRouter``: OpenRouter Chat Model, through OpenRouter's OpenAI-compatible
API. The base URL is the ``openRouterApi`` credential's hidden ``url`` (default ``https://openrouter.ai/api/v1``),
as in n8n. The Provider Routing option (n8n 2.x) is sent as OpenRouter's ``provider`` request field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.ai.nodes.lm_chat_common import MODEL_OUTPUTS, SettingsModelNode, node_options
from weft.ai.nodes.lm_chat_compatible import ExtraBodyChatModel, ExtraBodySettings, compatible_settings
from weft.nodes.contract import NodeDescription, SupplyDataContext

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
_LISTS = ("order", "only", "ignore")


def provider_routing(options: Mapping[str, Any]) -> dict[str, Any]:
    """OpenRouter's ``provider`` object from the Provider Routing option (comma lists split, snake_case keys)."""
    routing = options.get("providerRouting")
    if not isinstance(routing, Mapping):
        return {}
    provider: dict[str, Any] = {}
    for key in _LISTS:
        if routing.get(key):
            provider[key] = [p.strip() for p in str(routing[key]).split(",") if p.strip()]
    for key, name in (("allowFallbacks", "allow_fallbacks"), ("requireParameters", "require_parameters")):
        if key in routing and routing[key] is not None:
            provider[name] = routing[key]
    if routing.get("dataCollection"):
        provider["data_collection"] = routing["dataCollection"]
    if "zdr" in routing and routing["zdr"] is not None:
        provider["zdr"] = routing["zdr"]
    if routing.get("sort"):
        provider["sort"] = routing["sort"]
    return provider


class LmChatOpenRouter(SettingsModelNode[ExtraBodySettings]):
    """Supplies an :class:`ExtraBodyChatModel` on OpenRouter (credential ``openRouterApi``: ``apiKey``, ``url``)."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatOpenRouter",
        display_name="OpenRouter Chat Model",
        versions=(1,),
        description="For advanced usage with an AI chain",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("openRouterApi",),
    )

    base_url = OPENROUTER_BASE_URL

    model_type = ExtraBodyChatModel

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> ExtraBodySettings:
        credentials = await ctx.get_credentials("openRouterApi")
        provider = provider_routing(node_options(ctx, item_index))
        extra = {"provider": provider} if provider else {}
        return compatible_settings(
            ctx,
            item_index,
            credentials,
            default_url=self.base_url,
            default_model="openai/gpt-4.1-mini",
            provider="OpenRouter",
            credential_type="openRouterApi",
            extra=extra,
        )


__all__ = ["OPENROUTER_BASE_URL", "LmChatOpenRouter", "provider_routing"]
