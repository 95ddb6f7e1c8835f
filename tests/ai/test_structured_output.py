"""The Structured Output Parser validates the agent's answer against the full JSON Schema (the ``jsonschema``
library) and shapes it as n8n's zod parse does; a bad answer fails the agent with n8n's error and reason."""

from __future__ import annotations

import json
from typing import Any

import pytest

from weft.ai.agent_catalog import agent_registry
from weft.engine.loop import Execution
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Workflow, parse_workflow

LC = "@n8n/n8n-nodes-langchain."
SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "kind": {"type": "string", "enum": ["city", "town"]},
        "founded": {"type": "string", "format": "date"},
        "contact": {"type": "string", "format": "email"},
        "coords": {
            "type": "object",
            "properties": {"lat": {"type": "number", "minimum": -90, "maximum": 90}},
            "required": ["lat"],
        },
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        "strict": {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False},
        "size": {"type": "string", "default": "big"},
    },
    "required": ["name", "kind"],
}


async def _answer(output: Any, *, memory: bool = False, as_text: bool = False) -> dict[str, Any]:
    turn: Any = (
        json.dumps({"output": output})
        if as_text
        else {"toolCalls": [{"name": "format_final_json_response", "args": {"output": output}}]}
    )
    nodes = [
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "go", "hasOutputParser": True}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": [turn]}),
        node(
            "Parser",
            LC + "outputParserStructured",
            {"schemaType": "manual", "inputSchema": json.dumps(SCHEMA)},
            version=1.3,
        ),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Parser", "AI Agent", type_="ai_outputParser"),
    ]
    if memory:
        nodes += [
            node("Memory", LC + "memoryBufferWindow", {"sessionIdType": "customKey", "sessionKey": "s"}, version=1.3),
            connect("Memory", "AI Agent", type_="ai_memory"),
        ]
    run: dict[str, Any] = await Execution(Workflow(parse_workflow(workflow(*nodes))), registry=agent_registry()).run()
    return run


def _output(run: dict[str, Any]) -> Any:
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    return run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0][0]["json"]


async def test_a_valid_answer_is_shaped_as_zod_parses_it() -> None:
    answer = {
        "name": "San Francisco",
        "kind": "city",
        "founded": "1776-06-29",
        "contact": "mayor@sf.example",
        "coords": {"lat": 37.7, "extra": "dropped: the object names its keys"},
        "tags": ["bay"],
        "unnamed": "dropped too",
    }
    output = _output(await _answer(answer))
    assert output == {
        "output": {
            "name": "San Francisco",
            "kind": "city",
            "founded": "1776-06-29",
            "contact": "mayor@sf.example",
            "coords": {"lat": 37.7},
            "tags": ["bay"],
            "size": "big",
        }
    }


@pytest.mark.parametrize(
    "answer",
    [
        {"name": "SF", "kind": "village"},  # enum
        {"name": "SF", "kind": "city", "founded": "June 1776"},  # format date
        {"name": "SF", "kind": "city", "contact": "nobody"},  # format email
        {"name": "SF", "kind": "city", "coords": {"lat": 120}},  # maximum, nested
        {"name": "SF", "kind": "city", "coords": {}},  # nested required
        {"name": "SF", "kind": "city", "tags": ["a", "b", "c"]},  # maxItems
        {"name": "SF", "kind": "city", "strict": {"a": 1, "b": 2}},  # additionalProperties false
        {"name": "SF", "kind": "city", "strict": {"a": 1.5}},  # integer
        {"kind": "city"},  # required
    ],
    ids=["enum", "date", "email", "maximum", "nested-required", "max-items", "additional", "integer", "required"],
)
async def test_an_answer_that_breaks_the_schema_fails_with_n8n_error(answer: dict[str, Any]) -> None:
    run = await _answer(answer)
    assert run["status"] == "error"
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Model output doesn't fit required format"
    assert error["context"]["outputParserFailReason"] == "Model output does not match the expected schema"
    [parser_run] = run["data"]["resultData"]["runData"]["Parser"]
    assert parser_run["executionStatus"] == "error"
    assert json.loads(parser_run["inputOverride"]["ai_outputParser"][0][0]["json"]["text"]) == {"output": answer}


async def test_a_text_answer_is_parsed_and_memory_keeps_it_as_json() -> None:
    run = await _answer({"name": "SF", "kind": "town"}, memory=True, as_text=True)
    assert _output(run) == {"output": {"name": "SF", "kind": "town", "size": "big"}}


async def test_text_that_is_not_json_fails_with_its_reason() -> None:
    nodes = [
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "go", "hasOutputParser": True}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": ["San Francisco is a city."]}),
        node("Parser", LC + "outputParserStructured", {"jsonSchemaExample": '{"a": 1}'}, version=1.3),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Parser", "AI Agent", type_="ai_outputParser"),
    ]
    run = await Execution(Workflow(parse_workflow(workflow(*nodes))), registry=agent_registry()).run()
    assert run["data"]["resultData"]["error"]["context"]["outputParserFailReason"] == "Invalid JSON in model output"


async def test_a_schema_that_is_not_json_schema_is_refused_naming_the_node() -> None:
    nodes = [
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "go", "hasOutputParser": True}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": ["{}"]}),
        node(
            "Parser", LC + "outputParserStructured", {"schemaType": "manual", "inputSchema": '{"type": 5}'}, version=1.3
        ),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Parser", "AI Agent", type_="ai_outputParser"),
    ]
    run = await Execution(Workflow(parse_workflow(workflow(*nodes))), registry=agent_registry()).run()
    assert run["data"]["resultData"]["error"]["message"] == "Error in sub-node Parser"  # as n8n words it
    [parser_run] = run["data"]["resultData"]["runData"]["Parser"]
    error = parser_run["error"]
    assert error["message"] == "Error during parsing of JSON Schema. Please check the schema and try again."
    assert "is not valid under any of the given schemas" in error["description"]


async def test_beyond_n8n_the_agent_asks_its_model_again_with_the_validation_error() -> None:
    bad = {"toolCalls": [{"name": "format_final_json_response", "args": {"output": {"name": "SF", "kind": "village"}}}]}
    good = {"toolCalls": [{"name": "format_final_json_response", "args": {"output": {"name": "SF", "kind": "city"}}}]}
    nodes = [
        node("Start", "n8n-nodes-base.manualTrigger"),
        node(
            "AI Agent",
            LC + "agent",
            {"promptType": "define", "text": "go", "hasOutputParser": True, "options": {"outputParserRetries": 2}},
            version=3.1,
        ),
        node("Model", "weft.lmChatScripted", {"turns": [bad, good]}),
        node(
            "Parser",
            LC + "outputParserStructured",
            {"schemaType": "manual", "inputSchema": json.dumps(SCHEMA)},
            version=1.3,
        ),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Parser", "AI Agent", type_="ai_outputParser"),
    ]
    run = await Execution(Workflow(parse_workflow(workflow(*nodes))), registry=agent_registry()).run()
    assert _output(run) == {"output": {"name": "SF", "kind": "city", "size": "big"}}
    run_data = run["data"]["resultData"]["runData"]
    assert [r["executionStatus"] for r in run_data["Parser"]] == ["error", "success"]  # each attempt is a run
    second_prompt = run_data["Model"][1]["inputOverride"]["ai_languageModel"][0][0]["json"]["messages"]
    assert any("'village' is not one of ['city', 'town']" in m and "output/kind" in m for m in second_prompt)


async def test_without_the_option_a_bad_answer_fails_at_once() -> None:
    run = await _answer({"name": "SF", "kind": "village"})
    assert run["status"] == "error"
    assert len(run["data"]["resultData"]["runData"]["Model"]) == 1
