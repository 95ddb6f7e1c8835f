"""OpenRouter and DeepSeek chat models: the OpenAI adapter on the credential's ``url`` (a hidden credential field
whose defaults are the providers' hosts), talking to the scripted fake server on 127.0.0.1 through the official
``openai`` SDK."""

from __future__ import annotations

from typing import Any

import pytest

from weft.ai.messages import HumanMessage, SystemMessage
from weft.ai.nodes import CATALOG
from weft.ai.nodes.lm_chat_common import traced
from weft.ai.nodes.lm_chat_compatible import ExtraBodyChatModel
from weft.ai.nodes.lm_chat_deepseek import DEEPSEEK_BASE_URL, LmChatDeepSeek
from weft.ai.nodes.lm_chat_openrouter import OPENROUTER_BASE_URL, LmChatOpenRouter, provider_routing
from weft.errors import NodeOperationError
from weft.testing import OracleOpenAIServer

LC = "@n8n/n8n-nodes-langchain."


def test_registered_with_the_providers_hosts() -> None:
    assert CATALOG[LC + "lmChatOpenRouter"] == "weft.ai.nodes.lm_chat_openrouter:LmChatOpenRouter"
    assert CATALOG[LC + "lmChatDeepSeek"] == "weft.ai.nodes.lm_chat_deepseek:LmChatDeepSeek"
    assert OPENROUTER_BASE_URL == "https://openrouter.ai/api/v1"
    assert DEEPSEEK_BASE_URL == "https://api.deepseek.com"


async def test_without_a_url_in_the_credential_the_providers_host_is_used(make_ctx: Any) -> None:
    ctx = make_ctx(LC + "lmChatDeepSeek", {"model": "deepseek-chat"}, credentials={"deepSeekApi": {"apiKey": "k"}})
    assert (await LmChatDeepSeek().settings(ctx, 0)).base_url == "https://api.deepseek.com"
    ctx = make_ctx(LC + "lmChatOpenRouter", {}, credentials={"openRouterApi": {"apiKey": "k"}})
    settings = await LmChatOpenRouter().settings(ctx, 0)
    assert settings.base_url == "https://openrouter.ai/api/v1"
    assert settings.model == "openai/gpt-4.1-mini"  # n8n's default model


async def test_deepseek_sends_its_options_to_the_credentials_url(make_ctx: Any) -> None:
    with OracleOpenAIServer([{"content": "deep thought"}]) as server:
        options = {"temperature": 0.2, "maxTokens": 50, "topP": 0.9, "frequencyPenalty": 0.5, "responseFormat": "text"}
        credentials = {"deepSeekApi": {"apiKey": "ds-key", "url": server.base_url}}
        ctx = make_ctx(
            LC + "lmChatDeepSeek", {"model": "deepseek-reasoner", "options": options}, credentials=credentials
        )
        model = await LmChatDeepSeek().supply_data(ctx, 0)
        response = await model.generate([SystemMessage(content="Be brief."), HumanMessage(content="hi")], [])
        (entry,) = server.log
    assert response.message.content == "deep thought"
    request = entry["request"]
    assert request["model"] == "deepseek-reasoner"
    assert request["temperature"] == 0.2 and request["max_tokens"] == 50 and request["top_p"] == 0.9
    assert request["frequency_penalty"] == 0.5
    assert "response_format" not in request and "provider" not in request
    assert [m["role"] for m in request["messages"]] == ["system", "user"]


async def test_openrouter_sends_provider_routing_and_json_mode(make_ctx: Any) -> None:
    routing = {"order": "anthropic, openai,,", "allowFallbacks": False, "dataCollection": "deny", "sort": "price"}
    options = {"responseFormat": "json_object", "providerRouting": routing, "maxTokens": -1}
    with OracleOpenAIServer([{"content": '{"ok": true}'}]) as server:
        credentials = {"openRouterApi": {"apiKey": "or-key", "url": server.base_url}}
        parameters = {"model": "anthropic/claude-3.5-sonnet", "options": options}
        ctx = make_ctx(LC + "lmChatOpenRouter", parameters, credentials=credentials)
        settings = await LmChatOpenRouter().settings(ctx, 0)
        response = await traced(ctx, ExtraBodyChatModel(settings), {}).generate([HumanMessage(content="json")], [])
        (entry,) = server.log
    assert response.message.content == '{"ok": true}'
    request = entry["request"]
    assert request["model"] == "anthropic/claude-3.5-sonnet"
    assert request["response_format"] == {"type": "json_object"}
    assert request["provider"] == {
        "order": ["anthropic", "openai"],
        "allow_fallbacks": False,
        "data_collection": "deny",
        "sort": "price",
    }
    assert "max_tokens" not in request  # -1: the server decides
    assert settings.provider == "OpenRouter" and settings.credential_type == "openRouterApi"


def test_provider_routing_maps_every_field() -> None:
    routing = {
        "order": "a,b",
        "allowFallbacks": True,
        "requireParameters": True,
        "dataCollection": "allow",
        "zdr": True,
        "only": "azure",
        "ignore": " x , y ",
        "sort": "",
    }
    assert provider_routing({"providerRouting": routing}) == {
        "order": ["a", "b"],
        "only": ["azure"],
        "ignore": ["x", "y"],
        "allow_fallbacks": True,
        "require_parameters": True,
        "data_collection": "allow",
        "zdr": True,
    }
    assert provider_routing({}) == {} and provider_routing({"providerRouting": {}}) == {}


async def test_a_model_without_a_name_is_an_error(make_ctx: Any) -> None:
    ctx = make_ctx(LC + "lmChatOpenRouter", {"model": ""}, credentials={"openRouterApi": {"apiKey": "k"}})
    with pytest.raises(NodeOperationError, match="No model is set"):
        await LmChatOpenRouter().settings(ctx, 0)
