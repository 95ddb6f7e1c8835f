"""``weft execute``: summary, ``--json`` (exactly the IRun) and exit codes, in a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from weft.testing.workflows import connect, node, workflow


def _weft(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "weft", *args], capture_output=True, text=True, timeout=60)


def _write(tmp_path: Path, data: dict) -> str:
    path = tmp_path / "wf.json"
    path.write_text(json.dumps(data))
    return str(path)


def _ok_workflow() -> dict:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node(
            "Items",
            "n8n-nodes-base.code",
            {"jsCode": "return [{json: {a: 1}}, {json: {a: 2}}];"},
            version=2,
            position=(200, 0),
        ),
        connect("Start", "Items"),
    )


def test_pinned_data_is_for_manual_runs_only(tmp_path: Path) -> None:
    # as n8n's execute command (mode cli): a workflow's pinned data is not used
    data = _ok_workflow()
    data["pinData"] = {"Items": [{"json": {"pinned": True}}]}
    run = json.loads(_weft("execute", "--file", _write(tmp_path, data), "--json").stdout)
    assert [i["json"] for i in run["data"]["resultData"]["runData"]["Items"][0]["data"]["main"][0]] == [
        {"a": 1},
        {"a": 2},
    ]


def test_json_output_is_exactly_the_irun(tmp_path: Path) -> None:
    result = _weft("execute", "--file", _write(tmp_path, _ok_workflow()), "--json")
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)
    assert set(run) >= {"data", "mode", "startedAt", "stoppedAt", "status"}
    assert run["status"] == "success" and run["mode"] == "cli"
    assert run["data"]["resultData"]["lastNodeExecuted"] == "Items"
    assert [i["json"] for i in run["data"]["resultData"]["runData"]["Items"][0]["data"]["main"][0]] == [
        {"a": 1},
        {"a": 2},
    ]


def test_summary_lists_nodes_in_order(tmp_path: Path) -> None:
    result = _weft("execute", "--file", _write(tmp_path, _ok_workflow()))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].strip().startswith("Start  run 0  success")
    assert "Items  run 0  success  items out 2" in lines[1]
    assert lines[-4:] == [
        "Execution success at node 'Items'",
        "Output of 'Items' (2 items):",
        '  {"a": 1}',
        '  {"a": 2}',
    ]


def test_failing_execution_exits_1_with_the_error(tmp_path: Path) -> None:
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "stopped on purpose"}),
        connect("Start", "Fail"),
    )
    result = _weft("execute", "--file", _write(tmp_path, data), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["data"]["resultData"]["error"]["message"] == "stopped on purpose"


def test_unloadable_file_exits_2_with_the_reason(tmp_path: Path) -> None:
    result = _weft("execute", "--file", _write(tmp_path, workflow(node("X", "acme.unknown"))))
    assert result.returncode == 2
    assert "Unknown node type 'acme.unknown'" in result.stderr
    assert result.stdout == ""
    assert _weft("execute", "--file", str(tmp_path / "missing.json")).returncode == 2


def test_an_expression_syntax_error_says_where(tmp_path: Path) -> None:
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node(
            "Sum",
            "n8n-nodes-base.set",
            {"assignments": {"assignments": [{"id": "1", "name": "total", "value": "={{ 1 + }}", "type": "number"}]}},
            version=3.4,
            position=(200, 0),
        ),
        connect("Start", "Sum"),
    )
    result = _weft("execute", "--file", _write(tmp_path, data))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    error = lines.index("Error: invalid syntax")
    assert "{{ 1 + }}" in lines[error + 1] and "'total'" in lines[error + 1] and "'Sum'" in lines[error + 1]
    assert ";" not in lines[error + 1]
