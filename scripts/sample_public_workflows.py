"""Write ``tests/workflows/public_sample.json``: which node types (and versions) public n8n workflows use.

The sample is every workflow JSON of the given git repositories (a fixed commit each; with ``--every N`` only one
file in N of a repository, chosen by the order of paths), kept as derived facts only: for each workflow its source
(``owner/name@commit:path``) and the ``[type, typeVersion]`` of each node. Nothing of the workflows themselves is
copied. ``tests/workflows/test_public_sample.py`` measures from it the share of workflows whose every node Weft
loads at that version (what refuses a real workflow: a missing type); this script also loads and validates the
full workflows with Weft and prints both shares, so the derived measure can be checked against the real one.

Usage: ``python scripts/sample_public_workflows.py owner/name=/path/to/git-dir[:every] ...``
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


def _skeleton(source: str, data: dict[str, Any]) -> dict[str, Any]:
    nodes = [
        [str(node.get("type")), node.get("typeVersion", 1)]
        for node in data["nodes"]
        if isinstance(node, dict) and node.get("type") != "n8n-nodes-base.stickyNote"
    ]
    return {"source": source, "nodes": nodes}


def _validates(data: dict[str, Any]) -> bool:
    from weft.nodes.registry import default_registry
    from weft.workflow import parse_workflow, validate_workflow

    try:
        validate_workflow(parse_workflow(data), default_registry())
    except Exception:
        return False
    return True


def main(args: list[str]) -> None:
    from weft.nodes.coverage import refusals
    from weft.nodes.registry import default_registry

    sample: list[dict[str, Any]] = []
    validated = 0
    for arg in args:
        repo, _, rest = arg.partition("=")
        git_dir, _, every = rest.partition(":") if rest.count(":") else (rest, "", "1")
        for source, data in _workflows(repo, git_dir, int(every or 1)):
            sample.append(_skeleton(source, data))
            validated += _validates(data)
    OUT.write_text(json.dumps({"workflows": sample}, indent=0, sort_keys=True) + "\n")
    derived = sum(not refusals(default_registry(), w["nodes"]) for w in sample)
    print(f"{len(sample)} workflows; load and validate: {validated} ({validated / len(sample):.1%});"
          f" every node type and version known: {derived} ({derived / len(sample):.1%})")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
