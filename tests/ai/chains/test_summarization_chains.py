"""LangChain's summarization chains as the Summarization Chain runs them: which prompts reach the model, in what
order, and what the chain answers."""

from __future__ import annotations

import asyncio

import pytest

from weft.ai.messages import Message
from weft.ai.models.scripted import FunctionChatModel
from weft.ai.nodes.chains._summary_chains import (
    DEFAULT_PROMPT,
    MAX_TOKENS,
    SummaryChain,
    SummaryChainError,
    count_tokens,
)
from weft.ai.retrieval.documents import Document


def _docs(*texts: str) -> list[Document]:
    return [Document(page_content=t) for t in texts]


def _prompts(model: FunctionChatModel) -> list[str]:
    return [str(call[-1].content) for call in model.calls]


def _echo(prefix: str = "") -> FunctionChatModel:
    def reply(messages: list[Message], _tools: object) -> str:
        return prefix + str(messages[-1].content)[:12]

    return FunctionChatModel(reply)


async def test_stuff_joins_the_documents_with_blank_lines_into_one_user_message() -> None:
    model = FunctionChatModel(lambda _m, _t: "short")
    result = await SummaryChain.of("stuff", {}).run(model, _docs("one", "two"))
    assert result == {"text": "short"}
    assert _prompts(model) == [DEFAULT_PROMPT.replace("{text}", "one\n\ntwo")]
    assert [type(m).__name__ for m in model.calls[0]] == ["HumanMessage"]


async def test_map_reduce_under_the_token_limit_skips_the_map_step() -> None:
    model = FunctionChatModel(lambda _m, _t: "all")
    chain = SummaryChain.of("map_reduce", {"combineMapPrompt": "MAP {text}", "prompt": "COMBINE {text}"})
    assert await chain.run(model, _docs("a", "b")) == {"text": "all"}
    assert _prompts(model) == ["COMBINE a\n\nb"]


async def test_map_reduce_over_the_limit_maps_every_text_at_once_then_combines() -> None:
    started: list[str] = []
    release = asyncio.Event()

    async def reply(messages: list[Message], _tools: object) -> str:
        text = str(messages[-1].content)
        if text.startswith("MAP"):
            started.append(text[4:5])
            if len(started) == 3:
                release.set()
            await release.wait()  # all three map calls are in flight together
            return f"sum-{text[4:5]}"
        return "final"

    model = FunctionChatModel(reply)
    big = "x" * (MAX_TOKENS * 4 // 3)
    chain = SummaryChain.of("map_reduce", {"combineMapPrompt": "MAP {text}", "prompt": "COMBINE {text}"})
    result = await chain.run(model, _docs("A" + big, "B" + big, "C" + big))
    assert result == {"text": "final"}
    assert sorted(started) == ["A", "B", "C"]
    assert _prompts(model)[-1] == "COMBINE sum-A\n\nsum-B\n\nsum-C"


async def test_refine_runs_the_initial_prompt_then_each_refine_in_order() -> None:
    model = FunctionChatModel(lambda messages, _t: f"v{len(model.calls)}")
    chain = SummaryChain.of("refine", {"refinePrompt": "{existing_answer}+{text}", "refineQuestionPrompt": "Q {text}"})
    assert await chain.run(model, _docs("a", "b", "c")) == {"output_text": "v3"}
    assert _prompts(model) == ["Q a", "v1+b", "v2+c"]


async def test_refine_without_documents_fails_as_langchain_does() -> None:
    with pytest.raises(SummaryChainError, match="reading 'pageContent'"):
        await SummaryChain.of("refine", {}).run(_echo(), [])


def test_empty_prompts_fall_back_to_the_defaults_and_other_methods_prompts_are_ignored() -> None:
    chain = SummaryChain.of("stuff", {"prompt": "", "refinePrompt": "{nope}"})
    assert chain.prompt == DEFAULT_PROMPT


@pytest.mark.parametrize(
    ("method", "options", "message"),
    [
        (
            "stuff",
            {"prompt": "About {topic}: {text}"},
            "Invalid prompt schema: (f-string) Missing value for input topic",
        ),
        ("refine", {"refinePrompt": "{existing_answer} {other}"}, "Missing value for input other"),
        ("summarize", {}, "Invalid _type: summarize"),
    ],
)
def test_a_bad_method_or_prompt_is_refused_before_any_call(method: str, options: dict, message: str) -> None:
    with pytest.raises(SummaryChainError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SummaryChain.of(method, options)


def test_tokens_are_a_quarter_of_the_javascript_length_rounded_up() -> None:
    assert count_tokens("") == 0
    assert count_tokens("abcde") == 2
    assert count_tokens("\U0001f600\U0001f600") == 1  # two UTF-16 units each
