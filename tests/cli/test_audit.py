"""``weft audit``: n8n's security audit report (shape, titles, wording) over a real SQLite instance."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from weft.cli import main
from weft.db.store import Store
from weft.services.audit import generate_audit
from weft.services.import_export import open_store
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow

PG = "n8n-nodes-base.postgres"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("WEFT_USER_FOLDER", str(tmp_path))
    monkeypatch.delenv("WEFT_DATABASE_URL", raising=False)
    monkeypatch.delenv("WEFT_ENCRYPTION_KEY", raising=False)
    opened = open_store(Settings(user_folder=tmp_path))
    yield opened
    opened.close()


def _weft(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _sections(report: dict[str, Any], title: str) -> dict[str, list[str]]:
    """Each section's title with the names of what it located."""
    return {
        s["title"]: [x.get("nodeName") or x.get("name") for x in s.get("location", [])]
        for s in report[title]["sections"]
    }


def _seed(store: Store) -> None:
    store.credentials.create("Unused", "httpHeaderAuth", {}, id="credUnused")
    store.credentials.create("Idle", "postgres", {}, id="credIdle")
    store.credentials.create("Live", "httpHeaderAuth", {}, id="credLive")
    sql = node("SQL", PG, {"operation": "executeQuery", "query": "=SELECT {{ $json.id }}"}, version=2.5)
    sql["credentials"] = {"postgres": {"id": "elsewhere", "name": "Idle"}}  # by name, as Weft resolves it
    safe = node("Safe", PG, {"operation": "executeQuery", "query": "SELECT $1", "options": {"queryReplacement": "1"}})
    files = node("Files", "n8n-nodes-base.readWriteFile", {"fileSelector": "/tmp/x"})
    idle = workflow(node("Start", "n8n-nodes-base.manualTrigger"), sql, safe, files, connect("Start", "SQL"))
    store.workflows.import_workflow({**idle, "id": "wfIdle", "name": "Idle"})
    http = node("Call", "n8n-nodes-base.httpRequest", {"url": "http://127.0.0.1/"}, version=4.2)
    http["credentials"] = {"httpHeaderAuth": {"id": "credLive", "name": "renamed since"}}
    open_hook = node("Open", "n8n-nodes-base.webhook", {"path": "open"}, version=2)
    checked_hook = node("Checked", "n8n-nodes-base.webhook", {"path": "checked"}, version=2)
    guarded = node("Guarded", "n8n-nodes-base.webhook", {"path": "g", "authentication": "headerAuth"}, version=2)
    live = workflow(
        open_hook,
        checked_hook,
        guarded,
        http,
        node("If", "n8n-nodes-base.if", version=2),
        connect("Open", "Call"),
        connect("Checked", "If"),
    )
    store.workflows.import_workflow({**live, "id": "wfLive", "name": "Live"}, activate=True)
    store.executions.create({"id": "wfLive"}, "webhook", "running")


def test_the_report_has_n8ns_shape_and_findings(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    _seed(store)
    code, out, err = _weft(capsys, "audit")
    assert code == 0, err
    report = json.loads(out)
    assert list(report) == [
        "Credentials Risk Report",
        "Database Risk Report",
        "Nodes Risk Report",
        "Instance Risk Report",
        "Filesystem Risk Report",
    ]
    assert report["Credentials Risk Report"]["risk"] == "credentials"
    assert _sections(report, "Credentials Risk Report") == {
        "Credentials not used in any workflow": ["Unused"],
        "Credentials not used in any active workflow": ["Unused", "Idle"],
        "Credentials not used in recently executed workflows": ["Unused", "Idle"],
    }
    assert _sections(report, "Database Risk Report") == {
        'Expressions in "Execute Query" fields in SQL nodes': ["SQL"],
        'Unused "Query Parameters" fields in SQL nodes': ["SQL"],
    }
    assert _sections(report, "Nodes Risk Report") == {"Official risky nodes": ["Call"]}
    assert _sections(report, "Filesystem Risk Report") == {"Nodes that interact with the filesystem": ["Files"]}
    instance = _sections(report, "Instance Risk Report")
    assert instance == {"Unprotected webhooks in instance": ["Open"], "Security settings": []}
    [credentials] = [s for s in report["Credentials Risk Report"]["sections"] if "any workflow" in s["title"]]
    assert credentials == {
        "title": "Credentials not used in any workflow",
        "description": "This credential is not used in any workflow. Keeping unused credentials in your instance is "
        "an unneeded security risk.",
        "recommendation": "Consider deleting these credentials if you no longer need them.",
        "location": [{"kind": "credential", "id": "credUnused", "name": "Unused"}],
    }
    settings = report["Instance Risk Report"]["sections"][-1]["settings"]
    assert settings["nodes"]["nodesExclude"] == "n8n-nodes-base.executeCommand, n8n-nodes-base.localFileTrigger"


def test_an_execution_long_ago_is_not_recent(store: Store, tmp_path: Path) -> None:
    _seed(store)
    later = datetime.now(UTC) + timedelta(days=400)
    report = generate_audit(store, Settings(user_folder=tmp_path), ["credentials"], 90, now=later)
    assert isinstance(report, dict)
    recent = _sections(report, "Credentials Risk Report")["Credentials not used in recently executed workflows"]
    assert recent == ["Unused", "Idle", "Live"]


def test_no_issues_and_bad_categories(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    clean = "credentials,database,nodes,filesystem"
    assert _weft(capsys, "audit", f"--categories={clean}") == (0, "No security issues found\n", "")
    code, out, err = _weft(capsys, "audit", "--categories", "nodes,foo,bar")
    assert (code, out) == (2, "")
    assert "Invalid categories received: foo, bar. Valid categories are: credentials, database, nodes" in err
    only = json.loads(_weft(capsys, "audit", "--categories=instance", "--days-abandoned-workflow=10")[1])
    assert list(only) == ["Instance Risk Report"]


def test_installed_node_packages_are_community_nodes(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "acme_nodes.py").write_text(
        "from weft.nodes import NodeDescription, NodeType\n"
        "class Acme(NodeType):\n"
        "    description = NodeDescription(name='acme.thing', display_name='Acme', versions=(1,))\n"
        "    async def execute(self, ctx):\n"
        "        return [ctx.get_input_data()]\n"
    )
    info = site / "acme_nodes-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-nodes\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[weft.nodes]\nnodes = acme_nodes:Acme\n")
    env = {**os.environ, "WEFT_USER_FOLDER": str(tmp_path / "home"), "PYTHONPATH": str(site)}
    env.pop("WEFT_DATABASE_URL", None)
    command = [sys.executable, "-m", "weft", "audit", "--categories=nodes"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    [section] = json.loads(result.stdout)["Nodes Risk Report"]["sections"]
    assert section["title"] == "Community nodes"
    assert section["location"] == [
        {"kind": "community", "nodeType": "acme.thing", "packageUrl": "https://pypi.org/project/acme-nodes"}
    ]
