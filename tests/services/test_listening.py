"""Test URLs listen for one test run (``weft.services.listening``): which URLs a workflow's triggers listen on,
which trigger a run listens with, claiming once, expiry."""

from __future__ import annotations

from typing import Any

import pytest

from weft.services.errors import ActivationError, WebhookNotFoundError
from weft.services.instance import Instance
from weft.services.listening_urls import listening_triggers, listening_urls
from weft.services.prepared import prepare
from weft.testing.workflows import node, workflow

BASE = "http://127.0.0.1:5678/"
LC = "@n8n/n8n-nodes-langchain."


def _triggers() -> dict[str, Any]:
    return workflow(
        node("Hook", "n8n-nodes-base.webhook", {"httpMethod": "POST", "path": "orders"}, version=2),
        node("Form", "n8n-nodes-base.formTrigger", {"path": "signup", "formFields": {"values": []}}, version=2.3),
        node("Old form", "n8n-nodes-base.formTrigger", {"path": "legacy", "formFields": {"values": []}}, version=1),
        node("MCP", LC + "mcpTrigger", {"path": "tools"}, version=2),
        node("Old MCP", LC + "mcpTrigger", {"path": "tools-v1"}, version=1),
        {**node("Chat", LC + "chatTrigger", {"public": True}, version=1.4), "webhookId": "c1"},
        {**node("Private chat", LC + "chatTrigger", {"public": False}, version=1.4), "webhookId": "c2"},
        node("Start", "n8n-nodes-base.manualTrigger", {}),
    )


def test_each_trigger_listens_on_its_test_urls(instance: Instance) -> None:
    urls = listening_urls(prepare(_triggers(), instance.runner.registry), BASE)
    assert [(u.kind, u.node, u.method, u.path) for u in urls] == [
        ("webhook", "Hook", "POST", "orders"),
        ("form", "Form", "GET", "signup"),
        ("form", "Form", "POST", "signup"),
        ("form", "Old form", "GET", "legacy/n8n-form"),
        ("form", "Old form", "POST", "legacy/n8n-form"),
        ("mcp", "MCP", "GET", "tools"),
        ("mcp", "MCP", "POST", "tools"),
        ("mcp", "MCP", "DELETE", "tools"),
        ("mcp", "Old MCP", "GET", "tools-v1/sse"),
        ("mcp", "Old MCP", "POST", "tools-v1/messages"),
        ("mcp", "Old MCP", "DELETE", "tools-v1"),
        ("chat", "Chat", "GET", "c1/chat"),
        ("chat", "Chat", "POST", "c1/chat"),
    ]  # the Chat Trigger that is not public has none: n8n answers it an empty 404
    shown = list(dict.fromkeys(u.url for u in urls))
    assert shown == [
        f"{BASE}webhook-test/orders",
        f"{BASE}form-test/signup",
        f"{BASE}webhook-test/legacy/n8n-form",
        f"{BASE}mcp-test/tools",
        f"{BASE}mcp-test/tools-v1/sse",
        f"{BASE}webhook-test/c1/chat",
    ]
    assert listening_triggers(prepare(_triggers(), instance.runner.registry)) == [
        "Hook",
        "Form",
        "Old form",
        "MCP",
        "Old MCP",
        "Chat",
    ]


async def test_a_run_listens_with_the_triggers_it_names(instance: Instance) -> None:
    urls = await instance.test_webhooks.listen(_triggers(), triggers=["Form"])
    assert urls == [f"{instance.settings.base_url.rstrip('/')}/form-test/signup"]
    assert await instance.test_webhooks.find("webhook", "POST", "orders") is None
    assert await instance.test_webhooks.methods("signup", "form") == ["GET", "POST"]
    with pytest.raises(ActivationError, match="no trigger to listen with"):
        await instance.test_webhooks.listen(_triggers(), triggers=["Private chat"])


async def test_a_listener_is_claimed_once_with_its_siblings(instance: Instance) -> None:
    await instance.test_webhooks.listen(_triggers())
    page = await instance.test_webhooks.find("form", "GET", "signup")
    first = await instance.test_webhooks.find("form", "POST", "signup")
    second = await instance.test_webhooks.find("form", "POST", "signup")
    assert page is not None and first is not None and second is not None
    assert page.node == "Form" and page.prepared.workflow.nodes["Form"].type == "n8n-nodes-base.formTrigger"
    await instance.test_webhooks.claim(first)
    with pytest.raises(WebhookNotFoundError, match='The requested webhook "signup" is not registered'):
        await instance.test_webhooks.claim(second)  # a concurrent submission found it too: it lost
    # one test run per listen: every test URL of the workflow stopped listening
    assert await instance.test_webhooks.find("form", "GET", "signup") is None
    assert await instance.test_webhooks.find("mcp", "POST", "tools") is None
    assert await instance.test_webhooks.take("POST", "orders") is None


async def test_an_expired_listener_answers_no_one(instance: Instance) -> None:
    await instance.test_webhooks.listen(_triggers(), seconds=-1)
    assert await instance.test_webhooks.find("chat", "POST", "c1/chat") is None
    assert await instance.test_webhooks.methods("c1/chat", "chat") == []
    await instance.test_webhooks.listen(_triggers(), triggers=["Hook"])  # forgets the expired ones
    keys = [key for key in instance.store.settings.all() if key.startswith("testWebhook:")]
    assert keys == ["testWebhook:webhook POST orders"]
