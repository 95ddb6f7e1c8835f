"""Text → Message a Model (typeVersion 2 and later): the Responses API, ``POST /responses`` (n8n's
``text/response.operation`` and ``helpers/responses``). Text, image and file messages; the options n8n sends;
the connected tools run in a loop (``function_call`` → ``function_call_output``). Built-in tools (web search,
file search, code interpreter) are sent as n8n sends them; background mode is not supported."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from weft.ai.nodes.openai_node._params import collection_values, model_id, options, require_prompt
from weft.ai.nodes.openai_node.image_analyze import data_url
from weft.ai.nodes.openai_node.text_message import JSON_SYSTEM_MESSAGE
from weft.ai.nodes.openai_node.tools import call_tool, node_tools, responses_tool
from weft.ai.nodes.openai_node.transport import OpenAiTransport
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, ToolSpec
from weft.workflow import Item


def _empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, dict | list) and not value)


def compact(body: Mapping[str, Any]) -> dict[str, Any]:
    """n8n's ``removeEmptyProperties``: no ``undefined``, ``""``, ``{}`` or ``[]`` entries."""
    return {key: value for key, value in body.items() if not _empty(value)}


async def _content(ctx: ExecuteContext, item_index: int, message: Mapping[str, Any]) -> list[dict[str, Any]]:
    kind = message.get("type") or "text"
    if kind == "text":
        text = message.get("content", "")
        if message.get("role") == "assistant":  # n8n 2.41: an assistant message is the model's own output
            return [{"type": "output_text", "text": text, "annotations": []}]
        return [{"type": "input_text", "text": text}]
    if kind == "image":
        image: dict[str, Any] = {"type": "input_image", "detail": message.get("imageDetail") or "auto"}
        source = message.get("imageType", "url")
        if source == "base64":
            image["image_url"] = await data_url(ctx, item_index, str(message.get("binaryPropertyName", "data")))
        elif source == "url":
            image["image_url"] = message.get("imageUrl", "")
        elif source == "fileId":
            image["file_id"] = message.get("fileId", "")
        return [image]
    file: dict[str, Any] = {"type": "input_file"}
    source = message.get("fileType", "url")
    if source == "base64":
        file["filename"] = message.get("fileName")
        file["file_data"] = await data_url(ctx, item_index, str(message.get("binaryPropertyName", "data")))
    elif source == "url":
        file["file_url"] = message.get("fileUrl", "")
    elif source == "fileId":
        file["file_id"] = message.get("fileId", "")
    return [{k: v for k, v in file.items() if v is not None}]


async def input_messages(ctx: ExecuteContext, item_index: int) -> list[dict[str, Any]]:
    """``formatInputMessages``: each message as ``{role, content: [input part]}``."""
    entries = collection_values(ctx, "responses", item_index, [{"type": "text"}])
    texts = [e.get("content") for e in entries if (e.get("type") or "text") == "text"]
    require_prompt(ctx, item_index, texts)
    return [{"role": entry.get("role", "user"), "content": await _content(ctx, item_index, entry)} for entry in entries]


def _json_option(ctx: ExecuteContext, text: Any, what: str) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else text
    except ValueError as exc:
        raise NodeOperationError(ctx.node.name, f"Failed to parse {what}") from exc


def _text_config(ctx: ExecuteContext, body: dict[str, Any], text_options: Mapping[str, Any]) -> dict[str, Any]:
    """The ``textFormat`` option as ``body.text``; JSON object output adds n8n's system message."""
    config: dict[str, Any] = {"verbosity": text_options.get("verbosity")}
    kind = text_options.get("type")
    if kind == "json_schema":
        schema = _json_option(ctx, text_options.get("schema"), "schema")
        config["format"] = compact({"type": kind, "name": text_options.get("name"), "schema": schema})
    elif kind == "json_object":
        config["format"] = {"type": kind}
        system = {"role": "system", "content": [{"type": "input_text", "text": JSON_SYSTEM_MESSAGE}]}
        body["input"] = [system, *body["input"]]
    elif kind == "text":
        config["format"] = {"type": kind}
    return {k: v for k, v in config.items() if v is not None}


def _get(value: Any, *path: str, default: Any = None) -> Any:
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return default
        value = value[key]
    return value


def _built_in_tools(ctx: ExecuteContext, built_in: Mapping[str, Any]) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    web = built_in.get("webSearch")
    if web:
        domains = (
            [d.strip() for d in str(_get(web, "allowedDomains", default="")).split(",")]
            if _get(web, "allowedDomains")
            else None
        )
        location = None
        if any(_get(web, key) for key in ("country", "city", "region")):
            location = {"type": "approximate", **{k: _get(web, k) for k in ("country", "city", "region")}}
        entry = {
            "type": "web_search",
            "search_context_size": _get(web, "searchContextSize", default="medium"),
            "user_location": location,
        }
        if domains:
            entry["filters"] = {"allowed_domains": domains}
        tools.append(compact(entry))
    if built_in.get("codeInterpreter"):
        tools.append({"type": "code_interpreter", "container": {"type": "auto"}})
    search = built_in.get("fileSearch")
    if search:
        filters = _get(search, "filters", default="{}")
        entry = {
            "type": "file_search",
            "vector_store_ids": _json_option(ctx, _get(search, "vectorStoreIds", default="[]"), "vector store IDs"),
            "filters": _json_option(ctx, filters, "filters") if filters else None,
            "max_num_results": _get(search, "maxResults"),
        }
        tools.append(compact(entry))
    return tools


async def create_request(
    ctx: ExecuteContext, item_index: int, model: str, tools: list[ToolSpec], opts: Mapping[str, Any]
) -> dict[str, Any]:
    """``createRequest``: the ``/responses`` body."""
    body: dict[str, Any] = {
        "model": model,
        "input": await input_messages(ctx, item_index),
        "parallel_tool_calls": opts.get("parallelToolCalls", True),
        "store": opts.get("store", True),
        "instructions": opts.get("instructions"),
        "max_output_tokens": opts.get("maxTokens"),
        "previous_response_id": opts.get("previousResponseId"),
        "prompt_cache_key": opts.get("promptCacheKey"),
        "safety_identifier": opts.get("safetyIdentifier"),
        "service_tier": opts.get("serviceTier"),
        "temperature": opts.get("temperature"),
        "top_p": opts.get("topP"),
        "top_logprobs": opts.get("topLogprobs"),
        "tools": [responses_tool(t) for t in tools] or None,
        "max_tool_calls": opts.get("maxToolCalls"),
        "background": _get(opts, "backgroundMode", "values", "enabled", default=False),
    }
    if body["background"]:
        raise NodeOperationError(
            ctx.node.name,
            "Background mode is not supported",
            description="Turn off the 'Background Mode' option.",
            item_index=item_index,
        )
    _add_options(ctx, body, opts)
    built_in = ctx.get_node_parameter("builtInTools", item_index, {})
    if isinstance(built_in, Mapping):
        body["tools"] = (body.get("tools") or []) + _built_in_tools(ctx, built_in)
    return compact(body)


def _add_options(ctx: ExecuteContext, body: dict[str, Any], opts: Mapping[str, Any]) -> None:
    if opts.get("truncation") is not None:
        body["truncation"] = "auto" if opts["truncation"] else "disabled"
    if opts.get("conversationId"):
        body["conversation"] = opts["conversationId"]
    if isinstance(opts.get("include"), list) and opts["include"]:
        body["include"] = opts["include"]
    if opts.get("metadata"):
        body["metadata"] = _json_option(ctx, opts["metadata"], "metadata")
    if opts.get("promptConfig"):
        prompt = _get(opts, "promptConfig", "promptOptions", default={})
        variables = _get(prompt, "variables")
        body["prompt"] = compact(
            {
                "id": _get(prompt, "promptId"),
                "version": _get(prompt, "version"),
                "variables": _json_option(ctx, variables, "prompt variables") if variables else None,
            }
        )
    if opts.get("reasoning"):
        reasoning = _get(opts, "reasoning", "reasoningOptions", default={})
        summary = _get(reasoning, "summary")
        body["reasoning"] = compact(
            {"effort": _get(reasoning, "effort"), "summary": summary if summary and summary != "none" else None}
        )
    if opts.get("textFormat"):
        body["text"] = _text_config(ctx, body, _get(opts, "textFormat", "textOptions", default={}))


async def execute(ctx: ExecuteContext, transport: OpenAiTransport, item_index: int) -> list[Item]:
    opts = options(ctx, item_index)
    max_iterations = int(opts.get("maxToolsIterations", 15))
    model = model_id(ctx, item_index)
    tools = await node_tools(ctx, item_index, model)
    body = await create_request(ctx, item_index, model, tools, opts)
    response = await transport.request(item_index, "POST", "/responses", body)
    if not response:
        return []
    response = await _tool_loop(ctx, transport, item_index, body, response, tools, max_iterations)
    if _get(body, "text", "format", "type") in ("json_object", "json_schema"):
        _parse_json_output(response)
    if ctx.get_node_parameter("simplify", item_index, True):
        messages = [item for item in response.get("output") or [] if item.get("type") == "message"]
        return [{"json": {"output": messages}, "pairedItem": {"item": item_index}}]
    return [{"json": response, "pairedItem": {"item": item_index}}]


def _tool_related(response: Any) -> list[dict[str, Any]]:
    return [i for i in response.get("output") or [] if i.get("type") in ("function_call", "reasoning")]


async def _tool_loop(
    ctx: ExecuteContext,
    transport: OpenAiTransport,
    item_index: int,
    body: dict[str, Any],
    response: Any,
    tools: list[ToolSpec],
    max_iterations: int,
) -> Any:
    """Answer the model's function calls and ask again, at most ``max_iterations`` times (0: no limit)."""
    iteration = 1
    related = _tool_related(response)
    while any(i.get("type") == "function_call" for i in related):
        ctx.check_cancelled()
        if max_iterations > 0 and iteration > max_iterations:
            break
        if not body.get("conversation"):
            body["input"].extend(related)
        for call in (i for i in related if i.get("type") == "function_call"):
            output = await call_tool(tools, str(call.get("name")), str(call.get("arguments") or "{}"))
            entry = {"type": "function_call_output", "call_id": call.get("call_id"), "output": output}
            body["input"].append({k: v for k, v in entry.items() if v is not None})
        response = await transport.request(item_index, "POST", "/responses", body)
        related = _tool_related(response)
        iteration += 1
    return response


def _parse_json_output(response: Any) -> None:
    """JSON output: each ``output_text`` parsed in place, until one is not JSON (n8n's single ``try``)."""
    try:
        for item in response.get("output") or []:
            if item.get("type") == "message":
                for part in item.get("content") or []:
                    if part.get("type") == "output_text":
                        part["text"] = json.loads(part.get("text"))
    except (TypeError, ValueError):
        pass


__all__ = ["compact", "create_request", "execute", "input_messages"]
