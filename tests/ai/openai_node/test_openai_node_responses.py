"""The OpenAI node at typeVersion 2 (the Responses API) and Analyze Image, run in workflows against the scripted
fake server on 127.0.0.1. n8n's oracle model serves no ``/responses``, so these follow n8n's source
(``vendors/OpenAi/v2/actions/text/response.operation.ts`` and ``helpers/responses.ts``), not a recording."""

from __future__ import annotations

from typing import Any

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing import OracleOpenAIServer
from weft.testing._fake_http import FakeServerBase, Reply
from weft.testing.workflows import connect, node, output_json, workflow

LC = "@n8n/n8n-nodes-langchain."
MODEL = {"__rl": True, "value": "gpt-4.1-mini", "mode": "list"}
PNG = "iVBORw0KGgo="


def openai(parameters: dict[str, Any], version: float = 2.1, **settings: Any) -> dict[str, Any]:
    return node("OpenAI", LC + "openAi", {"modelId": MODEL, **parameters}, version=version, **settings)


async def run(server: OracleOpenAIServer, *parts: Any, items: list[dict[str, Any]] | None = None) -> Any:
    wf = workflow(node("Start", "n8n-nodes-base.manualTrigger"), *parts, connect("Start", "OpenAI"))
    wf["pinData"] = {"Start": items or [{"json": {}}]}
    services = LocalServices(credentials={"openAiApi": {"apiKey": "sk-test", "url": server.base_url}})
    return await run_workflow(wf, services=services)


async def test_message_a_model_sends_n8ns_responses_body_and_simplifies() -> None:
    messages = {"values": [{"content": "Be brief.", "role": "system"}, {"content": "Say hi"}]}
    with OracleOpenAIServer([{"content": "Hi."}], responses=True) as server:
        result = await run(server, openai({"responses": messages, "options": {"temperature": 0.3, "maxTokens": 20}}))
        (entry,) = server.log
    assert entry["path"].endswith("/v1/responses")
    assert entry["request"] == {
        "model": "gpt-4.1-mini",
        "input": [
            {"role": "system", "content": [{"type": "input_text", "text": "Be brief."}]},
            {"role": "user", "content": [{"type": "input_text", "text": "Say hi"}]},
        ],
        "parallel_tool_calls": True,
        "store": True,
        "max_output_tokens": 20,
        "temperature": 0.3,
        "background": False,
    }
    (item,) = output_json(result, "OpenAI")
    (message,) = item["output"]
    assert message["type"] == "message" and message["role"] == "assistant"
    assert message["content"][0]["type"] == "output_text" and message["content"][0]["text"] == "Hi."


async def test_without_simplify_the_whole_response_is_the_item() -> None:
    with OracleOpenAIServer([{"content": "Raw."}], responses=True) as server:
        result = await run(server, openai({"responses": {"values": [{"content": "x"}]}, "simplify": False}))
    (item,) = output_json(result, "OpenAI")
    assert item["object"] == "response" and item["usage"]["total_tokens"] == 15
    assert item["output"][0]["content"][0]["text"] == "Raw."


async def test_json_object_output_adds_n8ns_system_message_and_parses_the_text() -> None:
    text_format = {"textOptions": {"type": "json_object"}}
    with OracleOpenAIServer([{"content": '{"city": "Oslo"}'}], responses=True) as server:
        parameters = {"responses": {"values": [{"content": "A city"}]}, "options": {"textFormat": text_format}}
        result = await run(server, openai(parameters))
        request = server.log[0]["request"]
    assert request["text"] == {"format": {"type": "json_object"}}
    assert request["input"][0] == {
        "role": "system",
        "content": [{"type": "input_text", "text": "You are a helpful assistant designed to output JSON."}],
    }
    assert output_json(result, "OpenAI")[0]["output"][0]["content"][0]["text"] == {"city": "Oslo"}


async def test_a_binary_image_message_is_a_base64_data_url() -> None:
    image = {"type": "image", "imageType": "base64", "binaryPropertyName": "photo", "imageDetail": "low"}
    items = [{"json": {}, "binary": {"photo": {"data": PNG, "mimeType": "image/png", "fileName": "a.png"}}}]
    with OracleOpenAIServer([{"content": "A picture."}], responses=True) as server:
        await run(server, openai({"responses": {"values": [{"content": "What is it?"}, image]}}), items=items)
        request = server.log[0]["request"]
    assert request["input"][1] == {
        "role": "user",
        "content": [{"type": "input_image", "detail": "low", "image_url": f"data:image/png;base64,{PNG}"}],
    }


async def test_a_connected_tool_is_called_and_its_output_sent_back() -> None:
    script: list[dict[str, Any]] = [
        {"tool_calls": [{"name": "Calculator", "arguments": {"input": "6*7"}}]},
        {"content": "{last_tool}"},
    ]
    with OracleOpenAIServer(script, responses=True) as server:
        result = await run(
            server,
            openai({"responses": {"values": [{"content": "6*7?"}]}}),
            node("Calculator", LC + "toolCalculator"),
            connect("Calculator", "OpenAI", type_="ai_tool"),
        )
        first, second = (entry["request"] for entry in server.log)
    (tool,) = first["tools"]
    assert tool["type"] == "function" and tool["name"] == "Calculator"
    assert [i.get("type") for i in second["input"][1:]] == ["function_call", "function_call_output"]
    assert second["input"][2] == {"type": "function_call_output", "call_id": "call_1_0", "output": "42"}
    assert output_json(result, "OpenAI")[0]["output"][0]["content"][0]["text"] == "42"


async def test_max_tool_iterations_stops_the_loop() -> None:
    script = [{"tool_calls": [{"name": "Calculator", "arguments": {"input": "1+1"}}]}]
    with OracleOpenAIServer(script, responses=True) as server:
        await run(
            server,
            openai({"responses": {"values": [{"content": "?"}]}, "options": {"maxToolsIterations": 2}}),
            node("Calculator", LC + "toolCalculator"),
            connect("Calculator", "OpenAI", type_="ai_tool"),
        )
        # the first answer, then one request per iteration up to the limit (n8n: iteration > max stops)
        assert len(server.log) == 3


async def test_a_missing_binary_fails_the_item_or_continues() -> None:
    image = {"type": "image", "imageType": "base64", "binaryPropertyName": "photo"}
    items = [{"json": {"n": 1}}, {"json": {"n": 2}}]
    with OracleOpenAIServer([{"content": "unused"}], responses=True) as server:
        parameters = {"responses": {"values": [{"content": "What is it?"}, image]}}
        result = await run(server, openai(parameters, onError="continueRegularOutput"), items=items)
        failed = await run(server, openai(parameters), items=items)
        assert server.log == []
    errors = [item["error"] for item in output_json(result, "OpenAI")]
    assert len(errors) == 2 and all("photo" in e for e in errors)
    assert failed["data"]["resultData"]["error"] is not None


async def test_analyze_image_v2_uses_the_responses_api() -> None:
    items = [{"json": {}, "binary": {"data": {"data": PNG, "mimeType": "image/png"}}}]
    with OracleOpenAIServer([{"content": "A dot."}], responses=True) as server:
        parameters = {"resource": "image", "operation": "analyze", "inputType": "base64", "simplify": False}
        result = await run(server, openai(parameters, version=2), items=items)
        request = server.log[0]["request"]
    assert request == {
        "model": "gpt-4.1-mini",
        "input": [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "What's in this image?"},
                    {"type": "input_image", "detail": "auto", "image_url": f"data:image/png;base64,{PNG}"},
                ],
            }
        ],
        "max_output_tokens": 300,
    }
    assert output_json(result, "OpenAI")[0]["output"][0]["content"][0]["text"] == "A dot."


async def test_version_1_8_without_messages_is_n8n_2_41s_empty_prompt_error() -> None:
    with OracleOpenAIServer([{"content": "x"}], responses=True) as server:
        result = await run(server, openai({"resource": "text", "operation": "message"}, version=1.8))
        assert server.log == []
    error = result["data"]["resultData"]["error"]
    assert error["message"] == "A non-empty prompt is required."


async def test_an_image_only_message_is_not_a_prompt() -> None:
    image = {"type": "image", "imageType": "url", "imageUrl": "https://example.com/a.png"}
    with OracleOpenAIServer([{"content": "x"}], responses=True) as server:
        parameters = {"responses": {"values": [image, {"content": "  "}]}}
        result = await run(server, openai(parameters, onError="continueRegularOutput"))
        assert server.log == []
    assert output_json(result, "OpenAI") == [{"error": "A non-empty prompt is required."}]


async def test_an_assistant_message_is_sent_as_output_text() -> None:
    messages = {"values": [{"content": "Hi"}, {"content": "Hello!", "role": "assistant"}, {"content": "Bye"}]}
    with OracleOpenAIServer([{"content": "Bye."}], responses=True) as server:
        await run(server, openai({"responses": messages}))
        request = server.log[0]["request"]
    assert request["input"][1] == {
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Hello!", "annotations": []}],
    }


class FailingServer(FakeServerBase):
    """Answers every request with one error status and body."""

    def __init__(self, status: int, error: dict[str, Any]) -> None:
        super().__init__()
        self.status, self.error = status, error

    def route(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        return Reply(status=self.status, body={"error": self.error})


async def failing_run(status: int, error: dict[str, Any], **settings: Any) -> Any:
    with FailingServer(status, error) as server:
        wf = workflow(
            node("Start", "n8n-nodes-base.manualTrigger"),
            openai({"responses": {"values": [{"content": "hi"}]}}, **settings),
            connect("Start", "OpenAI"),
        )
        services = LocalServices(credentials={"openAiApi": {"apiKey": "sk-bad", "url": server.root_url + "/v1"}})
        return await run_workflow(wf, services=services)


async def test_a_rejected_key_is_n8ns_api_error() -> None:
    result = await failing_run(401, {"message": "Incorrect API key provided", "code": "invalid_api_key"})
    error = result["data"]["resultData"]["error"]
    assert error["message"] == "Authorization failed - please check your credentials"
    assert error["description"] == "Incorrect API key provided"


async def test_insufficient_quota_gets_n8ns_own_message() -> None:
    result = await failing_run(429, {"message": "You exceeded your quota", "code": "insufficient_quota"})
    assert result["data"]["resultData"]["error"]["message"].startswith("Insufficient quota detected.")


async def test_continue_on_fail_outputs_the_error_message() -> None:
    result = await failing_run(500, {"message": "boom"}, onError="continueRegularOutput")
    assert output_json(result, "OpenAI") == [{"error": "The service was not able to process your request"}]
