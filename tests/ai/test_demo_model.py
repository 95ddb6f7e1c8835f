"""DemoChatModel: calls the tools sharing words with the prompt, then reports what they returned."""

from __future__ import annotations

from typing import Any

from weft.ai.messages import AIMessage, HumanMessage, Message, SystemMessage, ToolCall, ToolDefinition, ToolMessage
from weft.ai.models.demo import arguments_for, matching_tools, words
from weft.testing import DemoChatModel

WEATHER = ToolDefinition(
    name="getWeather",
    description="Current weather for a city",
    parameters={"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}},
)
CALCULATOR = ToolDefinition(
    name="Calculator",
    description="Useful for getting the result of a math expression.",
    parameters={"type": "object", "properties": {"input": {"type": "string"}}},
)


def test_words_split_names_and_ignore_short_and_filler_words() -> None:
    assert words("getWeather") == {"weather"}
    assert words("Useful for getting the result of a math expression.") == {"result", "math", "expression"}
    assert words("What's the WEATHER in Oslo for 3 days?") == {"weather", "oslo", "day"}


def test_matching_tools_and_arguments_from_the_schema() -> None:
    prompt = "Weather in Oslo for 3 days"
    assert matching_tools(prompt, [CALCULATOR, WEATHER]) == [WEATHER]
    assert matching_tools("Please do some math", [CALCULATOR, WEATHER]) == [CALCULATOR]
    assert arguments_for(WEATHER.parameters, prompt) == {"city": prompt, "days": 3}
    schema = {
        "type": "object",
        "properties": {"on": {"type": "boolean"}, "tags": {"type": "array"}, "mode": {"enum": ["a", "b"]}},
    }
    assert arguments_for(schema, "x") == {"on": True, "tags": ["x"], "mode": "a"}


async def test_first_turn_calls_matching_tools_then_reports_results() -> None:
    model = DemoChatModel()
    prompt: list[Message] = [
        SystemMessage(content="You are a helpful assistant"),
        HumanMessage(content="Weather and math, please: 2"),
    ]
    first = await model.generate(prompt, [CALCULATOR, WEATHER])
    assert first.message == AIMessage(
        tool_calls=[
            ToolCall(id="call_1", name="Calculator", args={"input": "Weather and math, please: 2"}),
            ToolCall(id="call_2", name="getWeather", args={"city": "Weather and math, please: 2", "days": 2}),
        ]
    )
    results = [
        ToolMessage(tool_call_id="call_1", name="Calculator", content="2"),
        ToolMessage(tool_call_id="call_2", name="", content='{"temp": 21}'),
    ]
    final = await model.generate([*prompt, first.message, *results], [CALCULATOR, WEATHER])
    assert final.message.content == 'Based on the tools: Calculator returned 2; getWeather returned {"temp": 21}.'


async def test_without_matching_tools_it_echoes() -> None:
    response = await DemoChatModel().generate([HumanMessage(content="Hello there")], [CALCULATOR])
    assert response.message == AIMessage(content="You said: Hello there")


async def test_demo_node_supplies_a_traced_demo_model(make_ctx: Any) -> None:
    from weft.ai.nodes.lm_chat_demo import LmChatDemo

    ctx = make_ctx("weft.lmChatDemo", {})
    model = await LmChatDemo().supply_data(ctx, 0)
    assert (await model.generate([HumanMessage(content="hi")], [])).message.content == "You said: hi"
    assert ctx.runs[0]["input"][0][0]["json"]["options"] == {"model": "weft-demo"}


def test_catalog_lists_every_model_node() -> None:
    import importlib

    from weft.ai.nodes import CATALOG

    for type_name, target in CATALOG.items():
        module, _, attr = target.partition(":")
        node_type = getattr(importlib.import_module(module), attr)
        assert node_type.description.name == type_name
        if "lmChat" in type_name:  # the chat models (the catalog also lists the chain and retrieval nodes)
            assert node_type.description.outputs == ("ai_languageModel",) and node_type.description.inputs == ()
