"""The Basic LLM Chain's prompt (n8n's ``promptUtils.ts`` and ``imageUtils.ts``).

The user's text (``prompt`` up to 1.3, then ``promptType`` and ``text``) follows the chat messages
(``messages.messageValues``: system, AI and user messages, a user message being text, an image URL or the input
item's image binary). The text, with the output parser's format instructions below it, joins a last user image
message as its text part, else becomes a user message of its own. Message texts are sent as written (n8n
escapes their braces before LangChain's template sees them).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any, Literal

from weft.ai.messages import AIMessage, ContentPart, HumanMessage, ImagePart, Message, SystemMessage, TextPart
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.workflow.jsjson import js_json

#: ``promptType`` -> the input field it reads (``define`` reads the ``text`` parameter).
_PROMPT_FIELDS = {"auto": "chatInput", "guardrails": "guardrailsInput"}
#: The default ``prompt`` of the versions before ``promptType``.
_OLD_PROMPTS = {1: "={{ $json.input }}", 1.1: "={{ $json.chat_input }}", 1.2: "={{ $json.chat_input }}"}
_DETAILS: dict[str, Literal["low", "high"]] = {"low": "low", "high": "high"}
_MESSAGE_TYPES = {
    "SystemMessagePromptTemplate": SystemMessage,
    "AIMessagePromptTemplate": AIMessage,
    "HumanMessagePromptTemplate": HumanMessage,
}


def prompt_text(ctx: ExecuteContext, item_index: int) -> Any:
    """The user's text for the item (``processItem`` / ``getPromptInputByType``); ``None`` is an error."""
    version = float(ctx.node.typeVersion)
    if version <= 1.3:
        default = _OLD_PROMPTS.get(version, "={{ $json.chatInput }}")
        value = ctx.get_node_parameter("prompt", item_index, default)
        if value is default:  # not set: the version's default expression
            value = ctx.evaluate_expression(default, item_index)
        if value is None:
            raise NodeOperationError(ctx.node.name, "The 'prompt' parameter is empty.", item_index=item_index)
        return value
    return prompt_by_type(ctx, item_index)


def prompt_by_type(ctx: ExecuteContext, item_index: int) -> Any:
    """The user's text as ``promptType`` says (n8n's ``getPromptInputByType``): a chat trigger's or guardrails
    node's field, or the ``text`` parameter; ``None`` is the node error n8n gives."""
    prompt_type = ctx.get_node_parameter("promptType", item_index, "auto")
    field = _PROMPT_FIELDS.get(str(prompt_type))
    if field is None:
        value = ctx.get_node_parameter("text", item_index, None)
    else:
        value = ctx.evaluate_expression(f'={{{{ $json["{field}"] }}}}', item_index)
    if value is None:
        source = "chat trigger node" if prompt_type == "auto" else "guardrails node"
        description = (
            f"Expected to find the prompt in an input field called '{field}' (this is what the {source} node "
            "outputs). To use something else, change the 'Prompt' parameter"
            if field is not None
            else "The prompt field is empty or the expression used could not be resolved. Please check the "
            "configured prompt value."
        )
        raise NodeOperationError(ctx.node.name, "No prompt specified", description=description, item_index=item_index)
    return value


async def chain_messages(ctx: ExecuteContext, item_index: int, query: Any, instructions: str | None) -> list[Message]:
    """The messages sent to the model for one item."""
    text = query if isinstance(query, str) else js_json(query)
    if instructions:
        text = f"{text}\n{instructions}"
    values = ctx.get_node_parameter("messages.messageValues", item_index, [])
    messages = [await _message(ctx, item_index, v) for v in values or [] if isinstance(v, Mapping)]
    last = messages[-1] if messages else None
    if isinstance(last, HumanMessage) and isinstance(last.content, list):
        messages[-1] = HumanMessage(content=[*last.content, TextPart(text=text)])
    else:
        messages.append(HumanMessage(content=text))
    return messages


async def _message(ctx: ExecuteContext, item_index: int, value: Mapping[str, Any]) -> Message:
    kind = _MESSAGE_TYPES.get(str(value.get("type", "SystemMessagePromptTemplate")))
    if kind is None:
        raise NodeOperationError(
            ctx.node.name,
            "Invalid message type",
            description=f"Message type {value.get('type')!r} is not one of {', '.join(_MESSAGE_TYPES)}.",
            item_index=item_index,
        )
    if kind is HumanMessage and value.get("messageType", "text") != "text":
        return HumanMessage(content=[await _image(ctx, item_index, value)])
    text = str(value.get("message") or "")
    return SystemMessage(content=text) if kind is SystemMessage else kind(content=text)


async def _image(ctx: ExecuteContext, item_index: int, value: Mapping[str, Any]) -> ContentPart:
    message_type = value.get("messageType")
    if message_type not in ("imageBinary", "imageUrl"):
        raise NodeOperationError(ctx.node.name, "Invalid message type. Only imageBinary and imageUrl are supported")
    detail: Literal["auto", "low", "high"] = _DETAILS.get(str(value.get("imageDetail")), "auto")
    if message_type == "imageUrl" and value.get("imageUrl"):
        return ImagePart(url=str(value["imageUrl"]), detail=detail)
    key = str(value.get("binaryImageDataKey") or "data")
    binary = (ctx.get_input_data()[item_index].get("binary") or {}).get(key)
    if not binary:
        raise NodeOperationError(ctx.node.name, "No binary data set.")
    data = await ctx.get_binary_data_buffer(item_index, key)
    mime = str(binary.get("mimeType") or "")
    if not mime.startswith("image/"):
        raise NodeOperationError(
            ctx.node.name, f"{mime or 'undefined'} is not a supported type of binary data. Only images are supported."
        )
    return ImagePart(url=f"data:{mime};base64,{base64.b64encode(data).decode()}", detail=detail)


__all__ = ["chain_messages", "prompt_by_type", "prompt_text"]
