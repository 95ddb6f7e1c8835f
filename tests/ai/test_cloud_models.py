"""Google Gemini, Mistral Cloud and Groq chat models on the fakes of ``weft.testing.saas`` (through the fake as
HTTPS proxy): what the recordings (cases s900-s934) cannot show: the request each sends, the two Gemini APIs
answering alike, the providers' error wordings for bodies the recordings do not hold."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.ai.errors import ChatModelAuthError, ChatModelBadRequestError, ChatModelRateLimitError
from weft.ai.messages import AIMessage, HumanMessage, ModelResponse, SystemMessage, ToolDefinition, ToolMessage
from weft.ai.models.sdk_errors import google_fetch_error, mistral_status_error
from weft.ai.nodes.lm_chat_gemini import LmChatGoogleGemini, gemini_generation_info, gemini_status_error
from weft.ai.nodes.lm_chat_groq import LmChatGroq
from weft.ai.nodes.lm_chat_mistral import LmChatMistralCloud
from weft.nodes.http.clients import new_client
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import gemini as gemini_fake
from weft.testing.saas import groq as groq_fake
from weft.testing.saas import mistral as mistral_fake

LC = "@n8n/n8n-nodes-langchain."
CALCULATOR = ToolDefinition(
    name="calculator", description="math", parameters={"type": "object", "properties": {"input": {"type": "string"}}}
)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["gemini", "mistral", "groq"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def supplied(make_ctx: Any, node: Any, type_: str, parameters: dict[str, Any], creds: dict[str, Any]) -> Any:
    ctx = make_ctx(LC + type_, parameters, credentials=creds)
    return await node.supply_data(ctx, 0)


GEMINI = {"googlePalmApi": {"host": "https://generativelanguage.googleapis.com", "apiKey": gemini_fake.KEY}}


async def test_gemini_sends_its_options_to_the_openai_compatible_api(make_ctx: Any, fake: FakeSaasServer) -> None:
    options = {"temperature": 0.2, "maxOutputTokens": 50, "topP": 0.9}
    parameters = {"modelName": "models/gemini-2.5-flash", "options": options}
    model = await supplied(make_ctx, LmChatGoogleGemini(), "lmChatGoogleGemini", parameters, GEMINI)
    response = await model.generate([HumanMessage(content="options?")], [])
    assert response.message.content == "options: temperature=0.2 max_tokens=50 top_p=0.9"
    (request,) = fake.requests
    assert (request.host, request.path) == (gemini_fake.HOST, "/v1beta/openai/chat/completions")
    assert request.headers["authorization"] == f"Bearer {gemini_fake.KEY}"
    assert request.body["model"] == "gemini-2.5-flash"


async def test_the_two_gemini_apis_answer_alike(make_ctx: Any, fake: FakeSaasServer) -> None:
    parameters = {"modelName": "models/gemini-2.5-flash", "options": {}}
    model = await supplied(make_ctx, LmChatGoogleGemini(), "lmChatGoogleGemini", parameters, GEMINI)
    compatible = await model.generate([SystemMessage(content="Be brief."), HumanMessage(content="hi")], [CALCULATOR])
    native_body = {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [{"functionDeclarations": [{"name": "calculator"}]}],
    }
    url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    async with new_client() as client:
        native = (await client.post(url, json=native_body, headers={"x-goog-api-key": gemini_fake.KEY})).json()
    assert native["candidates"][0]["content"]["parts"] == [{"text": compatible.message.content}]
    assert compatible.message.content == "Echo: hi | system: Be brief."


async def test_a_gemini_tool_call_then_its_result(make_ctx: Any, fake: FakeSaasServer) -> None:
    parameters = {"modelName": "models/gemini-2.5-flash"}
    model = await supplied(make_ctx, LmChatGoogleGemini(), "lmChatGoogleGemini", parameters, GEMINI)
    turn = await model.generate([HumanMessage(content="tool: 2+3")], [CALCULATOR])
    (call,) = turn.message.tool_calls
    assert (call.name, call.args) == ("calculator", {"input": "2+3"})


async def test_groq_sends_the_token_limit_as_max_completion_tokens(make_ctx: Any, fake: FakeSaasServer) -> None:
    parameters = {"model": "llama-3.3-70b-versatile", "options": {"maxTokensToSample": 64}}
    model = await supplied(make_ctx, LmChatGroq(), "lmChatGroq", parameters, {"groqApi": {"apiKey": groq_fake.KEY}})
    response = await model.generate([HumanMessage(content="options?")], [])
    assert response.message.content == "options: temperature=0.7 max_tokens=64"
    (request,) = fake.requests
    assert request.body["max_completion_tokens"] == 64 and "max_tokens" not in request.body


async def test_mistral_streams_and_calls_tools_with_its_ids(make_ctx: Any, fake: FakeSaasServer) -> None:
    creds = {"mistralCloudApi": {"apiKey": mistral_fake.KEY}}
    parameters = {"model": "mistral-small-latest", "options": {}}
    model = await supplied(make_ctx, LmChatMistralCloud(), "lmChatMistralCloud", parameters, creds)
    chunks: list[str] = []

    async def collect(text: str) -> None:
        chunks.append(text)

    turn = await model.generate([HumanMessage(content="tool: 1+1")], [CALCULATOR], stream_callback=collect)
    (call,) = turn.message.tool_calls
    assert len(call.id) == 9 and call.id.isalnum()
    answer = await model.generate(
        [HumanMessage(content="tool: 1+1"), AIMessage(content="", tool_calls=[call]), _tool_result(call.id)], []
    )
    assert answer.message.content == "Tool said: 2"


def _tool_result(call_id: str) -> ToolMessage:
    return ToolMessage(content="2", tool_call_id=call_id, name="calculator")


async def test_a_wrong_groq_key_is_n8ns_message_with_groqs_words(make_ctx: Any, fake: FakeSaasServer) -> None:
    model = await supplied(make_ctx, LmChatGroq(), "lmChatGroq", {"model": "x"}, {"groqApi": {"apiKey": "bad"}})
    with pytest.raises(ChatModelAuthError) as caught:
        await model.generate([HumanMessage(content="hi")], [])
    assert caught.value.message == "Authorization failed - please check your credentials"
    assert caught.value.description == "Invalid API Key"


def test_the_mistral_sdk_wording() -> None:
    short = mistral_status_error(401, "application/json", '{"message":"Unauthorized"}')
    assert str(short.message) == 'API error occurred: Status 401. Body: {"message":"Unauthorized"}'
    assert isinstance(short, ChatModelAuthError)
    long = mistral_status_error(429, "application/json; charset=utf-8", "x" * 101)
    assert (
        long.message
        == f'API error occurred: Status 429 Content-Type "application/json; charset=utf-8"\nBody: {"x" * 101}'
    )
    assert isinstance(long, ChatModelRateLimitError)


def test_googles_wordings() -> None:
    body = [{"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT"}}]
    error = gemini_status_error(400, body, "https://g.example/v1beta/openai")
    assert isinstance(error, ChatModelBadRequestError)
    assert error.message == "Bad request - please check your parameters"
    assert "API key not valid." in str(error.description)
    fetch = google_fetch_error("https://g.example/x:embedContent", 404, {"error": {"message": "gone"}})
    assert (
        fetch.message
        == "[GoogleGenerativeAI Error]: Error fetching from https://g.example/x:embedContent: [404 Not Found] gone"
    )


def test_geminis_finish_reasons() -> None:
    def info(reason: str) -> dict[str, Any]:
        return gemini_generation_info(ModelResponse(message=AIMessage(content=""), finish_reason=reason))

    assert info("stop") == info("tool_calls") == {"finishReason": "STOP", "index": 0}
    assert info("length") == {"finishReason": "MAX_TOKENS", "index": 0}
