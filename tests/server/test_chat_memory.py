"""Simple Memory kept in the database: two chat turns of one session through the real server, sessions kept apart,
and the memory still there after the server restarts on the same database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from weft.ai.messages import AIMessage, HumanMessage, messages_from_json
from weft.settings import Settings

from .conftest import TIMEOUT, LiveServer, app_of, free_port, serve_in_thread
from .test_chat import activate, chat_workflow, last_execution, message

#: Turn n answers a conversation that already holds n assistant messages: turn 2 needs turn 1 from memory.
TURNS = ["Nice to meet you, Ada.", "Your name is Ada."]


def model_prompt(execution: dict[str, Any]) -> str:
    model = execution["data"]["resultData"]["runData"]["Model"][0]
    return str(model["inputOverride"]["ai_languageModel"][0][0]["json"]["messages"])


def test_two_turns_of_one_session_share_memory_in_the_database(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(TURNS)
    activate(live, data)
    url = f"/webhook/{webhook_id}/chat"
    assert live.client.post(url, json=message("My name is Ada", "s-ada")).json() == {"output": TURNS[0]}
    assert live.client.post(url, json=message("What is my name?", "s-ada")).json() == {"output": TURNS[1]}
    prompt = model_prompt(last_execution(live, data["id"]))
    assert "My name is Ada" in prompt and TURNS[0] in prompt
    rows = live.instance.store.memory.load(f"{data['id']}__s-ada")
    assert messages_from_json(rows) == [
        HumanMessage(content="My name is Ada"),
        AIMessage(content=TURNS[0]),
        HumanMessage(content="What is my name?"),
        AIMessage(content=TURNS[1]),
    ]


def test_another_session_does_not_see_the_messages(live: LiveServer) -> None:
    data, webhook_id = chat_workflow(TURNS)
    activate(live, data)
    url = f"/webhook/{webhook_id}/chat"
    assert live.client.post(url, json=message("My name is Ada", "s-one")).json() == {"output": TURNS[0]}
    assert live.client.post(url, json=message("What is my name?", "s-two")).json() == {"output": TURNS[0]}
    assert "My name is Ada" not in model_prompt(last_execution(live, data["id"]))
    assert len(live.instance.store.memory.load(f"{data['id']}__s-two")) == 2


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    return Settings(
        user_folder=tmp_path,
        database_url=f"sqlite:///{tmp_path / 'database.sqlite'}",
        encryption_key="test-key",
        port=port,
        public_url=url + "/",
    )


@pytest.fixture
def served() -> Iterator[list[Any]]:
    """Servers started by the test (stopped at the end)."""
    servers: list[Any] = []
    yield servers
    while servers:
        _stop(servers)


def _start(settings: Settings, served: list[Any]) -> Any:
    served.append(serve_in_thread(settings, settings.port))
    return served[-1][0]


def _stop(served: list[Any]) -> None:
    server, thread = served.pop()
    server.should_exit = True
    thread.join(TIMEOUT)
    assert not thread.is_alive()


def _say(settings: Settings, url: str, text: str) -> Any:
    with httpx.Client(base_url=f"http://127.0.0.1:{settings.port}", timeout=TIMEOUT) as client:
        return client.post(url, json=message(text, "s-restart")).json()


def test_memory_survives_a_restart(settings: Settings, served: list[Any]) -> None:
    data, webhook_id = chat_workflow(TURNS)
    url = f"/webhook/{webhook_id}/chat"
    server = _start(settings, served)
    app_of(server).state.instance.store.workflows.import_workflow(data, activate=True)
    assert _say(settings, url, "My name is Ada") == {"output": TURNS[0]}
    _stop(served)
    _start(settings, served)  # a new app: a new Instance on the same database
    assert _say(settings, url, "What is my name?") == {"output": TURNS[1]}
