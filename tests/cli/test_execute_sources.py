"""``weft execute`` of a malformed file (exit 2 with a message, never a traceback) and of a stored workflow
(``--id``, n8n's flag)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from weft.cli import main
from weft.services.import_export import open_store
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow

MANUAL = node("Start", "n8n-nodes-base.manualTrigger")


@pytest.fixture(autouse=True)
def _instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEFT_USER_FOLDER", str(tmp_path / "home"))
    monkeypatch.delenv("WEFT_DATABASE_URL", raising=False)
    monkeypatch.delenv("WEFT_ENCRYPTION_KEY", raising=False)


def _weft(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


MALFORMED: dict[str, tuple[Any, str]] = {
    "empty object": ({}, "Missing node to start execution: the workflow has no nodes"),
    "no nodes": ({"nodes": [], "connections": {}}, "Missing node to start execution: the workflow has no nodes"),
    "only a sticky note": (
        {"nodes": [node("Note", "n8n-nodes-base.stickyNote")]},
        "Missing node to start execution: The workflow has no node to start from",
    ),
    "nodes not a list": ({"nodes": {}, "connections": {}}, "field 'nodes' is invalid"),
    "a node without type": ({"nodes": [{"name": "A", "parameters": {}}]}, "field 'nodes.0.type' (node 'A')"),
    "a node without name": ({"nodes": [{"type": "n8n-nodes-base.noOp"}]}, "field 'nodes.0.name' is invalid"),
    "a node that is no object": ({"nodes": [1]}, "field 'nodes.0' is invalid"),
    "connections to an unknown node": (
        workflow(MANUAL, connect("Start", "Ghost")),
        "connects (main) to node 'Ghost', which is not in the workflow",
    ),
    "connections not an object": ({"nodes": [MANUAL], "connections": []}, "field 'connections' is invalid"),
    "an export array of two workflows": (
        [workflow(MANUAL), workflow(MANUAL)],
        "the file is an array of 2 items, not one workflow",
    ),
    "an empty array": ([], "the file is an empty array"),
    "a string": ("workflow", "is not a workflow: expected a JSON object"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_file_exits_2_with_the_fix(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, message = MALFORMED[case]
    file = tmp_path / "wf.json"
    file.write_text(json.dumps(data))
    code, out, err = _weft(capsys, "execute", "--file", str(file))
    assert (code, out) == (2, "")
    assert err.startswith("weft: ") and message in err and str(file) in err


def test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text("{nope")
    assert "is not valid JSON" in _weft(capsys, "execute", "--file", str(tmp_path / "bad.json"))[2]
    assert "there is no such file" in _weft(capsys, "execute", "--file", str(tmp_path / "missing.json"))[2]
    assert "it is a folder" in _weft(capsys, "execute", "--file", str(tmp_path))[2]
    file = tmp_path / "wf.json"
    file.write_text(json.dumps(workflow(MANUAL)))
    code, _, err = _weft(capsys, "execute", "--file", str(file), "--start-node", "Ghost")
    assert code == 2 and "--start-node 'Ghost' is not a node of the workflow (its nodes: 'Start')" in err


def test_an_empty_workflow_gives_no_traceback_in_a_real_process(tmp_path: Path) -> None:
    file = tmp_path / "wf.json"
    file.write_text("{}")
    env = {**os.environ, "WEFT_USER_FOLDER": str(tmp_path / "home")}
    command = [sys.executable, "-m", "weft", "execute", "--file", str(file)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "Missing node to start execution" in result.stderr and "Add a Manual Trigger node" in result.stderr


def test_execute_a_stored_workflow_by_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code_node = node("Items", "n8n-nodes-base.code", {"jsCode": "return [{json: {a: 1}}];"}, version=2)
    data = {**workflow(MANUAL, code_node, connect("Start", "Items")), "id": "wfStored", "name": "Stored"}
    store = open_store(Settings(user_folder=tmp_path / "home"))
    try:
        store.workflows.import_workflow(data)
    finally:
        store.close()
    code, out, err = _weft(capsys, "execute", "--id=wfStored", "--rawOutput")
    assert code == 0, err
    run = json.loads(out)
    assert run["mode"] == "cli" and run["data"]["resultData"]["lastNodeExecuted"] == "Items"
    assert _weft(capsys, "execute", "--id", "wfStored")[1].splitlines()[-2:] == [
        "Output of 'Items' (1 item):",
        '  {"a": 1}',
    ]
    store = open_store(Settings(user_folder=tmp_path / "home"))
    try:
        assert {(e.workflow_id, e.mode) for e in store.executions.list()} == {("wfStored", "cli")}
    finally:
        store.close()
    code, out, err = _weft(capsys, "execute", "--id=nope")
    assert (code, out) == (2, "") and 'The workflow with the id "nope" does not exist.' in err


def test_a_file_without_connections_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "wf.json"
    file.write_text(json.dumps({"nodes": [MANUAL]}))
    code, out, _ = _weft(capsys, "execute", "--file", str(file), "--json")
    assert code == 0 and json.loads(out)["status"] == "success"
