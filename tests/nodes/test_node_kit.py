"""The node developer's kit (docs/node-kit.md): the example package in examples/node-package is installed with pip
and its node runs in ``weft execute``; broken packages are errors that name the package."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "node-package"
SEED = "return [{json: {name: 'Ada'}}, {json: {name: 'Grace'}}];"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example package, installed by pip into a folder of its own (put on PYTHONPATH to use it)."""
    target = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("source") / "node-package"  # a copy: the build leaves files beside the source
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    command += ["--no-index", "--target", str(target), str(source)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=source)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (target / "weft_node_example" / "greet.py").exists()
    return target


def _workflow(node_type: str, parameters: dict[str, Any]) -> dict[str, Any]:
    nodes = [
        {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0],
         "parameters": {}},
        {"name": "Seed", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0],
         "parameters": {"jsCode": SEED}},
        {"name": "Greet", "type": node_type, "typeVersion": 1, "position": [400, 0], "parameters": parameters},
    ]  # fmt: skip
    connections = {
        "Start": {"main": [[{"node": "Seed", "type": "main", "index": 0}]]},
        "Seed": {"main": [[{"node": "Greet", "type": "main", "index": 0}]]},
    }
    return {"name": "kit", "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}


def _weft_execute(tmp_path: Path, flow: dict[str, Any], *python_path: Path) -> subprocess.CompletedProcess[str]:
    file = tmp_path / "workflow.json"
    file.write_text(json.dumps(flow))
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(tmp_path / "home"),
        "PYTHONPATH": os.pathsep.join(map(str, python_path)),
    }
    command = [sys.executable, "-m", "weft", "execute", "--file", str(file), "--json"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


def test_the_installed_package_s_node_runs_in_weft_execute(installed: Path, tmp_path: Path) -> None:
    done = _weft_execute(tmp_path, _workflow("weft-node-example.greet", {"greeting": "Hi"}), installed)
    assert done.returncode == 0, done.stderr[-2000:]
    run = json.loads(done.stdout)
    items = run["data"]["resultData"]["runData"]["Greet"][0]["data"]["main"][0]
    assert [item["json"]["greeting"] for item in items] == ["Hi, Ada!", "Hi, Grace!"]
    assert [item["pairedItem"] for item in items] == [{"item": 0}, {"item": 1}]


def test_the_example_package_s_own_tests_pass(installed: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, cwd=EXAMPLE)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "3 passed" in done.stdout


def _broken_package(folder: Path, name: str, module_source: str, entry: str) -> Path:
    """A package as pip leaves it: a module and its ``.dist-info`` with the ``weft.nodes`` entry point."""
    (folder / f"{name}.py").write_text(module_source)
    info = folder / f"{name.replace('_', '-')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[weft.nodes]\nnodes = {entry}\n")
    return folder


BARE_NODE = """from weft.nodes import NodeType
class Bare(NodeType):
    async def execute(self, ctx):
        return []
NODES = [Bare]
"""


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("raise RuntimeError('boom at import')\n", "cannot be loaded: RuntimeError: boom at import"),
        (BARE_NODE, "offers Bare, which has no NodeDescription as 'description'"),
        ("NODES = 42\n", "gives int, not a NodeType class, a list of them or a mapping"),
    ],
)
def test_a_broken_package_is_an_error_naming_it(tmp_path: Path, source: str, why: str) -> None:
    (tmp_path / "site").mkdir()
    site = _broken_package(tmp_path / "site", "broken_nodes", source, "broken_nodes:NODES")
    done = _weft_execute(tmp_path, _workflow("broken-nodes.thing", {}), site)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    named = "The node package 'broken-nodes' is broken: its 'weft.nodes' entry point 'nodes' (broken_nodes:NODES)"
    assert named in done.stderr
    assert why in done.stderr
    assert "pip uninstall broken-nodes" in done.stderr
