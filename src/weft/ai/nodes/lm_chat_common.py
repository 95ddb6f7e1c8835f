"""Helpers shared by the chat-model nodes: model names, options, credentials and tracing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from weft.ai.models.base import ChatModel, RetryPolicy
from weft.ai.models.traced import GenerationInfo, TracedChatModel
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeType, SupplyDataContext
from weft.workflow import AI_LANGUAGE_MODEL

#: A model sub-node: no inputs, one ``ai_languageModel`` output.
MODEL_OUTPUTS: tuple[str, ...] = (AI_LANGUAGE_MODEL,)


def model_name(ctx: SupplyDataContext, item_index: int, default: str) -> str:
    """The ``model`` parameter: a resource locator (``{"__rl": true, "value": …}``) or a plain string."""
    value = ctx.get_node_parameter("model", item_index, default, extract_value=True)
    if isinstance(value, Mapping):
        value = value.get("value")
    name = str(value or "").strip()
    if not name:
        raise NodeOperationError(ctx.node.name, "No model is set. Choose a model in the node's 'Model' parameter.")
    return name


def node_options(ctx: SupplyDataContext, item_index: int) -> dict[str, Any]:
    options = ctx.get_node_parameter("options", item_index, {})
    return dict(options) if isinstance(options, Mapping) else {}


def number(options: Mapping[str, Any], key: str) -> float | None:
    value = options.get(key)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def max_tokens(options: Mapping[str, Any], key: str = "maxTokens") -> int | None:
    """n8n's token limit; ``-1`` (its default) means "let the server decide"."""
    value = number(options, key)
    return int(value) if value is not None and value > 0 else None


def retry_policy(options: Mapping[str, Any]) -> RetryPolicy:
    """The node's Max Retries option (n8n's default: 2)."""
    retries = number(options, "maxRetries")
    return RetryPolicy(max_retries=int(retries) if retries is not None else 2)


def timeout_seconds(options: Mapping[str, Any], default_ms: float = 60000) -> float:
    """The node's Timeout option, given in milliseconds."""
    value = number(options, "timeout")
    return (value if value is not None and value > 0 else default_ms) / 1000


def custom_headers(credentials: Mapping[str, Any]) -> dict[str, str]:
    """The credential's optional custom header (``header``, ``headerName``, ``headerValue``)."""
    name = credentials.get("headerName")
    if credentials.get("header") and isinstance(name, str) and name:
        return {name: str(credentials.get("headerValue") or "")}
    return {}


def traced(
    ctx: SupplyDataContext, model: ChatModel, options: dict[str, Any], generation_info: GenerationInfo | None = None
) -> TracedChatModel:
    """``model`` wrapped so each call is a run of this node in the run data (``generation_info``: the provider's
    ``generationInfo`` shape, OpenAI's by default)."""
    return TracedChatModel(model, ctx, options=options, generation_info=generation_info)


class ModelSettings(Protocol):
    def describe(self) -> dict[str, Any]:
        """The settings as the model node's run data shows them (no secret)."""
        ...


S = TypeVar("S", bound=ModelSettings)


class SettingsModelNode(NodeType, Generic[S]):
    """A chat-model node that reads its model's settings from its parameters and credential (:meth:`settings`) and
    supplies the model ``model_type`` builds from them, traced (``generation_info``: as :func:`traced`)."""

    model_type: Callable[[S], ChatModel]
    generation_info: ClassVar[GenerationInfo | None] = None

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> ChatModel:
        settings = await self.settings(ctx, item_index)
        return traced(ctx, self.model_type(settings), settings.describe(), type(self).generation_info)

    async def settings(self, ctx: SupplyDataContext, item_index: int) -> S:
        raise NotImplementedError
