"""Write ``src/weft/nodes/credential_types.json``: n8n's descriptions of the credential types Weft uses.

The types: every ``credentials`` entry of every registered node type and of the n8n node descriptions in
``src/weft/nodes/descriptions/``, every generic-auth type (what HTTP Request's "Generic Credential Type"
offers) and the types these extend. Each is n8n's own description from ``dist/types/credentials.json`` of
``n8n-nodes-base`` and ``@n8n/n8n-nodes-langchain`` (the first ``node_modules`` folder given wins), with n8n's
domain restriction fields injected as n8n's loader does (``injectDomainRestrictionFields``). The JSON schemas
of the public API's ``GET /credentials/schema/{type}`` (n8n's recorded answers) are kept from the file's
current ``jsonSchema`` entries. A type whose ``authenticate`` or ``preAuthentication`` is a JavaScript function (which
``credentials.json`` drops) gets ``{"$function": name, "sha": hash of its source}`` there, read by Node.js from the
credential classes of the first folder: the key of its Python port in :mod:`weft.nodes.routing.ports`.

Usage: ``python scripts/export_credential_types.py ~/anchors/n8n/latest/node_modules [more node_modules...]``
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src/weft/nodes/credential_types.json"
DESCRIPTIONS = ROOT / "src/weft/nodes/descriptions"
PACKAGES = ("n8n-nodes-base", "@n8n/n8n-nodes-langchain")
KEPT = ("name", "displayName", "documentationUrl", "extends", "genericAuth", "properties", "test", "authenticate")
_GRAPHQL = "when used in the HTTP Request or GraphQL node"
DOMAIN_FIELDS: list[dict[str, Any]] = [
    {
        "displayName": "Allowed HTTP Request Domains",
        "name": "allowedHttpRequestDomains",
        "type": "options",
        "options": [
            {
                "name": "All",
                "value": "all",
                "description": "Allow all requests when used in the HTTP Request or GraphQL node",
            },
            {"name": "Specific Domains", "value": "domains", "description": "Restrict requests to specific domains"},
            {
                "name": "None",
                "value": "none",
                "description": "Block all requests when used in the HTTP Request or GraphQL node",
            },
        ],
        "default": "all",
        "description": "Control which domains this credential can be used with in HTTP Request or GraphQL nodes",
    },
    {
        "displayName": "Allowed Domains",
        "name": "allowedDomains",
        "type": "string",
        "default": "",
        "placeholder": "example.com, *.subdomain.com",
        "description": "Comma-separated list of allowed domains (supports wildcards with *)",
        "displayOptions": {"show": {"allowedHttpRequestDomains": ["domains"]}},
    },
]


#: Runs in Node.js inside ``n8n-nodes-base``: the function markers of each credential class.
READ_FUNCTIONS_JS = r"""
const path = require('path');
const crypto = require('crypto');
const pkg = require(path.resolve('package.json'));
const mark = (fn) => ({ $function: fn.name || '',
  sha: crypto.createHash('sha256').update(fn.toString().replace(/\s+/g, ' ')).digest('hex').slice(0, 16) });
const out = {};
for (const file of pkg.n8n.credentials) {
  let mod;
  try { mod = require(path.resolve(file)); } catch (e) { continue; }
  for (const Credential of Object.values(mod)) {
    if (typeof Credential !== 'function') continue;
    let c;
    try { c = new Credential(); } catch (e) { continue; }
    const found = {};
    if (typeof c.authenticate === 'function') found.authenticate = mark(c.authenticate);
    if (typeof c.preAuthentication === 'function') found.preAuthentication = mark(c.preAuthentication);
    if (c.name && Object.keys(found).length) out[c.name] = found;
  }
}
process.stdout.write(JSON.stringify(out));
"""


def _functions(folder: Path) -> dict[str, dict[str, Any]]:
    """``{type: {"authenticate"|"preAuthentication": marker}}`` for the types whose recipe is code."""
    root = folder / "n8n-nodes-base"
    done = subprocess.run(["node", "-e", READ_FUNCTIONS_JS], cwd=root, capture_output=True, text=True, check=True)
    found: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return found


def _n8n_types(folders: list[Path]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for folder in reversed(folders):  # the first folder given wins
        for package in PACKAGES:
            path = folder / package / "dist/types/credentials.json"
            if path.exists():
                found.update({c["name"]: c for c in json.loads(path.read_text())})
    return found


def _used_names() -> set[str]:
    from weft.nodes.registry import default_registry

    registry = default_registry()
    names: set[str] = set()
    for type_name in registry.names():
        cls = registry.type_class(type_name)
        if cls is not None:
            names.update(cls.description.credentials)
    for path in DESCRIPTIONS.glob("*.json"):
        for description in json.loads(path.read_text()).get("descriptions", []):
            names.update(c["name"] for c in description.get("credentials") or [])
    return names


def _inject_domain_fields(entry: dict[str, Any]) -> None:
    """n8n's ``shouldInjectDomainRestrictionFields``: types that authenticate requests get the two fields."""
    extends = entry.get("extends") or []
    if entry.get("hideDomainRestrictionFields"):
        return
    if (
        "authenticate" in entry
        or entry.get("genericAuth")
        or {"oAuth2Api", "oAuth1Api", "googleOAuth2Api"} & set(extends)
    ):
        if not any(p.get("name") == "allowedHttpRequestDomains" for p in entry["properties"]):
            entry["properties"] = [*entry["properties"], *DOMAIN_FIELDS]


def export(folders: list[Path]) -> dict[str, dict[str, Any]]:
    """The credential types Weft uses, by name."""
    n8n = _n8n_types(folders)
    functions = _functions(folders[0])
    wanted = _used_names() | {name for name, c in n8n.items() if c.get("genericAuth")}
    pending, out = sorted(wanted), {}
    old = json.loads(OUT.read_text()) if OUT.exists() else {}
    while pending:
        name = pending.pop()
        if name in out or name not in n8n:
            continue
        entry = {k: n8n[name][k] for k in KEPT if k in n8n[name]}
        entry.update(functions.get(name, {}))
        _inject_domain_fields(entry)
        if "jsonSchema" in old.get(name, {}):
            entry["jsonSchema"] = old[name]["jsonSchema"]
        out[name] = entry
        pending.extend(entry.get("extends") or [])
    return dict(sorted(out.items()))


if __name__ == "__main__":
    data = export([Path(arg).expanduser() for arg in sys.argv[1:]])
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(data)} credential types -> {OUT.relative_to(ROOT)}")
