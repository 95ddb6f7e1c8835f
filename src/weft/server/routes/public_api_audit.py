"""``POST /api/v1/audit``: n8n's security audit (``SecurityAuditService``) over Weft's workflows and credentials.

The report is n8n's: ``{"<Category> Risk Report": {risk, sections: [{title, description, recommendation,
location}]}}`` for each category that found something (``[]`` when none did), with n8n's wording. Categories:
``credentials`` (not used in any workflow, in any active workflow, in a workflow executed in the last
``daysAbandonedWorkflow`` days), ``database`` (expressions in SQL queries, missing query parameters),
``nodes`` (n8n's official risky node types; Weft loads no community or custom nodes) and ``filesystem``.
``instance`` is not reported: its checks (n8n's release feed, n8n's own security settings) have no Weft meaning.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request

from weft.server.deps import InstanceDep
from weft.server.routes.public_api import PublicApiError, require
from weft.services.instance import Instance

router = APIRouter(tags=["public API"])

CATEGORIES = ("credentials", "database", "nodes", "instance", "filesystem")
DAYS_ABANDONED_WORKFLOW = 90
_SQL_WITH_PARAMS = {"n8n-nodes-base.postgres", "n8n-nodes-base.crateDb", "n8n-nodes-base.questDb"}
_SQL_WITH_PARAMS.add("n8n-nodes-base.timescaleDb")
_SQL = _SQL_WITH_PARAMS | {"n8n-nodes-base.mySql", "n8n-nodes-base.microsoftSql", "n8n-nodes-base.snowflake"}
_FILESYSTEM = {
    "n8n-nodes-base.readPdf",
    "n8n-nodes-base.readBinaryFile",
    "n8n-nodes-base.readBinaryFiles",
    "n8n-nodes-base.spreadsheetFile",
    "n8n-nodes-base.writeBinaryFile",
}
_RISKY = {
    "n8n-nodes-base.executeCommand",
    "n8n-nodes-base.code",
    "n8n-nodes-base.function",
    "n8n-nodes-base.functionItem",
    "n8n-nodes-base.httpRequest",
    "n8n-nodes-base.ssh",
    "n8n-nodes-base.ftp",
}
_ENV_VARS_DOCS_URL = "https://docs.n8n.io/reference/environment-variables.html"
_DB_QUERY_PARAMS_DOCS_URL = "https://docs.n8n.io/integrations/builtin/app-nodes/n8n-nodes-base.postgres/"
_INJECTION = "Building a SQL query with an expression may lead to a SQL injection attack."
_CREDS_HINT = "Keeping unused credentials in your instance is an unneeded security risk."


def _flagged(workflow: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "node",
        "workflowId": workflow["id"],
        "workflowName": workflow["name"],
        "nodeId": node.get("id"),
        "nodeName": node.get("name"),
        "nodeType": node.get("type"),
    }


def _section(title: str, description: str, recommendation: str, location: list[Any]) -> dict[str, Any]:
    return {"title": title, "description": description, "recommendation": recommendation, "location": location}


def _nodes(workflows: list[dict[str, Any]], types: set[str]) -> list[dict[str, Any]]:
    return [_flagged(w, n) for w in workflows for n in w["nodes"] if n.get("type") in types]


def database_report(workflows: list[dict[str, Any]]) -> dict[str, Any] | None:
    queries, params, unused = [], [], []
    for workflow in workflows:
        for node in workflow["nodes"]:
            parameters = node.get("parameters")
            if node.get("type") not in _SQL or not isinstance(parameters, dict):
                continue
            if parameters.get("operation") != "executeQuery":
                continue
            if isinstance(parameters.get("query"), str) and parameters["query"].startswith("="):
                queries.append(_flagged(workflow, node))
            if node["type"] not in _SQL_WITH_PARAMS:
                continue
            fields = parameters.get("additionalFields")
            if not isinstance(fields, dict) or "queryParams" not in fields:
                unused.append(_flagged(workflow, node))
            elif isinstance(fields["queryParams"], str) and fields["queryParams"].startswith("="):
                params.append(_flagged(workflow, node))
    if not (queries or params or unused):
        return None

    def start(found: list[Any]) -> str:
        return "These SQL nodes have" if len(found) > 1 else "This SQL node has"

    sections = []
    if queries:
        text = f'{start(queries)} an expression in the "Query" field of an "Execute Query" operation. {_INJECTION}'
        advice = 'Consider using the "Query Parameters" field to pass parameters to the query, or validating the input of the expression in the "Query" field.'  # noqa: E501
        sections.append(_section('Expressions in "Execute Query" fields in SQL nodes', text, advice, queries))
    if params:
        text = f'{start(params)} an expression in the "Query Parameters" field of an "Execute Query" operation. {_INJECTION}'  # noqa: E501
        advice = 'Consider validating the input of the expression in the "Query Parameters" field.'
        sections.append(_section('Expressions in "Query Parameters" fields in SQL nodes', text, advice, params))
    if unused:
        text = f'{start(unused)} no "Query Parameters" field in the "Execute Query" operation. Building a SQL query with unsanitized data may lead to a SQL injection attack.'  # noqa: E501
        advice = f'Consider using the "Query Parameters" field to sanitize parameters passed to the query. See: {_DB_QUERY_PARAMS_DOCS_URL}'  # noqa: E501
        sections.append(_section('Unused "Query Parameters" fields in SQL nodes', text, advice, unused))
    return {"risk": "database", "sections": sections}


def filesystem_report(workflows: list[dict[str, Any]]) -> dict[str, Any] | None:
    found = _nodes(workflows, _FILESYSTEM)
    if not found:
        return None
    start = "These nodes read from and write to" if len(found) > 1 else "This node reads from and writes to"
    text = f"{start} any accessible file in the host filesystem. Sensitive file content may be manipulated through a node operation."  # noqa: E501
    advice = "Consider protecting any sensitive files in the host filesystem, or refactoring the workflow so that it does not require host filesystem interaction."  # noqa: E501
    return {
        "risk": "filesystem",
        "sections": [_section("Nodes that interact with the filesystem", text, advice, found)],
    }


def nodes_report(workflows: list[dict[str, Any]]) -> dict[str, Any] | None:
    found = _nodes(workflows, _RISKY)
    if not found:
        return None
    start = "These nodes are" if len(found) > 1 else "This node is"
    text = f"{start} part of n8n's official nodes and may be used to fetch and run any arbitrary code in the host system. This may lead to exploits such as remote code execution."  # noqa: E501
    advice = f"Consider reviewing the parameters in these nodes, replacing them with app nodes where possible, and not loading unneeded node types with the NODES_EXCLUDE environment variable. See: {_ENV_VARS_DOCS_URL}"  # noqa: E501
    return {"risk": "nodes", "sections": [_section("Official risky nodes", text, advice, found)]}


def _credential_ids(workflows: list[dict[str, Any]]) -> set[str]:
    ids = set()
    for workflow in workflows:
        for node in workflow["nodes"]:
            for reference in (node.get("credentials") or {}).values():
                if isinstance(reference, dict) and reference.get("id"):
                    ids.add(str(reference["id"]))
    return ids


def credentials_report(
    credentials: list[dict[str, Any]], workflows: list[dict[str, Any]], recent: set[str], days: int
) -> dict[str, Any] | None:
    """``recent``: ids of the workflows executed in the last ``days`` days."""
    in_any = _credential_ids(workflows)
    in_active = _credential_ids([w for w in workflows if w["active"]])
    in_recent = _credential_ids([w for w in workflows if w["id"] in recent])
    groups = [
        ("Credentials not used in any workflow", "not used in any workflow.", in_any),
        ("Credentials not used in any active workflow", "not used in active workflows.", in_active),
        (
            "Credentials not used in recently executed workflows",
            f"not used in recently executed workflows, i.e. workflows executed in the past {days} days.",
            in_recent,
        ),
    ]
    sections = []
    for title, words, used in groups:
        unused = [c for c in credentials if c["id"] not in used]
        if unused:
            start = "These credentials are" if len(unused) > 1 else "This credential is"
            advice = "Consider deleting these credentials if you no longer need them."
            sections.append(_section(title, f"{start} {words} {_CREDS_HINT}", advice, unused))
    return {"risk": "credentials", "sections": sections} if sections else None


async def _report(instance: Instance, category: str, workflows: list[dict[str, Any]], days: int) -> Any:
    if category == "database":
        return database_report(workflows)
    if category == "filesystem":
        return filesystem_report(workflows)
    if category == "nodes":
        return nodes_report(workflows)
    if category == "credentials":
        infos = await instance.runner.db(instance.store.credentials.list)
        credentials = [{"kind": "credential", "id": i.id, "name": i.name} for i in infos]
        since = datetime.now(UTC) - timedelta(days=days)
        executions = await instance.runner.db(instance.store.executions.list, limit=100_000, started_after=since)
        return credentials_report(credentials, workflows, {e.workflow_id for e in executions if e.workflow_id}, days)
    return None


@router.post("/audit", dependencies=[require("securityAudit:generate")])
async def generate_audit(instance: InstanceDep, request: Request) -> Any:
    body = await request.json() if await request.body() else {}
    options = (body or {}).get("additionalOptions") or {}
    categories = options.get("categories") or list(CATEGORIES)
    if not isinstance(categories, list) or any(c not in CATEGORIES for c in categories):
        raise PublicApiError(400, f"request/body/additionalOptions/categories must be among {', '.join(CATEGORIES)}")
    days = int(options.get("daysAbandonedWorkflow") or DAYS_ABANDONED_WORKFLOW)
    stored = await instance.runner.db(instance.store.workflows.list)
    workflows = [{"id": w.id, "name": w.name, "active": w.active, "nodes": w.data.get("nodes") or []} for w in stored]
    reports = [r for c in categories if (r := await _report(instance, c, workflows, days)) is not None]
    if not reports:
        return []
    return {f"{r['risk'][:1].upper()}{r['risk'][1:]} Risk Report": r for r in reports}


__all__ = ["credentials_report", "database_report", "filesystem_report", "nodes_report", "router"]
