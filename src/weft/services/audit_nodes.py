"""The security audit's node checks: n8n's ``database``, ``filesystem`` and ``nodes`` risk reports.

Each report is read from the workflows' stored JSON (``{id, name, active, nodes, connections}``), with n8n's titles,
descriptions and recommendations (n8n's ``security-audit/risk-reporters``). A report with nothing to say is ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Report = dict[str, Any]
Workflow = dict[str, Any]

#: n8n's ``SQL_NODE_TYPES_WITH_QUERY_PARAMS`` and ``SQL_NODE_TYPES``.
SQL_WITH_PARAMS = frozenset(
    {"n8n-nodes-base.postgres", "n8n-nodes-base.crateDb", "n8n-nodes-base.questDb", "n8n-nodes-base.timescaleDb"}
)
SQL = SQL_WITH_PARAMS | {"n8n-nodes-base.mySql", "n8n-nodes-base.microsoftSql", "n8n-nodes-base.snowflake"}
#: n8n's ``FILESYSTEM_INTERACTION_NODE_TYPES``, and Read/Write Files from Disk, which n8n's list misses.
FILESYSTEM = frozenset(
    {
        "n8n-nodes-base.readPdf",
        "n8n-nodes-base.readBinaryFile",
        "n8n-nodes-base.readBinaryFiles",
        "n8n-nodes-base.spreadsheetFile",
        "n8n-nodes-base.writeBinaryFile",
        "n8n-nodes-base.readWriteFile",
    }
)
#: n8n's ``OFFICIAL_RISKY_NODE_TYPES``.
OFFICIAL_RISKY = frozenset(
    {
        "n8n-nodes-base.executeCommand",
        "n8n-nodes-base.code",
        "n8n-nodes-base.function",
        "n8n-nodes-base.functionItem",
        "n8n-nodes-base.httpRequest",
        "n8n-nodes-base.ssh",
        "n8n-nodes-base.ftp",
    }
)
DB_QUERY_PARAMS_DOCS_URL = (
    "https://docs.n8n.io/integrations/builtin/app-nodes/n8n-nodes-base.postgres#use-query-parameters"
)
_INJECTION = "Building a SQL query with an expression may lead to a SQL injection attack."


def flagged_node(workflow: Workflow, node: dict[str, Any]) -> dict[str, Any]:
    """n8n's ``toFlaggedNode``: where a report found something."""
    return {
        "kind": "node",
        "workflowId": workflow["id"],
        "workflowName": workflow["name"],
        "nodeId": node.get("id"),
        "nodeName": node.get("name"),
        "nodeType": node.get("type"),
    }


def section(title: str, description: str, recommendation: str, location: list[Any]) -> dict[str, Any]:
    return {"title": title, "description": description, "recommendation": recommendation, "location": location}


def workflow_nodes(workflows: Iterable[Workflow]) -> Iterable[tuple[Workflow, dict[str, Any]]]:
    """Every node (an object) of every workflow, with its workflow."""
    for workflow in workflows:
        for node in workflow.get("nodes") or []:
            if isinstance(node, dict):
                yield workflow, node


def nodes_where(workflows: Iterable[Workflow], test: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """n8n's ``getNodeTypes``: the flagged nodes that pass ``test``."""
    return [flagged_node(w, n) for w, n in workflow_nodes(workflows) if test(n)]


def database_report(workflows: list[Workflow]) -> Report | None:
    """SQL nodes whose "Execute Query" builds the query with an expression, or passes no query parameters."""
    queries, params, unused = [], [], []
    for workflow, node in workflow_nodes(workflows):
        parameters = node.get("parameters")
        if node.get("type") not in SQL or not isinstance(parameters, dict):
            continue
        if parameters.get("operation") != "executeQuery":
            continue
        if _is_expression(parameters.get("query")):
            queries.append(flagged_node(workflow, node))
        if node["type"] not in SQL_WITH_PARAMS:
            continue
        found, value = _query_params(parameters)
        if not found:
            unused.append(flagged_node(workflow, node))
        elif _is_expression(value):
            params.append(flagged_node(workflow, node))
    if not (queries or params or unused):
        return None
    sections = []
    if queries:
        text = f'{_sql_start(queries)} an expression in the "Query" field of an "Execute Query" operation. {_INJECTION}'
        advice = (
            'Consider using the "Query Parameters" field to pass parameters to the query, or validating the input '
            'of the expression in the "Query" field.'
        )
        sections.append(section('Expressions in "Execute Query" fields in SQL nodes', text, advice, queries))
    if params:
        text = (
            f'{_sql_start(params)} an expression in the "Query Parameters" field of an "Execute Query" operation. '
            f"{_INJECTION}"
        )
        advice = 'Consider validating the input of the expression in the "Query Parameters" field.'
        sections.append(section('Expressions in "Query Parameters" fields in SQL nodes', text, advice, params))
    if unused:
        text = (
            f'{_sql_start(unused)} no "Query Parameters" field in the "Execute Query" operation. Building a SQL '
            "query with unsanitized data may lead to a SQL injection attack."
        )
        advice = (
            'Consider using the "Query Parameters" field to sanitize parameters passed to the query. '
            f"See: {DB_QUERY_PARAMS_DOCS_URL}"
        )
        sections.append(section('Unused "Query Parameters" fields in SQL nodes', text, advice, unused))
    return {"risk": "database", "sections": sections}


def _query_params(parameters: dict[str, Any]) -> tuple[bool, Any]:
    """Whether the node sets query parameters, and their value: ``additionalFields.queryParams`` (version 1) or
    ``options.queryReplacement`` (version 2, which n8n's audit does not look at and so always reports unused)."""
    for group, key in (("additionalFields", "queryParams"), ("options", "queryReplacement")):
        fields = parameters.get(group)
        if isinstance(fields, dict) and key in fields:
            return True, fields[key]
    return False, None


def _is_expression(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("=")


def _sql_start(found: list[Any]) -> str:
    return "These SQL nodes have" if len(found) > 1 else "This SQL node has"


def filesystem_report(workflows: list[Workflow]) -> Report | None:
    """Nodes that read or write the host's files."""
    found = nodes_where(workflows, lambda node: node.get("type") in FILESYSTEM)
    if not found:
        return None
    start = "These nodes read from and write to" if len(found) > 1 else "This node reads from and writes to"
    text = (
        f"{start} any accessible file in the host filesystem. Sensitive file content may be manipulated through a "
        "node operation."
    )
    advice = (
        "Consider protecting any sensitive files in the host filesystem, or refactoring the workflow so that it "
        "does not require host filesystem interaction."
    )
    return {
        "risk": "filesystem",
        "sections": [section("Nodes that interact with the filesystem", text, advice, found)],
    }


def nodes_report(workflows: list[Workflow], community: list[dict[str, Any]]) -> Report | None:
    """n8n's official risky node types in the workflows, and the node types installed packages add."""
    risky = nodes_where(workflows, lambda node: node.get("type") in OFFICIAL_RISKY)
    if not (risky or community):
        return None

    def start(found: list[Any]) -> str:
        return "These nodes are" if len(found) > 1 else "This node is"

    sections = []
    if risky:
        text = (
            f"{start(risky)} part of n8n's official nodes and may be used to fetch and run any arbitrary code in the "
            "host system. This may lead to exploits such as remote code execution."
        )
        advice = "Consider reviewing the parameters in these nodes, replacing them with app nodes where possible."
        sections.append(section("Official risky nodes", text, advice, risky))
    if community:
        text = (
            f"{start(community)} sourced from installed Python packages (the 'weft.nodes' entry point). Community "
            "nodes are not vetted by the Weft team and have full access to the host system."
        )
        advice = (
            "Consider reviewing the source code in any community nodes installed in this Weft instance, and "
            "uninstalling any community nodes no longer in use."
        )
        sections.append(section("Community nodes", text, advice, community))
    return {"risk": "nodes", "sections": sections}


__all__ = [
    "FILESYSTEM",
    "OFFICIAL_RISKY",
    "SQL",
    "SQL_WITH_PARAMS",
    "database_report",
    "filesystem_report",
    "flagged_node",
    "nodes_report",
    "nodes_where",
    "section",
    "workflow_nodes",
]
