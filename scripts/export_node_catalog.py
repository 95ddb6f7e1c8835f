#!/usr/bin/env python3
"""Export the list of every node type n8n ships into ``src/weft/nodes/n8n_node_types.json``.

For each type of ``n8n-nodes-base`` and ``@n8n/n8n-nodes-langchain`` in the given n8n installs: its display name,
every ``typeVersion`` any of them ships, whether it is declarative (its description has ``requestDefaults`` or a
property with ``routing``: n8n's ``RoutingNode`` runs it from the description alone), a trigger (group
``trigger``), usable as a tool, and its credential types. ``weft nodes`` compares this list with what Weft runs.
Run by hand, like ``scripts/export_node_descriptions.py``, never by tests:

    python scripts/export_node_catalog.py ~/anchors/n8n/latest/node_modules ~/anchors/n8n/node_modules
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_node_descriptions import _number, _versions, load_n8n  # one reader of n8n's JSON

OUT = Path(__file__).resolve().parent.parent / "src" / "weft" / "nodes" / "n8n_node_types.json"


def _declarative(entry: dict[str, Any]) -> bool:
    return "requestDefaults" in entry or any("routing" in p for p in entry.get("properties", []))


def merge(sources: list[tuple[str, dict[str, list[dict[str, Any]]]]]) -> dict[str, dict[str, Any]]:
    """``{type: summary}`` over every n8n given; the first source names and describes a type."""
    types: dict[str, dict[str, Any]] = {}
    for _, by_type in sources:
        for name, entries in by_type.items():
            summary = types.setdefault(
                name,
                {
                    "displayName": entries[0].get("displayName", name),
                    "versions": set(),
                    "declarative": False,
                    "trigger": "trigger" in entries[0].get("group", []),
                    "usableAsTool": False,
                    "credentials": set(),
                    "versioned": False,
                },
            )
            # n8n's VersionedNodeType: a class per version range, one nodes.json entry each. n8n refuses a
            # typeVersion none of them has; a single class runs at any typeVersion a workflow names.
            summary["versioned"] |= len(entries) > 1
            for entry in entries:
                summary["versions"].update(_versions(entry))
                summary["declarative"] |= _declarative(entry)
                summary["usableAsTool"] |= bool(entry.get("usableAsTool"))
                summary["credentials"].update(c["name"] for c in entry.get("credentials") or [] if "name" in c)
    for summary in types.values():
        summary["versions"] = [_number(v) for v in sorted(summary["versions"])]
        summary["credentials"] = sorted(summary["credentials"])
    return dict(sorted(types.items()))


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    sources = [load_n8n(Path(arg).expanduser()) for arg in argv]
    data = {"n8nVersions": [version for version, _ in sources], "types": merge(sources)}
    lines = [
        f"{json.dumps(name)}: {json.dumps(summary, ensure_ascii=False)}" for name, summary in data["types"].items()
    ]
    head = json.dumps(data["n8nVersions"])
    OUT.write_text(f'{{"n8nVersions": {head}, "types": {{\n' + ",\n".join(lines) + "\n}}\n", encoding="utf-8")
    print(f"{len(data['types'])} node types written to {OUT} ({OUT.stat().st_size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
