"""Record every model call as a run of the model node, as n8n's ``N8nLlmTracing`` callback does.

Each ``generate`` opens a run of the model sub-node (its ``inputOverride`` holds the prompt) and closes it with
the generation and the token usage, or with the error. The shapes follow n8n's::

    input:  {"messages": ["System: …\\nHuman: …"], "estimatedTokens": 42, "options": {"model": …}}
    output: {"response": {"generations": [[{"text": "…", "generationInfo": {"finish_reason": "stop"}}]]},
             "tokenUsage": {"completionTokens": 5, "promptTokens": 40, "totalTokens": 45}}

(``tokenUsageEstimate`` replaces ``tokenUsage`` when the provider reported no usage.) As in n8n, a turn's tool
calls are not in its output; the next run's prompt shows them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message, ModelResponse, ToolDefinition, buffer_string, estimate_tokens
from weft.ai.models.base import ChatModel, StreamCallback
from weft.nodes.contract import SupplyDataContext
from weft.workflow import AI_LANGUAGE_MODEL, Item

#: A provider's ``generationInfo`` of a response, as its LangChain class writes it.
GenerationInfo = Callable[[ModelResponse], dict[str, Any]]


def llm_input_item(messages: list[Message], options: dict[str, Any]) -> Item:
    """The model run's input item: the prompt as one string per conversation, like LangChain logs it."""
    prompt = buffer_string(messages)
    return {"json": {"messages": [prompt], "estimatedTokens": estimate_tokens(prompt), "options": options}}


def llm_output_item(
    response: ModelResponse,
    messages: list[Message],
    *,
    streamed_model: str | None = None,
    generation_info: GenerationInfo | None = None,
) -> Item:
    """The model run's output item: the generation and the token usage.

    ``streamed_model``: log the generation as LangChain reports a streamed one (AI Agent V1 streams): the
    model name in ``generationInfo`` and an estimate instead of the usage (recorded: cases a026, a027).
    ``generation_info``: the provider's own ``generationInfo`` (LangChain's classes differ: Mistral writes
    ``finishReason``, Gemini ``finishReason`` and ``index``); OpenAI's ``finish_reason`` by default.
    """
    info: dict[str, Any] = {"finish_reason": response.finish_reason}
    if generation_info is not None:
        info = generation_info(response)
    if streamed_model is not None:
        info = {"prompt": 0, "completion": 0, "finish_reason": response.finish_reason, "model_name": streamed_model}
    usage = response.usage
    json: dict[str, Any] = {"response": {"generations": [[{"text": response.message.content, "generationInfo": info}]]}}
    if usage.output_tokens > 0 and streamed_model is None:
        json["tokenUsage"] = {
            "completionTokens": usage.output_tokens,
            "promptTokens": usage.input_tokens,
            "totalTokens": usage.total_tokens,
        }
    else:
        completion = estimate_tokens(response.message.content)
        prompt = estimate_tokens(buffer_string(messages))
        json["tokenUsageEstimate"] = {
            "completionTokens": completion,
            "promptTokens": prompt,
            "totalTokens": completion + prompt,
        }
    return {"json": json}


class TracedChatModel:
    """Wraps a :class:`ChatModel` so each call is logged as a run of the model node ``ctx.node``."""

    def __init__(
        self,
        inner: ChatModel,
        ctx: SupplyDataContext,
        *,
        options: dict[str, Any] | None = None,
        generation_info: GenerationInfo | None = None,
    ) -> None:
        self.inner = inner
        self._ctx = ctx
        self._options = dict(options or {})
        self._generation_info = generation_info
        #: Log generations as streamed ones (set by an AI Agent V1, whose executor streams the model).
        self.logs_as_stream = False

    async def generate(
        self,
        messages: list[Message],
        tools: list[ToolDefinition],
        *,
        stream_callback: StreamCallback | None = None,
    ) -> ModelResponse:
        run_index = self._ctx.add_input_data(AI_LANGUAGE_MODEL, [[llm_input_item(messages, self._options)]])
        try:
            response = await self.inner.generate(messages, tools, stream_callback=stream_callback)
        except ChatModelError as error:
            error.for_node(self._ctx.node.name)
            self._ctx.add_output_data(AI_LANGUAGE_MODEL, run_index, error)
            raise
        except BaseException as error:
            # Close the run even on cancellation, so the run data has no dangling model run.
            self._ctx.add_output_data(AI_LANGUAGE_MODEL, run_index, error)
            raise
        streamed = str(self._options.get("model") or "") if self.logs_as_stream else None
        output = llm_output_item(response, messages, streamed_model=streamed, generation_info=self._generation_info)
        self._ctx.add_output_data(AI_LANGUAGE_MODEL, run_index, [[output]])
        return response


__all__ = ["GenerationInfo", "TracedChatModel", "llm_input_item", "llm_output_item"]
