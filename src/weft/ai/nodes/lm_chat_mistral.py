"""``@n8n/n8n-nodes-langchain.lmChatMistralCloud``: Mistral Cloud Chat Model, through Mistral's
OpenAI-compatible chat completions (``https://api.mistral.ai/v1``, fixed as in n8n).

As n8n's LangChain ``ChatMistralAI`` (recorded: cases s910-s916): Sampling Temperature 0.7 and Top P 1 are sent
when not set, ``safe_prompt`` is always ``false`` (n8n hands the Safe Mode option to LangChain under its deprecated
name ``safeMode``, which LangChain does not send, so the option has no effect), Random Seed is ``random_seed``. An
API failure reads as the Mistral SDK's ``API error occurred: Status 401. Body: …``; the run data shows
``generationInfo: {"finishReason": …}`` and the model's options as LangChain logs them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import openai

from weft.ai.errors import ChatModelError
from weft.ai.messages import ModelResponse
from weft.ai.models.sdk_errors import mistral_status_error
from weft.ai.nodes.lm_chat_common import (
    MODEL_OUTPUTS,
    SettingsModelNode,
    max_tokens,
    model_name,
    node_options,
    number,
    retry_policy,
)
from weft.ai.nodes.lm_chat_compatible import ExtraBodyChatModel, ExtraBodySettings
from weft.nodes.contract import NodeDescription, SupplyDataContext

MISTRAL_BASE_URL = "https://api.mistral.ai/v1"

#: What LangChain's ``ChatMistralAI`` logs of its ``http_client`` (n8n's proxy-aware fetch).
_HTTP_CLIENT_LOG: dict[str, Any] = {"options": {}, "requestHooks": [], "requestErrorHooks": [], "responseHooks": []}


@dataclass(frozen=True, kw_only=True)
class MistralSettings(ExtraBodySettings):
    """Mistral's settings; ``logged``: the options as n8n's run data shows them."""

    logged: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return dict(self.logged)


class MistralChatModel(ExtraBodyChatModel):
    """:class:`ExtraBodyChatModel` whose failures read as the Mistral SDK's errors."""

    def _error_from_sdk(self, exc: openai.APIError) -> ChatModelError:
        if not isinstance(exc, openai.APIStatusError):
            return super()._error_from_sdk(exc)
        return mistral_status_error(exc.status_code, exc.response.headers.get("content-type"), exc.response.text)


def mistral_generation_info(response: ModelResponse) -> dict[str, Any]:
    return {"finishReason": response.finish_reason}


class LmChatMistralCloud(SettingsModelNode[MistralSettings]):
    """Supplies a :class:`MistralChatModel` (credential ``mistralCloudApi``: ``apiKey``)."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatMistralCloud",
        display_name="Mistral Cloud Chat Model",
        versions=(1,),
        description="For advanced usage with an AI chain",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("mistralCloudApi",),
    )

    base_url = MISTRAL_BASE_URL

    model_type = MistralChatModel
    generation_info = mistral_generation_info

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> MistralSettings:
        credentials = await ctx.get_credentials("mistralCloudApi")
        options = node_options(ctx, item_index)
        model = model_name(ctx, item_index, "mistral-small")
        extra: dict[str, Any] = {"safe_prompt": False}
        seed = number(options, "randomSeed")
        if seed is not None:
            extra["random_seed"] = int(seed)
        temperature, top_p = number(options, "temperature"), number(options, "topP")
        return MistralSettings(
            model=model,
            api_key=str(credentials.get("apiKey") or ""),
            base_url=self.base_url,
            temperature=0.7 if temperature is None else temperature,
            max_tokens=max_tokens(options),
            top_p=1.0 if top_p is None else top_p,
            retry=retry_policy(options),
            provider="Mistral",
            credential_type="mistralCloudApi",
            extra=extra,
            logged=_logged(model, options),
        )


def _logged(model: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options as n8n's run data shows them: the constructor fields given, in LangChain's names."""
    data: dict[str, Any] = {"mistral_api_key": {"lc": 1, "type": "secret", "id": ["MISTRAL_API_KEY"]}, "model": model}
    names = (("maxTokens", "max_tokens"), ("temperature", "temperature"), ("topP", "top_p"),
             ("safeMode", "safe_mode"), ("randomSeed", "random_seed"), ("maxRetries", "max_retries"))  # fmt: skip
    for option, name in names:
        if option in options:
            data[name] = False if option == "safeMode" else options[option]
    data["http_client"] = dict(_HTTP_CLIENT_LOG)
    data["metadata"] = {"versions": {"@langchain/core": "1.2.8"}}  # n8n 2.41.1's (2.8.4 ships 1.4.0)
    return data
