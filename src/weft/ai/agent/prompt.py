"""The agent's prompt: the system message, the user's text and the images of the input item."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.ai.messages import ContentPart, HumanMessage, ImagePart, Message
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

#: n8n's default system message.
SYSTEM_MESSAGE = "You are a helpful assistant"


def system_message(options: Mapping[str, Any], type_version: float) -> str | None:
    """The system message, or ``None`` for none: n8n sends one only when the option is set (and not empty),
    or, before typeVersion 1.9, its default (``options.systemMessage ?? typeVersion < 1.9``)."""
    value = options.get("systemMessage")
    if value is None:
        return SYSTEM_MESSAGE if type_version < 1.9 else None
    return str(value) or None


def prompt_text(ctx: ExecuteContext, item: Item, item_index: int) -> str:
    """The user's message: ``$json.chatInput`` (``promptType: auto``, from a chat trigger) or the ``text``."""
    prompt_type = ctx.get_node_parameter("promptType", item_index, "auto")
    if prompt_type == "auto":
        value = item["json"].get("chatInput")
        if value is None or value == "":
            raise NodeOperationError(
                ctx.node.name,
                "No prompt specified",
                description="Expected to find the prompt in an input field called 'chatInput' (this is what the "
                "chat trigger node outputs). To use something else, change the 'Prompt' parameter",
                item_index=item_index,
            )
        return value if isinstance(value, str) else str(value)
    value = ctx.get_node_parameter("text", item_index, "")
    if value is None or value == "":
        raise NodeOperationError(
            ctx.node.name,
            "No prompt specified",
            description="The prompt field is empty or the expression used could not be resolved. Please check the "
            "configured prompt value.",
            item_index=item_index,
        )
    return value if isinstance(value, str) else str(value)


def image_parts(item: Item) -> list[ImagePart]:
    """The item's image binaries as ``data:`` URLs (``passthroughBinaryImages``)."""
    parts: list[ImagePart] = []
    for binary in (item.get("binary") or {}).values():
        if not isinstance(binary, Mapping):
            continue
        mime = str(binary.get("mimeType") or "")
        data = binary.get("data")
        if mime.startswith("image/") and isinstance(data, str) and data:
            parts.append(ImagePart(url=f"data:{mime};base64,{data}"))
    return parts


def human_messages(text: str, item: Item, *, with_images: bool) -> list[Message]:
    """The user's turn; the item's images follow as a second human message, as n8n sends them (case a073)."""
    images = image_parts(item) if with_images else []
    if not images:
        return [HumanMessage(content=text)]
    content: list[ContentPart] = [*images]
    return [HumanMessage(content=text), HumanMessage(content=content)]


__all__ = ["SYSTEM_MESSAGE", "human_messages", "image_parts", "prompt_text", "system_message"]
