"""``weft import:workflow``, ``export:workflow``, ``import:credentials`` and ``execute`` recording, in real
subprocesses against one user folder (SQLite), with no server running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from weft.services.import_export import open_store
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _weft(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WEFT_USER_FOLDER": str(folder)}
    env.pop("WEFT_DATABASE_URL", None)
    return subprocess.run([sys.executable, "-m", "weft", *args], capture_output=True, text=True, timeout=60, env=env)


def _stored(folder: Path) -> Any:
    return open_store(Settings(user_folder=folder))


def test_import_activate_and_export_round_trip(tmp_path: Path) -> None:
    result = _weft(tmp_path, "import:workflow", "--input", str(EXAMPLES / "webhook_set_respond.json"), "--activate")
    assert result.returncode == 0, result.stderr
    assert "Imported workflow bnchW1webhook001 'W1 webhook set respond' (active)" in result.stdout
    store = _stored(tmp_path)
    try:
        assert [w.path for w in store.webhooks.list(workflow_id="bnchW1webhook001")] == ["bench"]
    finally:
        store.close()
    out = tmp_path / "out.json"
    assert _weft(tmp_path, "export:workflow", "--id", "bnchW1webhook001", "--output", str(out)).returncode == 0
    exported = json.loads(out.read_text())
    original = json.loads((EXAMPLES / "webhook_set_respond.json").read_text())
    assert exported["nodes"] == original["nodes"] and exported["active"] is True
    everything = json.loads(_weft(tmp_path, "export:workflow").stdout)
    assert [w["id"] for w in everything] == ["bnchW1webhook001"]


def test_import_a_folder_with_separate(tmp_path: Path) -> None:
    folder = tmp_path / "wfs"
    folder.mkdir()
    for index in range(2):
        data = workflow(node("Start", "n8n-nodes-base.manualTrigger"))
        (folder / f"{index}.json").write_text(json.dumps({**data, "id": f"wf{index}", "name": f"W{index}"}))
    result = _weft(tmp_path, "import:workflow", "--separate", "--input", str(folder))
    assert result.returncode == 0 and result.stdout.count("(inactive)") == 2


def test_import_credentials_and_errors(tmp_path: Path) -> None:
    file = tmp_path / "creds.json"
    file.write_text(
        json.dumps([{"id": "c1", "name": "Key", "type": "httpHeaderAuth", "data": {"name": "X", "value": "v"}}])
    )
    result = _weft(tmp_path, "import:credentials", "--input", str(file))
    assert result.returncode == 0 and "Imported credential c1 'Key' (httpHeaderAuth)" in result.stdout
    store = _stored(tmp_path)
    try:
        credential = store.credentials.get("c1")
        assert credential is not None and credential.data == {"name": "X", "value": "v"}
    finally:
        store.close()
    bad = _weft(tmp_path, "import:workflow", "--input", str(tmp_path / "missing.json"))
    assert bad.returncode == 2 and "Cannot read workflow file" in bad.stderr


def test_execute_records_its_execution_in_mode_cli(tmp_path: Path) -> None:
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Items", position=(200, 0)),
        connect("Start", "Items"),
        pin_data={"Items": [{"json": {"a": 1}}]},
    )
    file = tmp_path / "wf.json"
    file.write_text(json.dumps(data))
    result = _weft(tmp_path, "execute", "--file", str(file), "--json")
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)
    assert run["status"] == "success" and run["mode"] == "cli"
    store = _stored(tmp_path)
    try:
        [stored] = store.executions.list()
        assert stored.mode == "cli" and stored.status == "success"
    finally:
        store.close()


def test_execute_with_a_stored_credential_records_the_run(tmp_path: Path) -> None:
    """An agent whose model needs a credential: the CLI run opens the store for it and records the execution."""
    from weft.testing import OracleOpenAIServer

    case = Path(__file__).resolve().parents[1] / "recorded" / "cases" / "a001-calculator-tool"
    script = json.loads((case / "llm_script.json").read_text())
    with OracleOpenAIServer(script) as model:
        creds = tmp_path / "creds.json"
        data = {"apiKey": "sk-test", "url": model.base_url, "header": False}
        creds.write_text(
            json.dumps(
                [{"id": "accFakeOpenAi0001", "name": "Fake OpenAI (acceptance)", "type": "openAiApi", "data": data}]
            )
        )
        assert _weft(tmp_path, "import:credentials", "--input", str(creds)).returncode == 0
        result = _weft(tmp_path, "execute", "--file", str(case / "workflow.json"), "--json")
        assert result.returncode == 0, result.stderr
        assert len(model.log) == 2
    run = json.loads(result.stdout)
    agent = run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0][0]["json"]
    assert agent["output"] == '12 * 12 = [{"response":"144"}]'
    store = _stored(tmp_path)
    try:
        assert [(e.mode, e.status) for e in store.executions.list()] == [("cli", "success")]
    finally:
        store.close()
