"""Loading, validating and writing back n8n workflow JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from weft.errors import UnknownNodeTypeError, WorkflowDefinitionError, WorkflowFileError
from weft.nodes.registry import default_registry
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Workflow, dump_workflow, load_workflow, parse_workflow, validate_workflow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_example_workflows_round_trip_unchanged(name: str) -> None:
    original = json.loads((EXAMPLES / name).read_text())
    assert dump_workflow(load_workflow(EXAMPLES / name)) == original


def test_unknown_fields_are_kept() -> None:
    data = workflow(node("A", extraField={"x": 1}), node("B"), connect("A", "B"))
    data["meta"] = {"instanceId": "abc"}
    data["connections"]["A"]["main"][0][0]["custom"] = True
    dumped = dump_workflow(parse_workflow(data))
    assert dumped["meta"] == {"instanceId": "abc"}
    assert dumped["nodes"][0]["extraField"] == {"x": 1}
    assert dumped["connections"]["A"]["main"][0][0]["custom"] is True
    assert dumped["nodes"][0]["typeVersion"] == 1 and isinstance(dumped["nodes"][0]["typeVersion"], int)


def test_export_array_form_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "wf.json"
    path.write_text(json.dumps([workflow(node("A"))]))
    assert load_workflow(path).nodes[0].name == "A"


def test_not_json_names_the_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"nodes": [}')
    with pytest.raises(WorkflowFileError, match=r"not valid JSON: .* line 1, column 12"):
        load_workflow(path)


def test_missing_file_is_a_file_error(tmp_path: Path) -> None:
    with pytest.raises(WorkflowFileError, match="Cannot read workflow file"):
        load_workflow(tmp_path / "nope.json")


def test_bad_field_names_the_node_and_field() -> None:
    data = workflow(node("Broken"))
    data["nodes"][0]["typeVersion"] = "three"
    with pytest.raises(WorkflowFileError) as info:
        parse_workflow(data)
    assert info.value.node_name == "Broken" and info.value.field == "nodes.0.typeVersion"


def test_duplicate_names_are_rejected_with_the_fix() -> None:
    with pytest.raises(WorkflowDefinitionError, match=r"2 nodes named 'A'.*rename"):
        validate_workflow(parse_workflow(workflow(node("A"), node("A"))))


def test_connection_to_a_missing_node_is_rejected() -> None:
    with pytest.raises(WorkflowDefinitionError, match="connects \\(main\\) to node 'Ghost'"):
        validate_workflow(parse_workflow(workflow(node("A"), connect("A", "Ghost"))))


def test_unknown_type_and_bad_version_name_the_node() -> None:
    registry = default_registry()
    with pytest.raises(UnknownNodeTypeError, match=r"Unknown node type 'acme\.thing'") as info:
        validate_workflow(parse_workflow(workflow(node("X", "acme.thing"))), registry)
    assert info.value.node_name == "X"
    with pytest.raises(UnknownNodeTypeError, match=r"has no typeVersion 7.*Supported versions: 1, 2, 3"):
        validate_workflow(parse_workflow(workflow(node("Y", "n8n-nodes-base.set", version=7))), registry)
    # a type n8n implements as one class runs at any typeVersion, as in n8n (recorded n772)
    validate_workflow(parse_workflow(workflow(node("Z", "n8n-nodes-base.noOp", version=7))), registry)


def test_graph_queries() -> None:
    wf = Workflow.from_json(
        workflow(
            node("A"),
            node("B"),
            node("C"),
            node("Model"),
            connect("A", "B"),
            connect("B", "C"),
            connect("Model", "B", type_="ai_languageModel"),
        )
    )
    assert wf.parents("C") == ["B", "A"]
    assert wf.children("A") == ["B", "C"]
    assert wf.sub_nodes("B", "ai_languageModel") == ["Model"]
    assert wf.parents("B", None) == ["A", "Model"]
    assert wf.input_count("B") == 1


def test_an_old_export_with_a_numeric_id_loads() -> None:
    assert parse_workflow({"id": 42, "name": "old", "nodes": [], "connections": {}}).id == "42"


def test_every_node_weft_cannot_run_is_named_in_one_error() -> None:
    nodes = [
        {"name": "Fn", "type": "n8n-nodes-base.notANode", "typeVersion": 1, "position": [0, 0], "parameters": {}},
        {
            "name": "Every hour",
            "type": "n8n-nodes-base.notATrigger",
            "typeVersion": 1,
            "position": [0, 0],
            "parameters": {},
        },
    ]
    with pytest.raises(UnknownNodeTypeError) as info:
        validate_workflow(parse_workflow({"name": "old", "nodes": nodes, "connections": {}}), default_registry())
    message = info.value.message
    assert message.startswith(
        "2 nodes cannot run in Weft, of 2 node types: Unknown node type 'n8n-nodes-base.notANode'"
    )
    assert "Unknown node type 'n8n-nodes-base.notATrigger' (used by 'Every hour')" in message


def test_a_missing_type_used_by_many_nodes_is_named_once() -> None:
    sheets = [
        {"name": f"Sheet {i}", "type": "n8n-nodes-base.notSheets", "typeVersion": 4.5, "position": [0, 0]}
        for i in range(17)
    ]
    other = {"name": "Chat", "type": "n8n-nodes-base.notSlack", "typeVersion": 2, "position": [0, 0]}
    with pytest.raises(UnknownNodeTypeError) as info:
        validate_workflow(parse_workflow({"nodes": [*sheets, other], "connections": {}}), default_registry())
    message = info.value.message
    assert message.count("n8n-nodes-base.notSheets") == 1 and message.count("n8n-nodes-base.notSlack") == 1
    assert message.startswith("18 nodes cannot run in Weft, of 2 node types:")
    assert "(used by 'Sheet 0', 'Sheet 1', 'Sheet 2', 'Sheet 3', 'Sheet 4' and 12 more)" in message
    assert "`weft nodes` lists every n8n node type" in message


def test_execute_command_is_off_as_in_n8n_2() -> None:
    nodes = [{"name": "Shell", "type": "n8n-nodes-base.executeCommand", "typeVersion": 1, "position": [0, 0]}]
    with pytest.raises(UnknownNodeTypeError, match="is disabled: it runs shell commands on the server"):
        validate_workflow(parse_workflow({"nodes": nodes, "connections": {}}), default_registry())


def test_null_settings_are_no_settings() -> None:
    # n8n's settings column is nullable: old exports (and REST answers of a workflow without settings) write null
    data = workflow(node("A"))
    data["settings"] = None
    without = {key: value for key, value in data.items() if key != "settings"}
    assert parse_workflow(data).settings == parse_workflow(without).settings
