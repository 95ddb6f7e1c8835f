"""Write ``tests/workflows/public_sample.json``: which node types (and versions) public n8n workflows use.

The sample is every workflow JSON of the given git repositories (a fixed commit each; with ``:N`` only one file in
N of a repository, chosen by the order of paths) that n8n 2.41 itself imports (workflows whose connections name
missing nodes are left out: n8n refuses them), kept as derived facts only: for each workflow its source
(``owner/name@commit:path``), the ``[type, typeVersion]`` of each node and the connections between them by node
index. No names, parameters or texts are copied. ``tests/workflows/test_public_sample.py`` rebuilds each skeleton
as a workflow and loads and validates it; this script also loads and validates the full workflows with Weft and
prints both shares, so the skeleton measure can be checked against the real one.

Usage: ``python scripts/sample_public_workflows.py owner/name=/path/to/git-dir[:N] ...``
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/workflows/public_sample.json"


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, text=True, check=True).stdout


def _workflows(repo: str, git_dir: str, every: int) -> list[tuple[str, dict[str, Any]]]:
    commit = _git(git_dir, "rev-parse", "HEAD").strip()
    paths = sorted(p for p in _git(git_dir, "ls-tree", "-r", "--name-only", commit).splitlines() if p.endswith(".json"))
    found = []
    for path in paths:
        try:
            data = json.loads(_git(git_dir, "show", f"{commit}:{path}"))
        except (ValueError, subprocess.CalledProcessError):
            continue
        if isinstance(data, dict) and isinstance(data.get("nodes"), list) and data["nodes"]:
            found.append((f"{repo}@{commit[:12]}:{path}", data))
    return found[::every]


def _refused_by_n8n(data: dict[str, Any]) -> bool:
    """n8n 2.41 refuses to import a workflow whose connections name nodes it lacks ("Workflow structure is
    invalid ... unknown_connection_source"); some collections key connections by node id."""
    names = {node.get("name") for node in data["nodes"] if isinstance(node, dict)}
    connections = data.get("connections") or {}
    if not isinstance(connections, dict):
        return True
    for source, by_type in connections.items():
        if source not in names or not isinstance(by_type, dict):
            return True
        for outputs in by_type.values():
            for conns in outputs or []:
                if any(isinstance(c, dict) and c.get("node") not in names for c in conns or []):
                    return True
    return False


def _skeleton(source: str, data: dict[str, Any]) -> dict[str, Any]:
    """The workflow's node types and versions and its connections between them by node index."""
    kept = [n for n in data["nodes"] if isinstance(n, dict) and n.get("type") != "n8n-nodes-base.stickyNote"]
    index = {node.get("name"): i for i, node in enumerate(kept)}
    nodes = [[str(node.get("type")), node.get("typeVersion", 1)] for node in kept]
    edges = []
    for name, by_type in (data.get("connections") or {}).items():
        for kind, outputs in by_type.items():
            for output, conns in enumerate(outputs or []):
                for conn in conns or []:
                    if name in index and conn.get("node") in index:
                        edges.append([index[name], kind, output, index[conn["node"]], conn.get("index", 0)])
    return {"source": source, "nodes": nodes, "connections": edges}


def _validates(data: dict[str, Any]) -> bool:
    from weft.nodes.registry import default_registry
    from weft.workflow import parse_workflow, validate_workflow

    try:
        validate_workflow(parse_workflow(data), default_registry())
    except Exception:
        return False
    return True


def main(args: list[str]) -> None:
    from weft.nodes.coverage import skeleton_loads
    from weft.nodes.registry import default_registry

    sample: list[dict[str, Any]] = []
    validated = 0
    for arg in args:
        repo, _, rest = arg.partition("=")
        git_dir, _, every = rest.partition(":") if rest.count(":") else (rest, "", "1")
        for source, data in _workflows(repo, git_dir, int(every or 1)):
            if _refused_by_n8n(data):
                continue
            sample.append(_skeleton(source, data))
            validated += _validates(data)
    OUT.write_text(json.dumps({"workflows": sample}, indent=0, sort_keys=True) + "\n")
    derived = sum(skeleton_loads(default_registry(), w) for w in sample)
    print(f"{len(sample)} workflows; load and validate: {validated} ({validated / len(sample):.1%});"
          f" as skeletons: {derived} ({derived / len(sample):.1%})")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
