"""Deterministic chat models for tests and demos: :class:`ScriptedChatModel` and :class:`FunctionChatModel`.

Both implement :class:`~weft.ai.models.base.ChatModel` without any network, stream word by word when asked,
and report a deterministic token estimate as usage.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

from weft.ai.errors import ChatModelError, ScriptExhaustedError
from weft.ai.messages import (
    AIMessage,
    Message,
    ModelResponse,
    ToolCall,
    ToolDefinition,
    Usage,
    buffer_string,
    estimate_tokens,
)
from weft.ai.models._http_errors import Endpoint, status_error
from weft.ai.models._turns import ScriptedTurn, parse_turn, parse_turns, render
from weft.ai.models.base import StreamCallback

_SCRIPT = Endpoint(provider="Scripted model", credential_type="(none)", base_url="(script)")


async def respond(
    message: AIMessage,
    messages: Sequence[Message],
    *,
    model_name: str,
    stream_callback: StreamCallback | None,
    usage: Usage | None = None,
) -> ModelResponse:
    """Stream ``message``'s text (when asked) and wrap it as a response with an estimated usage."""
    if stream_callback is not None:
        for piece in split_text(message.content):
            await stream_callback(piece)
    if usage is None:
        spent = json.dumps([c.to_json() for c in message.tool_calls]) if message.tool_calls else ""
        usage = Usage(
            input_tokens=estimate_tokens(buffer_string(messages)),
            output_tokens=estimate_tokens(message.content + spent),
        )
    return ModelResponse(
        message=message,
        usage=usage,
        raw_model_name=model_name,
        finish_reason="tool_calls" if message.tool_calls else "stop",
    )


def _calls_so_far(messages: Sequence[Message]) -> int:
    return sum(len(m.tool_calls) for m in messages if isinstance(m, AIMessage))


def turn_to_message(turn: ScriptedTurn, messages: Sequence[Message]) -> AIMessage:
    """The assistant message a turn stands for, templates filled; call ids continue the conversation's."""
    first = _calls_so_far(messages) + 1
    calls = [
        ToolCall(id=c.id or f"call_{first + i}", name=c.name, args=render(c.args, messages))
        for i, c in enumerate(turn.tool_calls)
    ]
    return AIMessage(content=str(render(turn.text, messages)), tool_calls=calls)


def turn_error(turn: ScriptedTurn) -> ChatModelError:
    """The error an error turn (``{"error": 429}``) raises, as a provider would answer it."""
    return status_error(_SCRIPT, turn.error or 500, turn.error_message, turn.error_code)


class ScriptedChatModel:
    """Answers with the next turn of a script (see :mod:`weft.ai.models._turns` for the turn format).

    ``mode="conversation"`` (the default) picks turn *n* when the conversation already holds *n* assistant
    messages. The model keeps no state, so it gives the right turn even when the agent is resumed after its
    tools ran, in another process, or with a freshly supplied model, which is how the engine runs agents.
    ``mode="sequential"`` counts calls on this object instead (turn *n* on the *n*-th call).
    """

    def __init__(
        self,
        turns: Sequence[ScriptedTurn | str | Mapping[str, Any]],
        *,
        mode: Literal["conversation", "sequential"] = "conversation",
        model_name: str = "weft-scripted",
    ) -> None:
        self.turns = parse_turns(turns)
        self.mode = mode
        self.model_name = model_name
        self.calls: list[list[Message]] = []
        """The messages of every call, for assertions."""

    async def generate(
        self,
        messages: list[Message],
        tools: list[ToolDefinition],
        *,
        stream_callback: StreamCallback | None = None,
    ) -> ModelResponse:
        index = sum(isinstance(m, AIMessage) for m in messages) if self.mode == "conversation" else len(self.calls)
        self.calls.append(list(messages))
        if index >= len(self.turns):
            raise ScriptExhaustedError(
                f"The scripted model has {len(self.turns)} turn(s) but was asked for turn {index + 1} "
                f"({self.mode} mode). Add a turn to the script, or check why the agent called the model again.",
                provider="Scripted model",
            )
        turn = self.turns[index]
        if turn.delay:
            await asyncio.sleep(turn.delay)
        if turn.error is not None:
            raise turn_error(turn)
        message = turn_to_message(turn, messages)
        return await respond(
            message, messages, model_name=self.model_name, stream_callback=stream_callback, usage=turn.usage
        )


class FunctionChatModel:
    """A model whose reply a function decides: ``fn(messages, tools)`` (sync or async).

    The function returns a :class:`ModelResponse`, an :class:`AIMessage`, or a script turn (text, dict or
    :class:`ScriptedTurn`)::

        def reply(messages, tools):
            return {"tool": tools[0].name, "args": {"input": "2+2"}} if len(messages) < 3 else "done"
    """

    def __init__(
        self,
        fn: Callable[[list[Message], list[ToolDefinition]], Any | Awaitable[Any]],
        *,
        model_name: str = "weft-function",
    ) -> None:
        self.fn = fn
        self.model_name = model_name
        self.calls: list[list[Message]] = []

    async def generate(
        self,
        messages: list[Message],
        tools: list[ToolDefinition],
        *,
        stream_callback: StreamCallback | None = None,
    ) -> ModelResponse:
        self.calls.append(list(messages))
        reply = self.fn(messages, tools)
        if inspect.isawaitable(reply):
            reply = await reply
        if isinstance(reply, ModelResponse):
            if stream_callback is not None:
                for piece in split_text(reply.message.content):
                    await stream_callback(piece)
            return reply
        if isinstance(reply, AIMessage):
            message = reply
        else:
            turn = parse_turn(reply)
            if turn.error is not None:
                raise turn_error(turn)
            message = turn_to_message(turn, messages)
        return await respond(message, messages, model_name=self.model_name, stream_callback=stream_callback)


def split_text(text: str) -> list[str]:
    """``text`` in word-sized deltas (whitespace kept), as a streaming server would send it."""
    pieces: list[str] = []
    for i, word in enumerate(text.split(" ")):
        pieces.append(word if i == 0 else " " + word)
    return [p for p in pieces if p]


__all__ = ["FunctionChatModel", "ScriptedChatModel", "respond", "split_text", "turn_to_message"]
