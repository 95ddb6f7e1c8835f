"""``weft nodes``' data: every n8n node type against what the registry runs, and the table in the docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from weft.cli import main
from weft.nodes.coverage import coverage, markdown_table, n8n_node_types, refusals
from weft.nodes.registry import NodeRegistry, default_registry

DOC = Path(__file__).resolve().parents[2] / "docs" / "node-coverage.md"


def test_each_n8n_type_has_its_state_and_the_versions_weft_runs() -> None:
    rows = {row.type: row for row in coverage(default_registry())}
    assert set(rows) == set(n8n_node_types()["types"])
    set_node = rows["n8n-nodes-base.set"]
    assert set_node.state == "native" and {3.3, 3.4} <= set(set_node.versions) <= set(set_node.n8n_versions)
    assert rows["n8n-nodes-base.zendesk"].state == "missing" and rows["n8n-nodes-base.zendesk"].versions == ()
    assert rows["n8n-nodes-base.webhook"].trigger and not rows["n8n-nodes-base.set"].trigger


def test_refusals_name_each_reason_once() -> None:
    registry = default_registry()
    nodes = [("n8n-nodes-base.set", 3.4), ("n8n-nodes-base.zendesk", 1), ("n8n-nodes-base.zendesk", 1)]
    (reason,) = refusals(registry, nodes)
    assert "n8n-nodes-base.zendesk" in reason
    assert refusals(registry, [("n8n-nodes-base.set", 3.4), ("n8n-nodes-base.if", 2.2)]) == []


def test_a_single_class_type_runs_at_any_type_version_a_versioned_one_does_not() -> None:
    """n8n runs No Operation (one class) at typeVersion 1.8 (recorded n772) and refuses Set (a
    VersionedNodeType) at 3.9: its ``getNodeType`` finds no class for it."""
    registry = default_registry()
    assert not n8n_node_types()["types"]["n8n-nodes-base.noOp"]["versioned"]
    assert registry.check("n8n-nodes-base.noOp", 1.8) is None
    refused = registry.check("n8n-nodes-base.set", 3.9)
    assert refused is not None and "no typeVersion 3.9" in refused


def test_an_empty_registry_runs_nothing() -> None:
    rows = coverage(NodeRegistry({}, load_entry_points=False))
    assert {row.state for row in rows} == {"missing"}


def test_the_docs_table_is_the_current_one() -> None:
    expected = markdown_table(coverage(default_registry()), n8n_node_types()["n8nVersions"])
    assert DOC.read_text(encoding="utf-8") == expected, "run: .venv/bin/weft nodes --markdown > docs/node-coverage.md"


def test_weft_nodes_prints_each_type_with_its_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nodes", "--state", "missing"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("missing") and "n8n-nodes-base.zendesk" in line for line in lines)
    assert not any(line.startswith("native") for line in lines)
    assert lines[-1].startswith(f"{len(n8n_node_types()['types'])} n8n node types: ")
    assert main(["nodes", "--markdown"]) == 0
    assert capsys.readouterr().out == DOC.read_text(encoding="utf-8")
