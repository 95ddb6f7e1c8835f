"""The ``weft`` commands without ``WEFT_DEMO_NODES``: a workflow on a demo model is refused (exit 2) naming the node
type and the setting, and ``scripts/demo`` (the README's first command) turns the setting on for itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from weft.nodes.catalog import DEMO_NODE_TYPES

ROOT = Path(__file__).resolve().parents[2]
DEMO_SCRIPT = ROOT / "scripts" / "demo"
AGENT_DEMO = ROOT / "examples" / "agent_demo.json"


def _weft(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``weft`` in a subprocess on a fresh user folder, with ``WEFT_DEMO_NODES`` only as given in ``env``."""
    base = {k: v for k, v in os.environ.items() if k not in ("WEFT_DEMO_NODES", "WEFT_DATABASE_URL")}
    full = {**base, "WEFT_USER_FOLDER": str(tmp_path), **env}
    command = [sys.executable, "-m", "weft", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=full, cwd=ROOT)


def test_without_the_setting_a_demo_model_workflow_is_refused_naming_type_and_setting(tmp_path: Path) -> None:
    result = _weft(tmp_path, "execute", "--file", str(AGENT_DEMO))
    assert result.returncode == 2 and result.stdout == ""
    assert "Traceback" not in result.stderr
    assert "'weft.lmChatDemo' (Demo Chat Model)" in result.stderr and "WEFT_DEMO_NODES=true" in result.stderr


def test_a_setting_that_is_not_a_boolean_is_named(tmp_path: Path) -> None:
    result = _weft(tmp_path, "execute", "--file", str(AGENT_DEMO), WEFT_DEMO_NODES="maybe")
    assert result.returncode == 2
    assert "WEFT_DEMO_NODES='maybe' is not a boolean" in result.stderr and "Traceback" not in result.stderr


def _demo_script_env() -> dict[str, str]:
    """What ``scripts/demo`` exports before it runs ``weft execute``."""
    lines = DEMO_SCRIPT.read_text(encoding="utf-8").splitlines()
    run = next(i for i, line in enumerate(lines) if line.startswith("exec .venv/bin/weft execute"))
    exports = [line.removeprefix("export ").split("=", 1) for line in lines[:run] if line.startswith("export ")]
    return {name: value for name, value in exports}


def test_the_demo_script_turns_the_setting_on_and_its_workflow_runs_on_the_mock_model(tmp_path: Path) -> None:
    env = _demo_script_env()
    assert env == {"WEFT_DEMO_NODES": "true"}
    result = _weft(tmp_path, "execute", "--file", str(AGENT_DEMO), "--json", **env)
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)
    assert run["status"] == "success" and run["data"]["resultData"]["lastNodeExecuted"] == "AI Agent"
    output = run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0][0]["json"]["output"]
    assert "Calculator returned" in output and "83810205" in output


def test_weft_nodes_lists_n8ns_types_only_so_never_the_demo_models(tmp_path: Path) -> None:
    for env in ({}, {"WEFT_DEMO_NODES": "true"}):
        result = _weft(tmp_path, "nodes", "--json", **env)
        assert result.returncode == 0, result.stderr
        assert not {row["type"] for row in json.loads(result.stdout)} & set(DEMO_NODE_TYPES)
