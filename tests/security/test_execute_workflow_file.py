"""Finding: Execute Workflow with source ``localFile`` ignored ``WEFT_RESTRICT_FILE_ACCESS_TO``. A workflow could run
a workflow file planted anywhere on the disk, and its errors told which files exist and whether one holds a
workflow (``could not be found`` / ``is not valid JSON: …`` / ``does not hold a workflow``): an oracle for probing
the disk. Now the node checks the path as the file nodes do (allowed folders, Weft's own folder, blocked patterns)
and answers every refused path with n8n 2.41's "Access to the workflow file path is not allowed", whatever is
there; inside the allowed folders it loads at most 16 MiB.

The attacker writes workflows; the instance runs them with the options the runner builds from its settings.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.security.conftest import Server

from weft.engine import EngineOptions, run_workflow
from weft.engine.services import LocalServices
from weft.nodes.files.options import file_options
from weft.nodes.files.workflow_file import MAX_WORKFLOW_FILE_SIZE
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow

REFUSED = "Access to the workflow file path is not allowed"
MARK = {"assignments": {"assignments": [{"id": "1", "name": "ran", "value": True, "type": "boolean"}]}}


def _planted_workflow() -> dict[str, Any]:
    """A valid sub-workflow: the attacker wants it to run (it marks the items ``ran``)."""
    return workflow(
        node("In", "n8n-nodes-base.executeWorkflowTrigger", {"inputSource": "passthrough"}, version=1.1),
        node("Mark", "n8n-nodes-base.set", {**MARK, "includeOtherFields": True, "options": {}}, version=3.4),
        connect("In", "Mark"),
    )


def _caller(path: str) -> dict[str, Any]:
    params = {"source": "localFile", "workflowPath": path}
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Load", "n8n-nodes-base.executeWorkflow", params, version=1.3, position=(200, 0)),
        connect("Start", "Load"),
    )


@pytest.fixture
def disk(tmp_path: Path) -> dict[str, Path]:
    """The allowed folder, a folder outside it with a planted workflow, and Weft's user folder."""
    allowed, outside, home = tmp_path / "allowed", tmp_path / "outside", tmp_path / "home"
    for folder in (allowed, outside, home):
        folder.mkdir()
    (outside / "planted.json").write_text(json.dumps(_planted_workflow()))
    (outside / "notes.txt").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (home / "planted.json").write_text(json.dumps(_planted_workflow()))
    (allowed / "sub.json").write_text(json.dumps(_planted_workflow()))
    (allowed / "link.json").symlink_to(outside / "planted.json")
    (outside / "huge.json").touch()
    os.truncate(outside / "huge.json", MAX_WORKFLOW_FILE_SIZE + 1)  # sparse: no disk used
    return {"allowed": allowed, "outside": outside, "home": home}


async def _run(disk: dict[str, Path], path: str, restrict_to: str | None = None) -> Any:
    restrict = str(disk["allowed"]) if restrict_to is None else restrict_to
    settings = Settings(user_folder=disk["home"], restrict_file_access_to=restrict)
    options = EngineOptions(**file_options(settings))  # what the server's runner builds from its settings
    return await run_workflow(
        _caller(path), trigger_items=[{"json": {"n": 1}}], services=LocalServices(options=options), options=options
    )


def _error(run: Any) -> dict[str, Any]:
    assert run["status"] == "error"
    assert "Mark" not in run["data"]["resultData"]["runData"]  # the planted workflow did not run
    error: dict[str, Any] = run["data"]["resultData"]["error"]
    return error


def _outside_paths(disk: dict[str, Path]) -> dict[str, str]:
    outside = disk["outside"]
    return {
        "passwd": "/etc/passwd",
        "passwd-like": str(outside / "notes.txt"),
        "planted workflow": str(outside / "planted.json"),
        "missing file": str(outside / "missing.json"),
        "missing folder": str(outside / "no" / "such" / "wf.json"),
        "folder": str(outside),
        "too large": str(outside / "huge.json"),
        "climbing out": str(disk["allowed"] / ".." / "outside" / "planted.json"),
        "link out": str(disk["allowed"] / "link.json"),
        "nul byte": str(outside / "planted.json") + "\0",
    }


async def test_paths_outside_the_allowed_folder_are_refused_alike(disk: dict[str, Path]) -> None:
    errors = {name: _error(await _run(disk, path)) for name, path in _outside_paths(disk).items()}
    seen = {(e["message"], e.get("description"), e.get("node", {}).get("name")) for e in errors.values()}
    assert len(seen) == 1, errors  # existing, missing, a folder, not JSON, a workflow: the caller cannot tell
    message, description, node_name = seen.pop()
    assert message == REFUSED
    assert node_name == "Load"
    assert description is not None and "WEFT_RESTRICT_FILE_ACCESS_TO" in description


async def test_weft_own_folder_is_refused_even_when_files_may_be_anywhere(disk: dict[str, Path]) -> None:
    anywhere = await _run(disk, str(disk["outside"] / "planted.json"), restrict_to="")
    assert anywhere["status"] == "success"  # WEFT_RESTRICT_FILE_ACCESS_TO="" lifts the folder restriction …
    for name in ("planted.json", "missing.json"):  # … but not the block on Weft's own files
        assert _error(await _run(disk, str(disk["home"] / name), restrict_to=""))["message"] == REFUSED


async def test_the_allowed_folder_still_works(disk: dict[str, Path]) -> None:
    run = await _run(disk, str(disk["allowed"] / "sub.json"))
    assert run["status"] == "success"
    out = run["data"]["resultData"]["runData"]["Load"][0]["data"]["main"][0]
    assert [item["json"] for item in out] == [{"n": 1, "ran": True}]
    missing = _error(await _run(disk, str(disk["allowed"] / "missing.json")))
    assert missing["message"] == f'The file "{disk["allowed"] / "missing.json"}" could not be found, [item 0]'


async def test_a_file_that_is_not_json_is_not_echoed(disk: dict[str, Path]) -> None:
    secret = disk["allowed"] / "secret.txt"
    secret.write_text("API_TOKEN=hunter2\n")
    error = _error(await _run(disk, str(secret)))
    assert error["message"] == "The file content is not valid JSON"  # n8n 2.41's words
    assert "hunter2" not in json.dumps(error)


async def test_a_workflow_file_larger_than_the_cap_is_refused(disk: dict[str, Path]) -> None:
    big = disk["allowed"] / "big.json"
    big.touch()
    os.truncate(big, MAX_WORKFLOW_FILE_SIZE + 1)  # sparse: no disk used
    error = _error(await _run(disk, str(big)))
    assert error["message"] == f'The file "{big}" is too large for node "Load": a workflow file may hold at most 16 MiB'
    exactly = disk["allowed"] / "exactly.json"  # the cap itself is allowed (and then parsed)
    exactly.write_bytes(b" " * (MAX_WORKFLOW_FILE_SIZE - 2) + b"{}")
    assert _error(await _run(disk, str(exactly)))["message"] == f'The file "{exactly}" does not hold a workflow'


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
async def test_a_pipe_in_the_allowed_folder_is_not_read_forever(disk: dict[str, Path]) -> None:
    pipe = disk["allowed"] / "pipe.json"
    os.mkfifo(pipe)
    error = _error(await _run(disk, str(pipe)))
    assert error["message"] == "The 'Workflow Path' names a pipe, socket or device, not a file"


def test_the_server_refuses_etc_passwd_and_a_planted_workflow(server: Server, tmp_path: Path) -> None:
    """End to end: a webhook workflow of the attacker's, on a server with the default restriction."""
    planted = tmp_path / "planted.json"
    planted.write_text(json.dumps(_planted_workflow()))
    answers = {}
    for path in ("/etc/passwd", str(planted), str(tmp_path / "missing.json")):
        hook = f"probe-{uuid.uuid4().hex[:8]}"
        server.import_workflow(_probe_workflow(hook, path))
        response = httpx.post(f"{server.url}/webhook/{hook}", json={"n": 1}, timeout=30)
        assert response.status_code == 200, response.text
        answers[path] = response.json()
    assert list(answers.values()) == [{"error": REFUSED}] * 3


def _probe_workflow(hook: str, path: str) -> dict[str, Any]:
    """Webhook → Execute Workflow (``localFile``, continuing on error): the answer is the node's output."""
    hook_params = {"path": hook, "httpMethod": "POST", "responseMode": "lastNode"}
    data = workflow(
        node("Hook", "n8n-nodes-base.webhook", hook_params, version=2),
        node(
            "Load",
            "n8n-nodes-base.executeWorkflow",
            {"source": "localFile", "workflowPath": path},
            version=1.3,
            position=(200, 0),
            onError="continueRegularOutput",
        ),
        connect("Hook", "Load"),
    )
    data["nodes"][0]["webhookId"] = str(uuid.uuid4())
    data["id"] = uuid.uuid4().hex[:16]
    data["name"] = f"probe {hook}"
    return data
