"""n8n's property descriptions of every node type Weft runs (:mod:`weft.nodes.node_properties`), the read-path
checker (:func:`weft.nodes.property_paths.described`) and the spy on the parameters nodes read."""

from __future__ import annotations

import json
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from tests.recorded._read_spy import Reads, checked, parameter_reads, undescribed

from weft.engine import run_workflow
from weft.nodes.contract import NodeDescription
from weft.nodes.node_properties import ai_tool_properties, described_versions, description_for, properties_for
from weft.nodes.property_paths import described, path_parts
from weft.nodes.registry import NodeRegistry, default_registry

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "src" / "weft" / "nodes" / "descriptions"
BASE, LC = "n8n-nodes-base.", "@n8n/n8n-nodes-langchain."


def _every_type_and_version() -> list[tuple[str, float]]:
    registry = NodeRegistry()  # the built-ins and entry points (not what other tests register in the default one)
    names = registry.names()
    tools = [name + "Tool" for name in names if registry.type_class(name).description.usable_as_tool]  # type: ignore[union-attr]
    found = []
    for name in names + tools:
        cls = registry.type_class(name)
        assert cls is not None, name
        found += [(name, float(version)) for version in cls.description.versions]
    return found


def _names(properties: list[dict[str, Any]]) -> list[str]:
    return [str(p["name"]) for p in properties]


# --------------------------------------------------------------------------- the descriptions


def test_every_registered_type_and_version_is_described() -> None:
    every = _every_type_and_version()
    missing = [f"{name} {version:g}" for name, version in every if description_for(name, version) is None]
    assert not missing, f"no description for: {', '.join(missing)} (run scripts/export_node_descriptions.py)"
    assert len(every) > 250


def test_each_file_says_where_its_descriptions_come_from_and_which_versions() -> None:
    for path in FOLDER.glob("*.json"):
        data = json.loads(path.read_text())
        assert data["source"] in ("n8n", "weft"), path.name
        for entry in data.get("descriptions", []):
            assert entry["version"] and isinstance(entry["properties"], list), path.name
            if data["source"] == "n8n":
                assert entry["n8nVersion"].startswith("2."), path.name
    set34 = description_for(BASE + "set", 3.4)
    assert set34 is not None and set34["n8nVersion"] == "2.41.1" and set34["displayName"] == "Edit Fields (Set)"
    assert description_for(BASE + "set", 3.4) is description_for(BASE + "set", 3.3)  # identical ones share
    assert description_for(BASE + "set", 3.4) is not description_for(BASE + "set", 2)
    assert description_for(BASE + "set", 99) is None and description_for("acme.nothing") is None


def test_the_package_data_ships_the_descriptions() -> None:
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["weft"]
    assert any(fnmatch("nodes/descriptions/n8n-nodes-base.set.json", pattern) for pattern in setup)


def test_a_type_without_own_properties_gets_n8ns_of_its_default_version() -> None:
    cls = default_registry().type_class(BASE + "set")
    assert cls is not None
    assert list(cls.description.properties) == properties_for(BASE + "set", cls.description.default_version)
    own = NodeDescription(name="weft.own", display_name="Own", properties=({"name": "mine"},))
    assert own.properties == ({"name": "mine"},)
    assert NodeDescription(name="weft.unknown", display_name="Unknown").properties == ()


def test_weft_only_types_and_options_are_described_by_hand() -> None:
    assert _names(properties_for("weft.lmChatScripted", 1)) == ["turns", "mode"]
    assert properties_for("weft.lmChatDemo", 1) == [] and properties_for(BASE + "start", 1) == []
    options = next(p for p in properties_for(LC + "agent", 3.1) if p["name"] == "options")
    assert {"toolTimeout", "runToolCallsConcurrently", "outputParserRetries"} <= set(_names(options["options"]))


# --------------------------------------------------------------------------- n8n's derived types


def test_tool_variants_get_n8ns_tool_parameters() -> None:
    http = properties_for(BASE + "httpRequestTool", 4.5)
    base = description_for(BASE + "httpRequest", 4.5)
    assert base is not None
    assert _names(http)[0] == "toolDescription" and http[0]["default"] == base["description"]
    assert _names(http)[1:] == _names(base["properties"])
    date = properties_for(BASE + "dateTimeTool", 2)  # it has an operation: auto or manual description
    assert _names(date)[:2] == ["descriptionType", "toolDescription"]
    assert date[1]["displayOptions"] == {"show": {"descriptionType": ["manual"]}}
    tool = description_for(BASE + "dateTimeTool", 2)
    assert tool is not None and tool["inputs"] == [] and tool["outputs"] == ["ai_tool"]
    assert tool["displayName"] == "Date & Time Tool" and "usableAsTool" not in tool
    assert description_for(BASE + "dateTimeTool", 1) is None  # n8n: version 1 is not usableAsTool
    assert described_versions(BASE + "httpRequestTool") == [3, 4, 4.1, 4.2, 4.3, 4.4, 4.5]


def test_tool_parameters_go_after_the_last_callout_as_n8n_inserts_them() -> None:
    props = [{"name": "a", "type": "callout"}, {"name": "operation", "type": "options"}, {"name": "b"}]
    assert _names(ai_tool_properties(props, "Does it")) == ["a", "descriptionType", "toolDescription", "operation", "b"]
    with_own = [{"name": "toolDescription", "type": "string"}]
    assert ai_tool_properties(with_own, "x") == with_own


def test_a_synthesized_tool_type_reads_its_derived_properties_and_defaults() -> None:
    cls = default_registry().type_class(BASE + "compressionTool")
    assert cls is not None
    assert _names(list(cls.description.properties))[:2] == ["descriptionType", "toolDescription"]
    assert cls.description.defaults["descriptionType"] == "auto"


def test_hitl_tools_are_derived_as_n8ns_convert_node_to_hitl_tool() -> None:
    email = description_for(BASE + "emailSendHitlTool", 2.1)
    assert email is not None and email["subtitle"] == "Send and wait"
    assert email["description"] == "Request human approval for tools"
    assert email["inputs"] == [{"displayName": "Tool", "type": "ai_tool", "required": True}]
    assert email["outputs"][0]["filter"] == {"nodes": [LC + "agent", LC + "agentTool"]}
    props = email["properties"]
    assert props[0]["name"] == "message" and "{{ $tool.name }}" in props[0]["default"]
    hidden = {p["name"]: p["default"] for p in props if p["type"] == "hidden"}
    assert hidden == {"resource": "email", "operation": "sendAndWait", "responseType": "approval"}
    assert "approvalOptions" in _names(props) and _names(props).count("message") == 1
    chat = description_for(LC + "chatHitlTool", 1.3)
    assert chat is not None and "resource" not in _names(chat["properties"])  # the Chat node has none
    assert description_for(BASE + "emailSendHitlTool", 1) is None  # version 1 has no sendAndWait


# --------------------------------------------------------------------------- the checker


@pytest.mark.parametrize(
    ("type_name", "version", "path", "parameters", "expected"),
    [
        ("set", 3.4, "mode", {}, True),
        ("set", 3.4, "nope", {}, False),
        ("set", 3.4, "assignments.assignments", {}, True),
        ("set", 3.4, "assignments.assignments.0.value", {}, True),
        ("set", 3.4, "assignments.other", {}, False),
        ("set", 3.2, "assignments", {}, False),  # its @version conditions leave out 3.2
        ("httpRequest", 4.2, "options.timeout", {}, True),
        ("httpRequest", 4.2, "options.nope", {}, False),
        ("httpRequest", 4.2, "options.batching.batch.batchSize", {}, True),
        ("httpRequest", 4.2, "jsonBody.any.depth", {}, True),  # a json value is free-form
        ("httpRequest", 4.2, "url.inside", {}, False),
        ("httpRequest", 2, "options.batching.batch", {}, False),
        ("switch", 3.2, "rules.values.0.outputKey", {}, True),
        ("switch", 3.2, "rules.values[1].conditions.conditions", {}, True),
        ("switch", 3.2, "rules.values.0.nope", {}, False),
        ("switch", 3.2, "rules.nope", {}, False),
        ("if", 2.2, "conditions.conditions.0.operator.type", {}, True),
        ("if", 2.2, "conditions.options.caseSensitive", {}, True),
        ("if", 2.2, "conditions.nope", {}, False),
        ("executeWorkflow", 1.2, "workflowId.value", {}, True),
        ("executeWorkflow", 1.2, "workflowId.__rl", {}, True),
        ("executeWorkflow", 1.2, "workflowId.other", {}, False),
        ("executeWorkflowTrigger", 1, "inputSource", {}, False),
        ("executeWorkflowTrigger", 1.1, "inputSource", {}, True),
    ],
)
def test_a_read_path_resolves_through_the_description(
    type_name: str, version: float, path: str, parameters: dict[str, Any], expected: bool
) -> None:
    assert described(properties_for(BASE + type_name, version), path, version, parameters) is expected


def test_of_same_named_properties_the_shown_one_decides() -> None:
    props = properties_for(LC + "agent", 1.9)  # an options collection per agent kind
    assert described(props, "options.systemMessage", 1.9, {"agent": "toolsAgent"})
    assert not described(props, "options.systemMessage", 1.9, {"agent": "sqlAgent"})
    assert described(props, "options.topK", 1.9, {"agent": "sqlAgent"})
    # a missing value is the property's default (toolsAgent, from 1.6): sqlAgent's options are hidden
    assert not described(props, "options.topK", 1.9, {})


def test_path_parts_skip_list_indices() -> None:
    assert path_parts("fields.values[0].name") == ["fields", "values", "name"]
    assert path_parts("rules.values.2.outputKey") == ["rules", "values", "outputKey"]


# --------------------------------------------------------------------------- the spy


def test_an_undescribed_read_is_reported_naming_type_version_and_parameter() -> None:
    reads: Reads = {(BASE + "noOp", 1.0, "notDescribed", 1): {}, (BASE + "set", 3.4, "mode", 2): {}}
    assert undescribed(reads) == [
        "n8n-nodes-base.noOp 1 reads parameter 'notDescribed', which its n8n description does not have"
    ]
    assert undescribed({("acme.own", 1.0, "x", 1): {}}) == ["acme.own 1: no n8n description (reads 'x')"]
    allowed: Reads = {(LC + "agentTool", 3.0, "promptType", 1): {}}  # n8n reads it too (the allowlist)
    assert undescribed(allowed) == []


ASSIGNMENT = {"id": "1", "name": "a", "value": 1, "type": "number"}


async def test_the_spy_records_each_read_of_a_real_run() -> None:
    data = {
        "nodes": [
            {"name": "Start", "type": BASE + "manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}},
            {
                "name": "Set",
                "type": BASE + "set",
                "typeVersion": 3.4,
                "position": [200, 0],
                "parameters": {
                    "assignments": {"assignments": [{"id": "1", "name": "a", "value": 1, "type": "number"}]}
                },
            },
        ],
        "connections": {"Start": {"main": [[{"node": "Set", "type": "main", "index": 0}]]}},
    }
    with parameter_reads() as reads:
        run = await run_workflow(data)
    assert run["status"] == "success"
    seen = checked(reads)
    assert (BASE + "set", 3.4, "mode") in seen and (BASE + "set", 3.4, "assignments.assignments") in seen
    assert undescribed(reads) == []
