"""Weft's demo and test models (Scripted Chat Model, Demo Chat Model, Demo Embeddings) are offered only when asked
for (``WEFT_DEMO_NODES``): off, a registry lists none of them, never imports their modules, and refuses a workflow
that uses one with an error naming the type and the setting. The test suite turns them on in tests/conftest.py."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import weft
from weft.ai.nodes import CATALOG as AI_CATALOG
from weft.ai.nodes import DEMO_CATALOG
from weft.engine import run_workflow
from weft.errors import ConfigurationError, UnknownNodeTypeError
from weft.nodes.catalog import DEMO_NODE_TYPES
from weft.nodes.registry import NodeRegistry, default_registry
from weft.settings import Settings, demo_nodes_from_env
from weft.testing.workflows import connect, node, output_json, workflow
from weft.workflow import parse_workflow, validate_workflow

LC = "@n8n/n8n-nodes-langchain."
DEMO = sorted(DEMO_NODE_TYPES)


def scripted_workflow() -> dict[str, Any]:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Ask", LC + "chainLlm", {"promptType": "define", "text": "hi"}, version=1.7),
        node("Model", "weft.lmChatScripted", {"turns": ["Hello"]}),
        connect("Start", "Ask"),
        connect("Model", "Ask", type_="ai_languageModel"),
    )


def test_off_the_registry_lists_none_of_them_and_refuses_each_naming_the_setting() -> None:
    registry = NodeRegistry(demo_nodes=False)
    assert not registry.demo_nodes
    assert set(DEMO).isdisjoint(registry.names())
    assert LC + "lmChatOpenAi" in registry.names()
    for name in DEMO:
        assert registry.type_class(name) is None
        reason = registry.check(name, 1)
        assert reason is not None and repr(name) in reason and "WEFT_DEMO_NODES=true" in reason
        assert DEMO_NODE_TYPES[name] in reason  # its display name
        with pytest.raises(UnknownNodeTypeError, match="WEFT_DEMO_NODES=true"):
            registry.get(name)
    assert "Embeddings OpenAI" in str(registry.check("weft.embeddingsDemo", 1))
    assert "OpenAI Chat Model" in str(registry.check("weft.lmChatDemo", 1))


def test_on_the_registry_lists_and_runs_them() -> None:
    registry = NodeRegistry(demo_nodes=True)
    assert set(DEMO) <= set(registry.names())
    for name in DEMO:
        cls = registry.type_class(name)
        assert cls is not None and cls.description.name == name
        assert cls.description.display_name == DEMO_NODE_TYPES[name]
        assert registry.check(name, 1) is None


def test_a_registry_not_told_otherwise_follows_the_process_which_the_suite_turned_on() -> None:
    assert NodeRegistry().demo_nodes and default_registry().demo_nodes
    assert set(DEMO) <= set(default_registry().names())
    assert os.environ["WEFT_DEMO_NODES"] == "true"  # for the commands and servers tests start


def test_types_given_explicitly_are_offered_whatever_the_setting() -> None:
    from weft.ai.nodes.lm_chat_scripted import LmChatScripted

    registry = NodeRegistry({"weft.lmChatScripted": LmChatScripted}, load_entry_points=False, demo_nodes=False)
    assert registry.check("weft.lmChatScripted", 1) is None
    registered = NodeRegistry(demo_nodes=False)
    registered.register(LmChatScripted)
    assert registered.type_class("weft.lmChatScripted") is LmChatScripted


def test_validation_refuses_a_workflow_using_one_with_a_typed_error_naming_node_type_and_setting() -> None:
    model = parse_workflow(scripted_workflow())
    with pytest.raises(UnknownNodeTypeError) as caught:
        validate_workflow(model, NodeRegistry(demo_nodes=False))
    assert caught.value.node_name == "Model"
    assert "'weft.lmChatScripted'" in str(caught.value) and "WEFT_DEMO_NODES=true" in str(caught.value)
    validate_workflow(model, NodeRegistry(demo_nodes=True))


def test_with_other_missing_types_the_listed_reason_still_names_the_setting() -> None:
    data = scripted_workflow()
    data["nodes"].append(node("Zen", "n8n-nodes-base.zendesk", {}, position=(400, 200)))
    with pytest.raises(UnknownNodeTypeError) as caught:
        validate_workflow(parse_workflow(data), NodeRegistry(demo_nodes=False))
    message = str(caught.value)
    assert "2 nodes cannot run" in message and "'weft.lmChatScripted'" in message
    assert "WEFT_DEMO_NODES=true" in message and "n8n-nodes-base.zendesk" in message


async def test_an_execution_that_reaches_one_ends_in_that_error() -> None:
    run = await run_workflow(scripted_workflow(), registry=NodeRegistry(demo_nodes=False))
    assert run["status"] == "error"
    error = run["data"]["resultData"]["error"]
    assert "weft.lmChatScripted" in error["message"] and "WEFT_DEMO_NODES=true" in error["message"]
    ok = await run_workflow(scripted_workflow(), registry=NodeRegistry(demo_nodes=True))
    assert ok["status"] == "success"
    assert output_json(dict(ok), "Ask") == [{"text": "Hello"}]


def test_the_setting_is_off_by_default_and_read_from_weft_demo_nodes() -> None:
    assert Settings().demo_nodes is False
    assert Settings.from_env({}).demo_nodes is False
    assert Settings.from_env({"WEFT_DEMO_NODES": "true"}).demo_nodes is True
    assert demo_nodes_from_env({"WEFT_DEMO_NODES": "1"}) and not demo_nodes_from_env({"WEFT_DEMO_NODES": "off"})
    with pytest.raises(ConfigurationError, match="WEFT_DEMO_NODES='maybe' is not a boolean"):
        Settings.from_env({"WEFT_DEMO_NODES": "maybe"})


def test_the_package_lists_exactly_the_demo_types_the_registry_keeps_aside() -> None:
    assert set(DEMO_CATALOG) == set(DEMO_NODE_TYPES)
    assert all(AI_CATALOG[name] == target for name, target in DEMO_CATALOG.items())


#: The demo models' modules, and the modules that may import them: their node modules (loaded by the registry only
#: once demo nodes are allowed), each other, and the test kit (which production code never imports).
DEMO_MODULES = {
    "weft.ai.models.scripted",
    "weft.ai.models.demo",
    "weft.ai.retrieval.demo_embeddings",
    *(target.partition(":")[0] for target in DEMO_CATALOG.values()),
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for item in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(item, ast.Import):
            found |= {alias.name for alias in item.names}
        elif isinstance(item, ast.ImportFrom) and item.module and item.level == 0:
            found |= {item.module} | {f"{item.module}.{alias.name}" for alias in item.names}
    return found


def test_production_code_reaches_the_demo_models_only_through_the_registry() -> None:
    src = Path(weft.__file__).parent
    problems = []
    for path in src.rglob("*.py"):
        module = ".".join(("weft", *path.relative_to(src).with_suffix("").parts)).removesuffix(".__init__")
        if module in DEMO_MODULES or module.startswith("weft.testing"):
            continue
        problems += [f"{module} imports {name}" for name in sorted(_imports(path) & DEMO_MODULES)]
    assert problems == []


PROBE = """
import json, sys
from weft.nodes.registry import default_registry
from weft.server.routes.rest_node_types import node_types
from weft.workflow import parse_workflow, validate_workflow
registry = default_registry()
listed = [t["name"] for t in node_types(registry)]
try:
    validate_workflow(parse_workflow(json.loads(sys.argv[1])), registry)
    refused = None
except Exception as exc:
    refused = type(exc).__name__
loaded = sorted(m for m in sys.modules if m.endswith(("models.scripted", "models.demo", "demo_embeddings")))
print(json.dumps({"listed": [n for n in listed if n.startswith("weft.")], "refused": refused, "loaded": loaded}))
"""


def test_a_process_without_the_setting_lists_refuses_and_never_imports_them() -> None:
    env = {k: v for k, v in os.environ.items() if k != "WEFT_DEMO_NODES"}
    argv = [sys.executable, "-c", PROBE, json.dumps(scripted_workflow())]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"listed": [], "refused": "UnknownNodeTypeError", "loaded": []}
