"""The OpenAI adapter over real HTTP against FakeOpenAIServer: exact request bodies, streaming, errors."""

from __future__ import annotations

import re
from typing import Any

import pytest

from weft.ai.errors import (
    ChatModelAuthError,
    ChatModelBadRequestError,
    ChatModelConnectionError,
    ChatModelError,
    ChatModelQuotaError,
    ChatModelRateLimitError,
    ChatModelServerError,
    ChatModelTimeoutError,
)
from weft.ai.messages import (
    AIMessage,
    HumanMessage,
    ImagePart,
    Message,
    SystemMessage,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolMessage,
)
from weft.ai.models.base import RetryPolicy
from weft.ai.models.openai import OpenAIChatModel, OpenAISettings
from weft.testing import FakeOpenAIServer

PROMPT: list[Message] = [
    SystemMessage(content="You are a helpful assistant."),
    HumanMessage(content="What is 12345 * 6789? Use the calculator tool."),
]
TOOL_JSON: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "Calculator",
        "description": "Useful for getting the result of a math expression.",
        "parameters": {"type": "object", "properties": {"input": {"type": "string"}}, "additionalProperties": False},
        "strict": False,
    },
}


def model_for(server: FakeOpenAIServer, **settings: Any) -> OpenAIChatModel:
    settings.setdefault("retry", RetryPolicy(max_retries=0))
    return OpenAIChatModel(OpenAISettings(model="gpt-4o-mini", api_key="sk-test", base_url=server.base_url, **settings))


async def run_tool_round(server: FakeOpenAIServer, model: OpenAIChatModel, tool: ToolDefinition) -> list[Message]:
    server.add_turns({"tool": "Calculator", "args": {"input": "12345 * 6789"}}, "FINAL: {{last_tool_result}}")
    first = await model.generate(PROMPT, [tool])
    call = first.message.tool_calls[0]
    history = [
        *PROMPT,
        first.message,
        ToolMessage(tool_call_id=call.id, name=call.name, content='[{"response":"83810205"}]'),
    ]
    second = await model.generate(history, [tool])
    assert second.message == AIMessage(content='FINAL: [{"response":"83810205"}]')
    return history


async def test_chat_completions_request_bodies_match_n8n(
    fake_openai_server: FakeOpenAIServer, calculator: ToolDefinition
) -> None:
    await run_tool_round(fake_openai_server, model_for(fake_openai_server), calculator)

    first, second = fake_openai_server.requests
    assert first.path == "/v1/chat/completions"
    assert first.headers["authorization"] == "Bearer sk-test"
    assert first.body == {
        "model": "gpt-4o-mini",
        "stream": False,
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What is 12345 * 6789? Use the calculator tool."},
        ],
        "tools": [TOOL_JSON],
    }
    assert second.body["messages"][2:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "Calculator", "arguments": '{"input":"12345 * 6789"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '[{"response":"83810205"}]'},
    ]
    assert second.body["tools"] == [TOOL_JSON]


async def test_response_carries_tool_calls_usage_and_model(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns({"tool_calls": [{"name": "a", "args": {"x": 1}}, {"name": "b"}], "usage": [12, 7]})
    response = await model_for(fake_openai_server).generate(PROMPT, [])
    assert response.message.tool_calls == [
        ToolCall(id="call_1", name="a", args={"x": 1}),
        ToolCall(id="call_2", name="b"),
    ]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 7)
    assert response.raw_model_name == "gpt-4o-mini"
    assert response.finish_reason == "tool_calls"
    assert "tools" not in fake_openai_server.bodies[0]


async def test_options_and_images_are_sent(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns("ok")
    model = model_for(fake_openai_server, temperature=0.2, max_tokens=50, top_p=0.9, response_format="json_object")
    image = HumanMessage(content=[TextPart(text="Describe"), ImagePart(url="data:image/png;base64,AAAA")])
    await model.generate([image], [])
    body = fake_openai_server.bodies[0]
    assert body["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Describe"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            ],
        }
    ]
    assert (body["temperature"], body["max_tokens"], body["top_p"]) == (0.2, 50, 0.9)
    assert body["response_format"] == {"type": "json_object"}


async def test_chat_completions_streaming(fake_openai_server: FakeOpenAIServer, calculator: ToolDefinition) -> None:
    fake_openai_server.add_turns(
        "The answer is 42", {"text": "Let me check", "tool": "Calculator", "args": {"input": "6*7"}}
    )
    model = model_for(fake_openai_server)
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    text = await model.generate(PROMPT, [calculator], stream_callback=on_delta)
    assert deltas == ["The", " answer", " is", " 42"]
    assert text.message == AIMessage(content="The answer is 42")
    assert text.usage.output_tokens > 0
    assert fake_openai_server.bodies[0]["stream"] is True
    assert fake_openai_server.bodies[0]["stream_options"] == {"include_usage": True}

    call = await model.generate(PROMPT, [calculator], stream_callback=on_delta)
    assert call.message == AIMessage(
        content="Let me check", tool_calls=[ToolCall(id="call_1", name="Calculator", args={"input": "6*7"})]
    )


async def test_responses_api_request_bodies(fake_openai_server: FakeOpenAIServer, calculator: ToolDefinition) -> None:
    model = model_for(fake_openai_server, api="responses")
    await run_tool_round(fake_openai_server, model, calculator)

    first, second = fake_openai_server.requests
    assert first.path == "/v1/responses"
    assert first.body == {
        "model": "gpt-4o-mini",
        "stream": False,
        "input": [
            {"type": "message", "role": "system", "content": "You are a helpful assistant."},
            {"type": "message", "role": "user", "content": "What is 12345 * 6789? Use the calculator tool."},
        ],
        "tools": [{"type": "function", **TOOL_JSON["function"]}],
    }
    assert second.body["input"][2:] == [
        {"type": "function_call", "call_id": "call_1", "name": "Calculator", "arguments": '{"input":"12345 * 6789"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": '[{"response":"83810205"}]'},
    ]


async def test_responses_api_streaming(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns("streamed over responses")
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    response = await model_for(fake_openai_server, api="responses").generate(PROMPT, [], stream_callback=on_delta)
    assert "".join(deltas) == "streamed over responses" and len(deltas) == 3
    assert response.message.content == "streamed over responses"
    assert response.usage.input_tokens > 0


@pytest.mark.parametrize(
    ("turn", "error_type", "message_start", "http_code"),
    [
        ({"error": 401}, ChatModelAuthError, "Authorization failed - please check your credentials", 401),
        ({"error": 429}, ChatModelRateLimitError, "OpenAI: Rate limit reached", 429),
        ({"error": 429, "code": "insufficient_quota"}, ChatModelQuotaError, "Insufficient quota detected", 429),
        ({"error": 400, "message": "max_tokens is too large"}, ChatModelBadRequestError, "Bad request", 400),
        ({"error": 404}, ChatModelBadRequestError, "The resource you are requesting could not be found", 404),
        ({"error": 500}, ChatModelServerError, "The service was not able to process your request", 500),
    ],
)
async def test_http_errors_become_typed_node_errors(
    fake_openai_server: FakeOpenAIServer,
    turn: dict[str, Any],
    error_type: type[ChatModelError],
    message_start: str,
    http_code: int,
) -> None:
    fake_openai_server.add_turns(turn)
    with pytest.raises(error_type) as caught:
        await model_for(fake_openai_server).generate(PROMPT, [])
    error = caught.value
    assert error.message.startswith(message_start)
    assert error.http_code == http_code
    assert error.to_json()["name"] == "NodeApiError"
    assert f"HTTP {http_code}" in (error.description or "")


async def test_auth_error_names_the_credential(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns({"error": 401, "message": "Incorrect API key provided: sk-test."})
    with pytest.raises(ChatModelAuthError, match="'openAiApi' credential") as caught:
        await model_for(fake_openai_server).generate(PROMPT, [])
    assert caught.value.description == "OpenAI answered HTTP 401: Incorrect API key provided: sk-test."


async def test_timeout_becomes_a_timeout_error(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns({"delay": 5, "text": "too late"})
    with pytest.raises(ChatModelTimeoutError, match=r"did not answer within 0\.2 seconds.*Raise the 'Timeout'"):
        await model_for(fake_openai_server, timeout=0.2).generate(PROMPT, [])


async def test_unreachable_server_is_a_connection_error() -> None:
    model = OpenAIChatModel(
        OpenAISettings(model="m", base_url="http://127.0.0.1:9/v1", retry=RetryPolicy(max_retries=0), timeout=2)
    )
    with pytest.raises(
        ChatModelConnectionError, match=re.escape("Could not connect to OpenAI at 'http://127.0.0.1:9/v1'")
    ):
        await model.generate(PROMPT, [])


async def test_retryable_errors_are_retried_up_to_max_retries(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns({"error": 500}, {"error": 429}, "third time lucky")
    model = model_for(fake_openai_server, retry=RetryPolicy(max_retries=2, initial_delay=0))
    assert (await model.generate(PROMPT, [])).message.content == "third time lucky"
    assert len(fake_openai_server.requests) == 3


async def test_non_retryable_errors_and_exhausted_retries_fail(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns({"error": 401}, {"error": 500}, {"error": 500}, "unused")
    model = model_for(fake_openai_server, retry=RetryPolicy(max_retries=1, initial_delay=0))
    with pytest.raises(ChatModelAuthError):
        await model.generate(PROMPT, [])
    assert len(fake_openai_server.requests) == 1
    with pytest.raises(ChatModelServerError):
        await model.generate(PROMPT, [])
    assert len(fake_openai_server.requests) == 3


async def test_malformed_tool_arguments_are_a_response_error(fake_openai_server: FakeOpenAIServer) -> None:
    fake_openai_server.add_turns({"tool": "Calculator", "args": {"input": "1"}})
    model = model_for(fake_openai_server)
    from weft.ai.models import _openai_wire

    with pytest.raises(ChatModelError, match="not JSON"):
        _openai_wire.parse_arguments("{oops", "Calculator")
    assert (await model.generate(PROMPT, [])).message.tool_calls[0].args == {"input": "1"}


# --------------------------------------------------------------------------- the lmChatOpenAi / lmChatOllama nodes


async def test_openai_node_1_3_uses_the_responses_api_and_the_credential_url(
    fake_openai_server: FakeOpenAIServer, calculator: ToolDefinition, make_ctx: Any
) -> None:
    from weft.ai.nodes.lm_chat_openai import LmChatOpenAi

    fake_openai_server.add_turns("hello")
    ctx = make_ctx(
        "@n8n/n8n-nodes-langchain.lmChatOpenAi",
        {"model": {"__rl": True, "value": "gpt-4o-mini", "mode": "list"}, "options": {"temperature": 0.1}},
        version=1.3,
        credentials={"openAiApi": {"apiKey": "sk-node", "url": fake_openai_server.base_url}},
    )
    model = await LmChatOpenAi().supply_data(ctx, 0)  # type: ignore[arg-type]
    await model.generate(PROMPT, [calculator])
    request = fake_openai_server.requests[0]
    assert request.path == "/v1/responses"
    assert request.body["model"] == "gpt-4o-mini" and request.body["temperature"] == 0.1
    assert request.headers["authorization"] == "Bearer sk-node"


async def test_openai_node_chat_completions_and_traced_runs(
    fake_openai_server: FakeOpenAIServer, make_ctx: Any
) -> None:
    from weft.ai.nodes.lm_chat_openai import LmChatOpenAi

    fake_openai_server.add_turns({"text": "hi there", "usage": [30, 2]}, {"error": 401})
    ctx = make_ctx(
        "@n8n/n8n-nodes-langchain.lmChatOpenAi",
        {"model": {"__rl": True, "value": "gpt-4o-mini"}, "responsesApiEnabled": False, "options": {"maxRetries": 0}},
        version=1.3,
        credentials={"openAiApi": {"apiKey": "k", "url": "http://unused.invalid/v1"}},
    )
    ctx.node.parameters["options"]["baseURL"] = fake_openai_server.base_url  # the node option wins over the credential
    model = await LmChatOpenAi().supply_data(ctx, 0)  # type: ignore[arg-type]
    await model.generate(PROMPT, [])
    assert fake_openai_server.requests[0].path == "/v1/chat/completions"
    run = ctx.runs[0]
    assert run["connection"] == "ai_languageModel"
    assert run["input"][0][0]["json"]["messages"] == [
        "System: You are a helpful assistant.\nHuman: What is 12345 * 6789? Use the calculator tool."
    ]
    assert run["input"][0][0]["json"]["options"]["model"] == "gpt-4o-mini"
    assert run["output"] == [
        [
            {
                "json": {
                    "response": {"generations": [[{"text": "hi there", "generationInfo": {"finish_reason": "stop"}}]]},
                    "tokenUsage": {"completionTokens": 2, "promptTokens": 30, "totalTokens": 32},
                }
            }
        ]
    ]
    with pytest.raises(ChatModelAuthError) as caught:
        await model.generate(PROMPT, [])
    assert caught.value.node_name == "Chat Model"
    assert ctx.runs[1]["output"] is caught.value


async def test_openai_node_v1_takes_a_plain_model_string(fake_openai_server: FakeOpenAIServer, make_ctx: Any) -> None:
    from weft.ai.nodes.lm_chat_openai import LmChatOpenAi

    ctx = make_ctx(
        "@n8n/n8n-nodes-langchain.lmChatOpenAi",
        {"model": "gpt-3.5-turbo", "options": {"maxTokens": -1, "timeout": 5000}},
        credentials={"openAiApi": {"apiKey": "k", "header": True, "headerName": "X-Org", "headerValue": "acme"}},
    )
    settings = await LmChatOpenAi().settings(ctx, 0)  # type: ignore[arg-type]
    assert (settings.model, settings.api, settings.max_tokens, settings.timeout) == (
        "gpt-3.5-turbo",
        "chat_completions",
        None,
        5.0,
    )
    assert settings.base_url == "https://api.openai.com/v1" and settings.headers == {"X-Org": "acme"}
    assert settings.retry.max_retries == 2


async def test_ollama_node_talks_to_the_v1_endpoint(fake_openai_server: FakeOpenAIServer, make_ctx: Any) -> None:
    from weft.ai.nodes.lm_chat_ollama import LmChatOllama

    fake_openai_server.add_turns("from llama", {"error": 404, "message": "model 'nope' not found"})
    ctx = make_ctx(
        "@n8n/n8n-nodes-langchain.lmChatOllama",
        {"model": "llama3.2", "options": {"temperature": 0.3, "numPredict": 64}},
        credentials={"ollamaApi": {"baseUrl": fake_openai_server.root_url}},
    )
    model = await LmChatOllama().supply_data(ctx, 0)  # type: ignore[arg-type]
    assert (await model.generate(PROMPT, [])).message.content == "from llama"
    body = fake_openai_server.bodies[0]
    assert (body["model"], body["temperature"], body["max_tokens"]) == ("llama3.2", 0.3, 64)
    with pytest.raises(ChatModelBadRequestError, match="could not be found") as caught:
        await model.generate(PROMPT, [])
    assert "Ollama answered HTTP 404: model 'nope' not found" in (caught.value.description or "")


async def test_no_retry_once_text_has_streamed() -> None:
    from weft.ai.models.base import with_retries

    attempts = 0

    async def flaky() -> str:
        nonlocal attempts
        attempts += 1
        raise ChatModelServerError("boom", provider="OpenAI")

    with pytest.raises(ChatModelServerError):
        await with_retries(flaky, RetryPolicy(max_retries=3, initial_delay=0), can_retry=lambda: False)
    assert attempts == 1


def test_fake_server_listens_on_loopback_only() -> None:
    with FakeOpenAIServer(["hi"]) as server:
        assert server.base_url.startswith("http://127.0.0.1:")
