"""Image → Analyze Image: the prompt and the images (URLs, or binary files sent as base64 data URLs) in one user
message; ``POST /chat/completions`` up to typeVersion 1.8, ``POST /responses`` from 2 (n8n's
``image/analyze.operation``)."""

from __future__ import annotations

import base64
from typing import Any

from weft.ai.nodes.openai_node._params import model_id, options, require_prompt
from weft.ai.nodes.openai_node.transport import OpenAiTransport
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item


async def data_url(ctx: ExecuteContext, item_index: int, property_name: str) -> str:
    """``data:<mime type>;base64,<bytes>`` of the item's binary ``property_name`` (missing: n8n's error)."""
    binary = ctx.assert_binary_data(item_index, property_name)
    data = await ctx.get_binary_data_buffer(item_index, property_name)
    return f"data:{binary.get('mimeType')};base64,{base64.b64encode(data).decode()}"


async def _image_urls(ctx: ExecuteContext, item_index: int) -> list[str]:
    if ctx.get_node_parameter("inputType", item_index, "url") == "url":
        return [url.strip() for url in str(ctx.get_node_parameter("imageUrls", item_index, "")).split(",")]
    names = str(ctx.get_node_parameter("binaryPropertyName", item_index, "data")).split(",")
    return [await data_url(ctx, item_index, name.strip()) for name in names]


async def execute(ctx: ExecuteContext, transport: OpenAiTransport, item_index: int) -> list[Item]:
    version = float(ctx.node.typeVersion)
    model = model_id(ctx, item_index, "gpt-4o") if version >= 1.4 else "gpt-4-vision-preview"
    text = ctx.get_node_parameter("text", item_index, "What's in this image?")
    require_prompt(ctx, item_index, [text])
    sent = options(ctx, item_index)
    detail = sent.get("detail") or "auto"
    max_tokens = sent.get("maxTokens") or 300
    urls = await _image_urls(ctx, item_index)
    simplify = ctx.get_node_parameter("simplify", item_index, True)
    if version >= 2:
        content: list[dict[str, Any]] = [{"type": "input_text", "text": text}]
        content += [{"type": "input_image", "detail": detail, "image_url": url} for url in urls]
        body = {"model": model, "input": [{"role": "user", "content": content}], "max_output_tokens": max_tokens}
        response = await transport.request(item_index, "POST", "/responses", body)
        return [{"json": response.get("output") if simplify else response, "pairedItem": {"item": item_index}}]
    content = [{"type": "text", "text": text}]
    content += [{"type": "image_url", "image_url": {"url": url, "detail": detail}} for url in urls]
    body = {"model": model, "messages": [{"role": "user", "content": content}], "max_tokens": max_tokens}
    response = await transport.request(item_index, "POST", "/chat/completions", body)
    if simplify and response.get("choices"):
        response = {"content": response["choices"][0]["message"]["content"]}
    return [{"json": response, "pairedItem": {"item": item_index}}]


__all__ = ["data_url", "execute"]
