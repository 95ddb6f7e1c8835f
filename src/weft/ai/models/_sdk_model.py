"""What the chat models on the providers' official SDKs (``openai``, ``anthropic``: generated alike) share: one call
per attempt with the node's retries around it, a stream's text passed on as it comes, the SDK's errors read as
typed :class:`~weft.ai.errors.ChatModelError` s."""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable
from typing import Any, Generic, Protocol, TypeVar

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message, ModelResponse, ToolDefinition
from weft.ai.models._http_errors import Endpoint, connection_error, status_error, timeout_error
from weft.ai.models.base import RetryPolicy, StreamCallback, generate_with_retries


class SdkSettings(Protocol):
    @property
    def retry(self) -> RetryPolicy: ...

    @property
    def timeout(self) -> float: ...


class StreamAccumulator(Protocol):
    def add(self, event: Any) -> str: ...

    def response(self) -> ModelResponse: ...


S = TypeVar("S", bound=SdkSettings)


class SdkChatModel(Generic[S]):
    """A :class:`~weft.ai.models.base.ChatModel` whose :meth:`_call` makes one request through a provider's SDK."""

    def __init__(self, settings: S, endpoint: Endpoint) -> None:
        self.settings = settings
        self._endpoint = endpoint

    async def generate(
        self,
        messages: list[Message],
        tools: list[ToolDefinition],
        *,
        stream_callback: StreamCallback | None = None,
    ) -> ModelResponse:
        return await generate_with_retries(
            lambda callback: self._call(messages, tools, callback), self.settings.retry, stream_callback
        )

    async def _call(
        self, messages: list[Message], tools: list[ToolDefinition], callback: StreamCallback | None
    ) -> ModelResponse:
        raise NotImplementedError

    def _sdk_error(self, exc: Any, sdk: Any, status_detail: Callable[[Any], tuple[str, str | None]]) -> ChatModelError:
        """``exc``, an ``APIError`` of the SDK module ``sdk``, as a typed error; ``status_detail`` reads the
        provider's message and error code from an ``APIStatusError``."""
        if isinstance(exc, sdk.APITimeoutError):
            return timeout_error(self._endpoint, self.settings.timeout)
        if isinstance(exc, sdk.APIConnectionError):
            return connection_error(self._endpoint, str(exc.__cause__ or exc))
        if isinstance(exc, sdk.APIStatusError):
            detail, code = status_detail(exc)
            return status_error(self._endpoint, exc.status_code, detail, code)
        return status_error(self._endpoint, 500, exc.message)


async def pass_on_stream(events: AsyncIterable[Any], acc: StreamAccumulator, callback: StreamCallback) -> ModelResponse:
    """Read a streamed answer into ``acc``, giving ``callback`` each piece of text as it comes."""
    async for event in events:
        delta = acc.add(event)
        if delta:
            await callback(delta)
    return acc.response()


__all__ = ["SdkChatModel", "pass_on_stream"]
