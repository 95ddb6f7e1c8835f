"""The ``ChatModel`` protocol every provider adapter and test model implements, and the retry policy."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message, ModelResponse, ToolDefinition

StreamCallback = Callable[[str], Awaitable[None]]
"""Called with each text delta while a response streams."""

T = TypeVar("T")


@runtime_checkable
class ChatModel(Protocol):
    """Messages and tool definitions in; an assistant message (text and/or tool calls) and usage out."""

    async def generate(
        self,
        messages: list[Message],
        tools: list[ToolDefinition],
        *,
        stream_callback: StreamCallback | None = None,
    ) -> ModelResponse:
        """One model call.

        With ``stream_callback`` the model streams: it awaits the callback with each text delta as it
        arrives and still returns the whole response. Failures raise :class:`~weft.ai.errors.ChatModelError`.
        """
        ...


@dataclass(frozen=True, kw_only=True)
class RetryPolicy:
    """How often and how patiently a failed, retryable call is sent again (n8n's Max Retries option)."""

    max_retries: int = 2
    """Retries after the first attempt (n8n's default is 2)."""
    initial_delay: float = 1.0
    """Seconds before the first retry; doubled for each further one."""
    max_delay: float = 10.0

    def delay(self, attempt: int) -> float:
        """Seconds to wait before retry number ``attempt`` (1-based)."""
        return float(min(self.initial_delay * 2 ** (attempt - 1), self.max_delay))


NO_RETRIES = RetryPolicy(max_retries=0)


async def with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    can_retry: Callable[[], bool] = lambda: True,
) -> T:
    """Await ``call()``, sending it again on retryable :class:`ChatModelError` up to ``policy.max_retries`` times.

    ``can_retry`` vetoes a retry, e.g. once streamed text has reached the client.
    """
    attempt = 0
    while True:
        try:
            return await call()
        except ChatModelError as error:
            attempt += 1
            if not error.retryable or attempt > policy.max_retries or not can_retry():
                raise
            await asyncio.sleep(policy.delay(attempt))


async def generate_with_retries(
    call: Callable[[StreamCallback | None], Awaitable[T]],
    policy: RetryPolicy,
    stream_callback: StreamCallback | None,
) -> T:
    """Run one model call with retries; once a streamed delta has reached the caller, nothing is retried."""
    streamed = False

    async def on_delta(text: str) -> None:
        nonlocal streamed
        streamed = True
        if stream_callback is not None:
            await stream_callback(text)

    callback = on_delta if stream_callback is not None else None
    return await with_retries(lambda: call(callback), policy, can_retry=lambda: not streamed)


__all__ = ["NO_RETRIES", "ChatModel", "RetryPolicy", "StreamCallback", "generate_with_retries", "with_retries"]
