"""Google Gemini, Mistral Cloud and Groq chat models: the OpenAI adapter on each provider's OpenAI-compatible
endpoint, talking to the scripted fake server on 127.0.0.1 through the official ``openai`` SDK.

Their behaviour against n8n's is recorded in cases s900-s934 (the fakes ``weft.testing.saas.gemini``, ``.mistral``
and ``.groq``, reached through the fake as HTTPS proxy); these tests check the settings on a plain local server."""

from __future__ import annotations

from typing import Any

import pytest

from weft.ai.messages import HumanMessage, SystemMessage
from weft.ai.models.openai import OpenAIChatModel
from weft.ai.nodes.lm_chat_gemini import LmChatGoogleGemini, gemini_openai_url
from weft.ai.nodes.lm_chat_groq import GROQ_BASE_URL, LmChatGroq
from weft.ai.nodes.lm_chat_mistral import MISTRAL_BASE_URL, LmChatMistralCloud, MistralChatModel
from weft.errors import NodeOperationError
from weft.testing import OracleOpenAIServer

LC = "@n8n/n8n-nodes-langchain."


def test_the_providers_endpoints() -> None:
    assert GROQ_BASE_URL == "https://api.groq.com/openai/v1"
    assert MISTRAL_BASE_URL == "https://api.mistral.ai/v1"
    assert gemini_openai_url("") == "https://generativelanguage.googleapis.com/v1beta/openai"
    assert gemini_openai_url("http://127.0.0.1:9/") == "http://127.0.0.1:9/v1beta/openai"


async def test_gemini_talks_to_the_credentials_host(make_ctx: Any) -> None:
    with OracleOpenAIServer([{"content": "Gemini says hi"}]) as server:
        parameters = {"modelName": "models/gemini-2.5-flash", "options": {"temperature": 0.4, "maxOutputTokens": 64}}
        credentials = {"googlePalmApi": {"host": server.root_url, "apiKey": "g-key"}}
        ctx = make_ctx(LC + "lmChatGoogleGemini", parameters, credentials=credentials)
        model = await LmChatGoogleGemini().supply_data(ctx, 0)
        response = await model.generate([SystemMessage(content="Be kind."), HumanMessage(content="hi")], [])
        (entry,) = server.log
    assert response.message.content == "Gemini says hi"
    assert entry["path"] == "/v1beta/openai/chat/completions"
    assert entry["request"]["model"] == "gemini-2.5-flash"
    assert entry["request"]["temperature"] == 0.4 and entry["request"]["max_tokens"] == 64


async def test_groq_sends_its_options(make_ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with OracleOpenAIServer([{"content": "fast"}]) as server:
        monkeypatch.setattr(LmChatGroq, "base_url", server.base_url)
        parameters = {"model": "llama-3.3-70b-versatile", "options": {"maxTokensToSample": 100, "temperature": 0.1}}
        ctx = make_ctx(LC + "lmChatGroq", parameters, credentials={"groqApi": {"apiKey": "gsk"}})
        settings = await LmChatGroq().settings(ctx, 0)
        response = await OpenAIChatModel(settings).generate([HumanMessage(content="go")], [])
        (entry,) = server.log
    assert response.message.content == "fast"
    assert entry["request"]["model"] == "llama-3.3-70b-versatile"
    assert entry["request"]["max_tokens"] == 100 and entry["request"]["temperature"] == 0.1
    assert settings.provider == "Groq" and settings.credential_type == "groqApi"


async def test_mistral_sends_the_seed_and_never_safe_prompt(make_ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with OracleOpenAIServer([{"content": "bonjour"}]) as server:
        monkeypatch.setattr(LmChatMistralCloud, "base_url", server.base_url)
        options = {"safeMode": True, "randomSeed": 7, "topP": 0.5, "maxTokens": -1}
        parameters = {"model": "mistral-small", "options": options}
        ctx = make_ctx(LC + "lmChatMistralCloud", parameters, credentials={"mistralCloudApi": {"apiKey": "m"}})
        settings = await LmChatMistralCloud().settings(ctx, 0)
        response = await MistralChatModel(settings).generate([HumanMessage(content="salut")], [])
        (entry,) = server.log
    assert response.message.content == "bonjour"
    request = entry["request"]
    # n8n hands Safe Mode to LangChain under a name it ignores: safe_prompt stays false (recorded: case s911)
    assert request["safe_prompt"] is False and request["random_seed"] == 7 and request["top_p"] == 0.5
    assert request["temperature"] == 0.7  # LangChain's default, sent by n8n (case s912)
    assert "max_tokens" not in request  # -1: the server decides


async def test_a_model_without_a_name_is_an_error(make_ctx: Any) -> None:
    ctx = make_ctx(LC + "lmChatGroq", {"model": " "}, credentials={"groqApi": {"apiKey": "k"}})
    with pytest.raises(NodeOperationError, match="No model is set"):
        await LmChatGroq().settings(ctx, 0)


async def test_the_responses_api_streams_from_the_fake() -> None:
    from weft.ai.models.openai import OpenAISettings

    with OracleOpenAIServer([{"content": "streamed"}], responses=True) as server:
        model = OpenAIChatModel(OpenAISettings(model="gpt-4o-mini", base_url=server.base_url, api="responses"))
        deltas: list[str] = []

        async def on_delta(text: str) -> None:
            deltas.append(text)

        response = await model.generate([HumanMessage(content="hi")], [], stream_callback=on_delta)
        plain = await model.generate([HumanMessage(content="again")], [])
    assert deltas == ["streamed"] and response.message.content == "streamed"
    assert plain.message.content == "streamed" and plain.usage is not None
    assert [entry["kind"] for entry in server.log] == ["responses", "responses"]


async def test_gemini_without_a_model_name_is_an_error(make_ctx: Any) -> None:
    credentials = {"googlePalmApi": {"host": "http://127.0.0.1:9", "apiKey": "k"}}
    ctx = make_ctx(LC + "lmChatGoogleGemini", {"modelName": ""}, credentials=credentials)
    with pytest.raises(NodeOperationError, match="No model is set"):
        await LmChatGoogleGemini().settings(ctx, 0)


@pytest.mark.parametrize(("version", "model"), [(1, "gemini-2.5-flash"), (1.2, "gemini-3-flash-preview")])
async def test_gemini_default_model_by_version(make_ctx: Any, version: float, model: str) -> None:
    credentials = {"googlePalmApi": {"host": "http://127.0.0.1:9", "apiKey": "k"}}
    ctx = make_ctx(LC + "lmChatGoogleGemini", {}, version=version, credentials=credentials)
    assert (await LmChatGoogleGemini().settings(ctx, 0)).model == model
