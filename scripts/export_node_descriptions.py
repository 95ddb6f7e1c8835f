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
Weft-only models).

Declarative types (n8n's ``RoutingNode`` runs them from their description: ``requestDefaults`` and properties'
``routing``) of ``n8n-nodes-base`` that Weft does not implement natively are written too, with ``"declarative":
true``: each version n8n runs from its description (a version with an ``execute`` method is n8n's own code and
left out), read by Node.js from the node classes themselves, because ``nodes.json`` drops the JavaScript
functions a description holds (``preSend``, ``postReceive``, ``pagination``). Each function becomes
``{"$function": name, "sha": hash of its source}``, the key of its Python port in :mod:`weft.nodes.routing.ports`.
``src/weft/nodes/routing/declarative_types.json`` lists these types and versions for the registry. Run by hand,
like ``scripts/record_cases``, never by tests:

    python scripts/export_node_descriptions.py ~/anchors/n8n/latest/node_modules ~/anchors/n8n/node_modules
"""

from __future__ import annotations

import json
import subprocess
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
    "requestOperations",  # declarative nodes: pagination for every operation
)
DECLARATIVE_INDEX = OUT.parent / "routing" / "declarative_types.json"
CATALOG = OUT.parent / "n8n_node_types.json"
#: Runs in Node.js inside an n8n install's ``n8n-nodes-base``: the description of each wanted node type and
#: version, functions replaced by markers, and whether n8n runs the version with its own ``execute``.
READ_CLASSES_JS = r"""
const path = require('path');
const crypto = require('crypto');
const pkg = require(path.resolve('package.json'));
const want = new Set(JSON.parse(process.argv[1]));
const out = {};
// n8n's loader adds the "Request Options" property (batching, proxy, timeout…) to every declarative node
const loader = require.resolve('n8n-core/dist/nodes-loader/directory-loader', { paths: [process.cwd()] });
const { DirectoryLoader } = require(loader);
const mark = (fn) => ({ $function: fn.name || '',
  sha: crypto.createHash('sha256').update(fn.toString().replace(/\s+/g, ' ')).digest('hex').slice(0, 16) });
for (const file of pkg.n8n.nodes) {
  let mod;
  try { mod = require(path.resolve(file)); } catch (e) { continue; }
  for (const NodeClass of Object.values(mod)) {
    if (typeof NodeClass !== 'function') continue;
    let node;
    try { node = new NodeClass(); } catch (e) { continue; }
    const name = node.description && node.description.name;
    if (!want.has(name) || out[name]) continue;
    const versions = node.nodeVersions ? Object.values(node.nodeVersions) : [node];
    for (const v of versions) DirectoryLoader.applyDeclarativeNodeOptionParameters(v);
    out[name] = versions.map((v) => ({
      execute: typeof v.execute === 'function',
      description: JSON.parse(JSON.stringify(v.description, (k, val) => (typeof val === 'function' ? mark(val) : val))),
    }));
  }
}
process.stdout.write(JSON.stringify(out));
"""

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


def declarative_names() -> list[str]:
    """The ``n8n-nodes-base`` types n8n marks declarative (``n8n_node_types.json``)."""
    types = json.loads(CATALOG.read_text())["types"]
    return [name for name, summary in types.items() if summary["declarative"] and name.startswith("n8n-nodes-base.")]


def load_declarative(node_modules: Path, names: list[str]) -> dict[str, list[Entry]]:
    """The declarative versions of ``names`` in one install, functions marked (see the module docstring)."""
    root = node_modules / "n8n-nodes-base"
    wanted = json.dumps([name.split(".", 1)[1] for name in names])
    done = subprocess.run(
        ["node", "-e", READ_CLASSES_JS, wanted], cwd=root, capture_output=True, text=True, check=True, timeout=600
    )
    found: dict[str, list[Entry]] = {}
    for short, versions in json.loads(done.stdout).items():
        entries = [v["description"] for v in versions if not v["execute"]]
        if entries:
            found[f"n8n-nodes-base.{short}"] = entries
    return found


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
    native = [name for name in registry.names() if not getattr(registry.type_class(name), "declarative", False)]
    for name in native:
        cls = registry.type_class(name)
        if cls is None:
            continue
        data, missing = describe(name, cls.description.versions, sources)
        if missing:
            print(f"{name}: no n8n description of version(s) {', '.join(f'{v:g}' for v in missing)}")
        written.update(_write(name, data))
    written.update(_write_declarative([n for n in declarative_names() if n not in native], argv, sources))
    for stale in OUT.glob("*.json"):
        if stale.name not in written and not _hand_written(stale):
            stale.unlink()
    size = sum(p.stat().st_size for p in OUT.glob("*.json"))
    print(f"{len(written)} types written to {OUT} ({size / 1e6:.2f} MB in all)")
    return 0


def _write(name: str, data: Entry) -> set[str]:
    path = OUT / f"{name.replace('/', '+')}.json"
    if not data["descriptions"] or _hand_written(path):
        return set()
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return {path.name}


def _write_declarative(
    names: list[str], argv: list[str], sources: list[tuple[str, dict[str, list[Entry]]]]
) -> set[str]:
    """Each declarative type's versions from the newest n8n that runs them from the description."""
    classes = [
        (version, load_declarative(Path(arg).expanduser(), names))
        for arg, (version, _) in zip(argv, sources, strict=True)
    ]
    written: set[str] = set()
    index: dict[str, Entry] = {}
    for name in names:
        versions = sorted({v for _, by_type in classes for entry in by_type.get(name, []) for v in _versions(entry)})
        if not versions:
            continue
        data, _ = describe(name, tuple(versions), classes)
        data["declarative"] = True
        written.update(_write(name, data))
        first = data["descriptions"][-1]
        index[name] = {"displayName": first.get("displayName", name), "versions": [_number(v) for v in versions]}
    DECLARATIVE_INDEX.write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(index)} declarative types listed in {DECLARATIVE_INDEX}")
    return written


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
