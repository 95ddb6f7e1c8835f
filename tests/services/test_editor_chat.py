"""The editor chat's choice of trigger and the memory keys of a session (:mod:`weft.services.editor_chat`)."""

from __future__ import annotations

from typing import Any

from weft.nodes.registry import default_registry
from weft.services.editor_chat import editor_chat_target, memory_keys
from weft.services.prepared import PreparedWorkflow, prepare
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."


def _prepared(*parts: Any) -> PreparedWorkflow:
    data = workflow(*parts)
    data["id"] = "wf1"
    return prepare(data, default_registry())


def test_the_chat_trigger_answers_without_its_own_authentication() -> None:
    trigger = node("Chat", LC + "chatTrigger", {"authentication": "basicAuth", "options": {}}, version=1.4)
    prepared = _prepared({**trigger, "webhookId": "w1"}, node("Other"), connect("Chat", "Other"))
    target = editor_chat_target(prepared)
    assert target is not None and target.node == "Chat"
    assert target.options.authentication == "none"  # the editor is behind the login
    assert editor_chat_target(prepared, "Other") is None


def test_a_manual_chat_trigger_answers_with_the_last_node() -> None:
    prepared = _prepared(node("Manual chat", LC + "manualChatTrigger", version=1.1))
    target = editor_chat_target(prepared)
    assert target is not None and target.options.response_mode == "lastNode"


def test_disabled_triggers_do_not_chat() -> None:
    prepared = _prepared({**node("Manual chat", LC + "manualChatTrigger", version=1.1), "disabled": True})
    assert editor_chat_target(prepared) is None


def test_memory_keys_follow_simple_memorys_versions() -> None:
    prepared = _prepared(
        node("Old memory", LC + "memoryBufferWindow", {}, version=1.3),
        node("New memory", LC + "memoryBufferWindow", {}, version=1.4),
        node("Custom key", LC + "memoryBufferWindow", {"sessionIdType": "customKey", "sessionKey": "k"}, version=1.3),
    )
    assert memory_keys(prepared, "s1") == ["wf1__s1", "wf1__s1__New_memory"]
