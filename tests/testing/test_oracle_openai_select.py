"""The scripted model's ``select`` turns: a turn chosen by the request's content, so concurrent requests get the
same answers in any order."""

from __future__ import annotations

import httpx
import pytest

from weft.testing import OracleOpenAIServer

SCRIPT = [
    {
        "select": [
            [{"user_contains": "refund"}, {"content": "billing ({last_user})"}],
            [{"system_contains": "strict", "has_tool": True}, {"content": "strict tool"}],
            [{"any_contains": "crash", "n_tools": 1}, {"select": [[{"has_tool": False}, {"content": "nested"}]]}],
        ],
        "default": {"content": "other"},
    }
]


def _answer(server: OracleOpenAIServer, messages: list[dict], tools: list[dict] | None = None) -> str:
    body = {"model": "m", "messages": messages, "tools": tools or []}
    reply = httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=5).json()
    return str(reply["choices"][0]["message"]["content"])


def test_the_first_entry_whose_conditions_all_hold_answers_in_any_order() -> None:
    tool = [{"type": "function", "function": {"name": "t", "parameters": {}}}]
    with OracleOpenAIServer(SCRIPT) as server:
        answers = [
            _answer(server, [{"role": "user", "content": "the app crashed"}], tool),
            _answer(server, [{"role": "system", "content": "be strict"}, {"role": "tool", "content": "x"}]),
            _answer(server, [{"role": "user", "content": "a refund please"}]),
            _answer(server, [{"role": "system", "content": "be strict"}, {"role": "user", "content": "hi"}]),
        ]
    assert answers == ["nested", "strict tool", "billing (a refund please)", "other"]


def test_an_unknown_condition_is_named_in_the_answer() -> None:
    script = [{"select": [[{"user_has": "x"}, {"content": "never"}]]}]
    with OracleOpenAIServer(script) as server:
        answer = _answer(server, [{"role": "user", "content": "x"}])
    assert answer.startswith("FAKE_LLM: unknown select condition 'user_has'; use one of user_contains")


@pytest.mark.parametrize("content", [None, [{"type": "text", "text": "refund "}, {"type": "image_url"}]])
def test_message_parts_are_read_as_their_text(content: object) -> None:
    with OracleOpenAIServer(SCRIPT) as server:
        answer = _answer(server, [{"role": "user", "content": content}])
    assert answer == ("other" if content is None else "billing (refund )")
