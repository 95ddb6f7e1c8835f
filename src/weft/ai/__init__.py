"""AI (L4): provider-neutral messages, the ``ChatModel`` protocol, provider adapters and AI node types.

The agent, memory, tools and output parsers build on these names; provider SDKs are imported only when an
adapter is used (``weft.ai.models.openai``, ``weft.ai.models.anthropic``).
"""

from weft.ai.errors import (
    ChatModelAuthError,
    ChatModelBadRequestError,
    ChatModelConnectionError,
    ChatModelError,
    ChatModelQuotaError,
    ChatModelRateLimitError,
    ChatModelResponseError,
    ChatModelServerError,
    ChatModelTimeoutError,
    MessageFormatError,
    ScriptExhaustedError,
)
from weft.ai.messages import (
    AIMessage,
    ContentPart,
    HumanMessage,
    ImagePart,
    Message,
    ModelResponse,
    SystemMessage,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolMessage,
    Usage,
    message_from_json,
    messages_from_json,
    messages_to_json,
)
from weft.ai.models.base import ChatModel, RetryPolicy, StreamCallback

__all__ = [
    "AIMessage",
    "ChatModel",
    "ChatModelAuthError",
    "ChatModelBadRequestError",
    "ChatModelConnectionError",
    "ChatModelError",
    "ChatModelQuotaError",
    "ChatModelRateLimitError",
    "ChatModelResponseError",
    "ChatModelServerError",
    "ChatModelTimeoutError",
    "ContentPart",
    "HumanMessage",
    "ImagePart",
    "Message",
    "MessageFormatError",
    "ModelResponse",
    "RetryPolicy",
    "ScriptExhaustedError",
    "StreamCallback",
    "SystemMessage",
    "TextPart",
    "ToolCall",
    "ToolDefinition",
    "ToolMessage",
    "Usage",
    "message_from_json",
    "messages_from_json",
    "messages_to_json",
]
