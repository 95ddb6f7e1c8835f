#!/usr/bin/env python3
"""Export n8n's property descriptions of every node type Weft runs into ``src/weft/nodes/descriptions/``.

n8n ships each node description as JSON (``n8n-nodes-base/dist/types/nodes.json`` and
``@n8n/n8n-nodes-langchain/dist/types/nodes.json``). For every type ``default_registry()`` registers (built-ins
and the ``weft.nodes`` entry-point types) this writes ``<type>.json``: the description of each ``typeVersion``
Weft implements, taken from the newest n8n given that ships it. Versions with identical descriptions share one
entry. Each entry keeps what an editor needs (``displayName``, ``name``, ``version``, ``description``,
``subtitle``, ``defaults``, ``credentials``, ``properties``, ``inputs``/``outputs``: a list, or n8n's
expression string for dynamic ones) and says which n8n it came from (``n8nVersion``).

Types n8n's JSON lacks are left alone: the synthesized ``…Tool`` and ``…HitlTool`` types are derived at load time
(:mod:`weft.nodes.node_properties`), and files whose ``source`` is ``"weft"`` are written by hand (Start, the
Weft-only models). Run by hand, like ``scripts/record_cases``, never by tests:

    python scripts/export_node_descriptions.py ~/anchors/n8n/latest/node_modules ~/anchors/n8n/node_modules
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "src" / "weft" / "nodes" / "descriptions"
PACKAGES = {"n8n-nodes-base": "n8n-nodes-base", "@n8n/n8n-nodes-langchain": "@n8n/n8n-nodes-langchain"}
KEPT = (
    "displayName",
    "name",
    "description",
    "subtitle",
    "defaults",
    "credentials",
    "inputs",
    "outputs",
    "usableAsTool",
    "requestDefaults",  # declarative nodes: the base of every request their properties' routing builds
)

Entry = dict[str, Any]


def _versions(entry: Entry) -> list[float]:
    version = entry.get("version", 1)
    return [float(v) for v in (version if isinstance(version, list) else [version])]


def load_n8n(node_modules: Path) -> tuple[str, dict[str, list[Entry]]]:
    """The n8n version of ``node_modules`` and its descriptions by full type name."""
    found: dict[str, list[Entry]] = {}
    version = ""
    for package, prefix in PACKAGES.items():
        root = node_modules / package
        if not (root / "dist" / "types" / "nodes.json").exists():
            continue
        version = version or json.loads((root / "package.json").read_text())["version"]
        for entry in json.loads((root / "dist" / "types" / "nodes.json").read_text()):
            found.setdefault(f"{prefix}.{entry['name']}", []).append(entry)
    n8n = node_modules / "n8n" / "package.json"
    if n8n.exists():
        version = json.loads(n8n.read_text())["version"]
    return version, found


def _kept(entry: Entry, n8n_version: str) -> Entry:
    kept: Entry = {"n8nVersion": n8n_version}
    for key in KEPT:
        if key in entry:
            kept[key] = entry[key]
    kept["properties"] = entry.get("properties", [])
    return kept


def describe(type_name: str, versions: tuple[float, ...], sources: list[tuple[str, dict[str, list[Entry]]]]) -> Any:
    """``{type, source, descriptions: [...]}`` for ``type_name``, or the versions no n8n ships."""
    groups: list[tuple[str, Entry, list[float]]] = []
    missing: list[float] = []
    for version in versions:
        picked = next(
            (
                (n8n_version, entry)
                for n8n_version, by_type in sources
                for entry in by_type.get(type_name, [])
                if float(version) in _versions(entry)
            ),
            None,
        )
        if picked is None:
            missing.append(version)
            continue
        n8n_version, entry = picked
        kept = _kept(entry, n8n_version)
        key = json.dumps({k: v for k, v in kept.items() if k != "n8nVersion"}, sort_keys=True)
        same = next((g for g in groups if g[0] == key), None)
        if same is None:
            groups.append((key, kept, [version]))
        else:
            same[2].append(version)
    descriptions = [{**kept, "version": [_number(v) for v in vs]} for _, kept, vs in groups]
    return {"type": type_name, "source": "n8n", "descriptions": descriptions}, missing


def _number(version: float) -> float | int:
    return int(version) if float(version).is_integer() else version


def _hand_written(path: Path) -> bool:
    try:
        return bool(json.loads(path.read_text()).get("source") == "weft")
    except (OSError, ValueError):
        return False


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    from weft.nodes.registry import default_registry

    sources = [load_n8n(Path(arg).expanduser()) for arg in argv]
    registry = default_registry()
    OUT.mkdir(parents=True, exist_ok=True)
    written: set[str] = set()
    for name in registry.names():
        cls = registry.type_class(name)
        if cls is None:
            continue
        data, missing = describe(name, cls.description.versions, sources)
        if missing:
            print(f"{name}: no n8n description of version(s) {', '.join(f'{v:g}' for v in missing)}")
        path = OUT / f"{name.replace('/', '+')}.json"
        if not data["descriptions"] or _hand_written(path):
            continue
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.add(path.name)
    for stale in OUT.glob("*.json"):
        if stale.name not in written and not _hand_written(stale):
            stale.unlink()
    size = sum(p.stat().st_size for p in OUT.glob("*.json"))
    print(f"{len(written)} types written to {OUT} ({size / 1e6:.2f} MB in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
