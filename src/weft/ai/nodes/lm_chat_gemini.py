"""``@n8n/n8n-nodes-langchain.lmChatGoogleGemini``: Google Gemini Chat Model, through Gemini's OpenAI-compatible
endpoint (``<credential host>/v1beta/openai``; n8n itself speaks Gemini's native ``generateContent`` API).
n8n's model names (``models/gemini-2.5-flash``) are sent without the ``models/`` prefix. Top K and the safety
settings have no OpenAI-API equivalent and are ignored. Versions 1.1 and 1.2 differ only in the default model.

The run data is LangChain's ``ChatGoogleGenerativeAI``'s (recorded: cases s900-s907 with n8n 2.41.1): the options
as it logs them (``google_api_key``, ``base_url``, ``model``, ``top_p``, ``temperature``, ``max_output_tokens``,
``top_k``), ``generationInfo: {"finishReason": "STOP", "index": 0}`` (Gemini's words for why it stopped; a tool
call is a ``STOP`` too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import openai

from weft.ai.errors import ChatModelError
from weft.ai.messages import ModelResponse
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.ai.nodes.lm_chat_common import MODEL_OUTPUTS, SettingsModelNode, max_tokens, node_options, number
from weft.ai.nodes.lm_chat_errors import status_node_error
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, SupplyDataContext

GEMINI_HOST = "https://generativelanguage.googleapis.com"


def gemini_openai_url(host: str) -> str:
    """The OpenAI-compatible base URL of a Gemini API host."""
    return (host or GEMINI_HOST).rstrip("/") + "/v1beta/openai"


#: OpenAI's finish reasons in Gemini's words.
_FINISH = {"stop": "STOP", "tool_calls": "STOP", "length": "MAX_TOKENS", "content_filter": "SAFETY"}


def gemini_generation_info(response: ModelResponse) -> dict[str, Any]:
    reason = response.finish_reason or "stop"
    return {"finishReason": _FINISH.get(reason, reason.upper()), "index": 0}


def gemini_status_error(status: int, body: Any, base_url: str) -> ChatModelError:
    """The error for a failure answer of Gemini's OpenAI-compatible API, whose body is Google's error object in
    a list (``[{"error": {"code": 400, "message": …, "status": "INVALID_ARGUMENT"}}]``)."""
    found = body[0] if isinstance(body, list) and body else body
    error = found.get("error") if isinstance(found, dict) else None
    error = error if isinstance(error, dict) else {}
    said = str(error.get("message") or "") or f"HTTP {status}"
    reason = str(error.get("status") or "")
    detail = f"Google Gemini answered HTTP {status}{f' {reason}' if reason else ''}: {said}"
    fix = "Check the API key and the Host of the 'googlePalmApi' credential, the model name and the node's options."
    return status_node_error(status, "Google Gemini", f"{detail} ({base_url}). {fix}")


class GeminiChatModel(OpenAIChatModel):
    """:class:`OpenAIChatModel` on Gemini's OpenAI-compatible API, its failures read as n8n shows Gemini's."""

    def _error_from_sdk(self, exc: openai.APIError) -> ChatModelError:
        if not isinstance(exc, openai.APIStatusError):
            return super()._error_from_sdk(exc)
        try:
            body: Any = exc.response.json()
        except ValueError:
            body = exc.body
        return gemini_status_error(exc.status_code, body, self.settings.base_url)


@dataclass(frozen=True, kw_only=True)
class GeminiSettings(OpenAISettings):
    """Gemini's settings; ``logged``: the options as n8n's run data shows them."""

    logged: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return dict(self.logged)


class LmChatGoogleGemini(SettingsModelNode[GeminiSettings]):
    """Supplies a :class:`GeminiChatModel` (credential ``googlePalmApi``: ``host``, ``apiKey``)."""

    description = NodeDescription(
        name="@n8n/n8n-nodes-langchain.lmChatGoogleGemini",
        display_name="Google Gemini Chat Model",
        versions=(1, 1.1, 1.2),
        description="Chat Model Google Gemini",
        inputs=(),
        outputs=MODEL_OUTPUTS,
        credentials=("googlePalmApi",),
    )

    model_type = GeminiChatModel
    generation_info = gemini_generation_info

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> GeminiSettings:
        credentials = await ctx.get_credentials("googlePalmApi")
        options = node_options(ctx, item_index)
        default = "models/gemini-2.5-flash" if float(ctx.node.typeVersion) < 1.1 else "models/gemini-3-flash-preview"
        name = str(ctx.get_node_parameter("modelName", item_index, default) or "").strip()
        if not name:
            raise NodeOperationError(ctx.node.name, "No model is set. Choose a model in the node's 'Model' parameter.")
        model = name.removeprefix("models/")
        host = str(credentials.get("host") or "")
        return GeminiSettings(
            model=model,
            api_key=str(credentials.get("apiKey") or ""),
            base_url=gemini_openai_url(host),
            temperature=number(options, "temperature"),
            max_tokens=max_tokens(options, "maxOutputTokens"),
            top_p=number(options, "topP"),
            provider="Google Gemini",
            credential_type="googlePalmApi",
            logged=_logged(host, model, options),
        )


def _logged(host: str, model: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options as n8n's run data shows them: LangChain's names of the fields n8n set."""
    secret = {"lc": 1, "type": "secret", "id": ["GOOGLE_API_KEY"]}
    data: dict[str, Any] = {"google_api_key": secret, "base_url": host or GEMINI_HOST, "model": model}
    names = (("topP", "top_p"), ("temperature", "temperature"), ("maxOutputTokens", "max_output_tokens"),
             ("topK", "top_k"))  # fmt: skip
    for option, name in names:
        if options.get(option) is not None:
            data[name] = options[option]
    return data
