"""n8n's security audit (``SecurityAuditService``) over Weft's workflows, credentials and settings.

``weft audit`` and ``POST /api/v1/audit`` give n8n's report: ``{"<Category> Risk Report": {risk, sections:
[{title, description, recommendation, location | settings}]}}`` for each category that found something, ``[]``
when none did. Categories:

- ``credentials``: not used in any workflow, in any active workflow, in a workflow executed in the last
  ``days_abandoned_workflow`` days (a node's reference counts as Weft resolves it: by id, else by name and type);
- ``database``, ``filesystem``, ``nodes``: :mod:`weft.services.audit_nodes` (community nodes are the node types
  installed Python packages add through the ``weft.nodes`` entry point);
- ``instance``: webhooks of active workflows without authentication and not followed by a node that checks the
  payload, and the instance's security settings. n8n's "Outdated instance" section reads n8n's release feed over
  the network: Weft has none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from weft.db.credentials import CredentialInfo
from weft.db.orm import ExecutionEntity
from weft.db.store import Store
from weft.errors import ConfigurationError, WeftError
from weft.nodes.registry import DISABLED_FOR_SAFETY
from weft.services.audit_nodes import (
    Report,
    Workflow,
    database_report,
    filesystem_report,
    nodes_report,
    nodes_where,
    section,
    workflow_nodes,
)
from weft.settings import Settings

#: n8n's ``RISK_CATEGORIES``, in its order.
CATEGORIES = ("credentials", "database", "nodes", "instance", "filesystem")
#: n8n's ``N8N_SECURITY_AUDIT_DAYS_ABANDONED_WORKFLOW`` default.
DAYS_ABANDONED_WORKFLOW = 90
WEBHOOK_TYPE = "n8n-nodes-base.webhook"
#: n8n's ``WEBHOOK_VALIDATOR_NODE_TYPES``: a webhook directly followed by one of them is considered checked.
WEBHOOK_VALIDATORS = (
    "n8n-nodes-base.if",
    "n8n-nodes-base.switch",
    "n8n-nodes-base.code",
    "n8n-nodes-base.function",
    "n8n-nodes-base.functionItem",
)
PYPI_PROJECT_URL = "https://pypi.org/project"
_CREDS_HINT = "Keeping unused credentials in your instance is an unneeded security risk."


def parse_categories(text: str | Sequence[str] | None) -> list[str]:
    """The categories of a comma-separated list (all when empty); n8n's error names the unknown ones."""
    names = [c for c in (text.split(",") if isinstance(text, str) else text or []) if c != ""]
    invalid = [c for c in names if c not in CATEGORIES]
    if invalid:
        message = (
            f"Invalid categories received: {', '.join(invalid)}"
            if len(invalid) > 1
            else f"Invalid category received: {invalid[0]}"
        )
        raise ConfigurationError(f"{message}. Valid categories are: {', '.join(CATEGORIES)}")
    return names or list(CATEGORIES)


def generate_audit(
    store: Store,
    settings: Settings,
    categories: Sequence[str] = CATEGORIES,
    days_abandoned_workflow: int = DAYS_ABANDONED_WORKFLOW,
    *,
    now: datetime | None = None,
) -> dict[str, Report] | list[Any]:
    """The audit report of the instance (blocking: it reads the database)."""
    workflows = [{"id": w.id, "name": w.name, "active": w.active, **_graph(w.data)} for w in store.workflows.list()]
    reports: list[Report | None] = []
    for category in parse_categories(list(categories)):
        if category == "credentials":
            since = (now or datetime.now(UTC)) - timedelta(days=days_abandoned_workflow)
            recent = executed_workflow_ids(store, since)
            reports.append(credentials_report(store.credentials.list(), workflows, recent, days_abandoned_workflow))
        elif category == "database":
            reports.append(database_report(workflows))
        elif category == "filesystem":
            reports.append(filesystem_report(workflows))
        elif category == "nodes":
            reports.append(nodes_report(workflows, community_nodes()))
        else:
            reports.append(instance_report(workflows, settings))
    found = [r for r in reports if r is not None]
    if not found:
        return []
    return {f"{r['risk'][:1].upper()}{r['risk'][1:]} Risk Report": r for r in found}


def _graph(data: dict[str, Any]) -> dict[str, Any]:
    nodes, connections = data.get("nodes"), data.get("connections")
    return {
        "nodes": nodes if isinstance(nodes, list) else [],
        "connections": connections if isinstance(connections, dict) else {},
    }


def executed_workflow_ids(store: Store, since: datetime) -> set[str]:
    """The workflows with an execution started at ``since`` or later (n8n's ``getWorkflowIdsWithExecutionsSince``)."""
    query = select(ExecutionEntity.workflow_id).where(ExecutionEntity.started_at >= since).distinct()
    with store.db.sessions() as session:
        return {str(row) for row in session.scalars(query) if row}


# ---------------------------------------------------------------------------------------------------- credentials


def credentials_report(
    credentials: list[CredentialInfo], workflows: list[Workflow], recent: set[str], days: int
) -> Report | None:
    """Credentials no workflow, no active workflow, or no workflow executed in the last ``days`` days uses."""
    in_any = used_credentials(workflows, credentials)
    in_active = used_credentials([w for w in workflows if w["active"]], credentials)
    in_recent = used_credentials([w for w in workflows if w["id"] in recent], credentials)
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
        unused = [{"kind": "credential", "id": c.id, "name": c.name} for c in credentials if c.id not in used]
        if unused:
            start = "These credentials are" if len(unused) > 1 else "This credential is"
            advice = "Consider deleting these credentials if you no longer need them."
            sections.append(section(title, f"{start} {words} {_CREDS_HINT}", advice, unused))
    return {"risk": "credentials", "sections": sections} if sections else None


def used_credentials(workflows: Iterable[Workflow], credentials: list[CredentialInfo]) -> set[str]:
    """The ids of the credentials the workflows' nodes reference, resolved as a run resolves them."""
    by_id = {c.id: c for c in credentials}
    by_name: dict[tuple[str, str], str] = {}
    for credential in credentials:  # oldest first: the one a name resolves to
        by_name.setdefault((credential.name, credential.type), credential.id)
    used: set[str] = set()
    for _, node in workflow_nodes(workflows):
        references = node.get("credentials")
        for type_name, reference in references.items() if isinstance(references, dict) else []:
            ref_id, ref_name = _reference(reference)
            known = by_id.get(ref_id)
            if known is not None and known.type == type_name:
                used.add(known.id)
            elif known is None and (found := by_name.get((ref_name, type_name))) is not None:
                used.add(found)
    return used


def _reference(reference: Any) -> tuple[str, str]:
    if isinstance(reference, dict):
        return str(reference.get("id") or ""), str(reference.get("name") or "")
    return "", str(reference or "")  # an old workflow's reference by name


# ---------------------------------------------------------------------------------------------------- nodes


def community_nodes() -> list[dict[str, Any]]:
    """The node types other installed packages add (``weft.nodes`` entry points), as n8n lists community nodes."""
    from importlib.metadata import entry_points

    from weft.nodes._node_packages import GROUP, node_types_of, package_of

    found = []
    for ep in entry_points(group=GROUP):
        package = package_of(ep)
        if package == "weft":  # Weft's own AI nodes come through the same entry point
            continue
        try:
            types = sorted(node_types_of(ep))
        except WeftError:  # a broken package is still installed: list its entry point
            types = [ep.name]
        url = f"{PYPI_PROJECT_URL}/{package}"
        found += [{"kind": "community", "nodeType": t, "packageUrl": url} for t in types]
    return found


# ---------------------------------------------------------------------------------------------------- instance


def instance_report(workflows: list[Workflow], settings: Settings) -> Report:
    """Unprotected webhooks of active workflows, and the security settings (always reported, as n8n)."""
    sections = []
    unprotected = unprotected_webhooks(workflows)
    if unprotected:
        start, verb = ("These webhook nodes have", "are") if len(unprotected) > 1 else ("This webhook node has", "is")
        text = (
            f'{start} the "Authentication" field set to "None" and {verb} not directly connected to a node to '
            "validate the payload. Every unprotected webhook allows your workflow to be called by any third party "
            "who knows the webhook URL."
        )
        advice = (
            'Consider setting the "Authentication" field to an option other than "None", or validating the payload '
            f"with one of the following nodes: {','.join(WEBHOOK_VALIDATORS)}."
        )
        sections.append(section("Unprotected webhooks in instance", text, advice, unprotected))
    sections.append(
        {
            "title": "Security settings",
            "description": "This Weft instance has the following security settings.",
            "recommendation": "Consider adjusting the security settings for your Weft instance based on your needs "
            "(the WEFT_* environment variables).",
            "settings": security_settings(settings),
        }
    )
    return {"risk": "instance", "sections": sections}


def unprotected_webhooks(workflows: list[Workflow]) -> list[dict[str, Any]]:
    """Enabled Webhook nodes of active workflows with no authentication and no validating node right after."""

    def unprotected(node: dict[str, Any]) -> bool:
        parameters = node.get("parameters")
        auth = parameters.get("authentication") if isinstance(parameters, dict) else None
        return node.get("type") == WEBHOOK_TYPE and not node.get("disabled") and auth in (None, "none")

    found = []
    for workflow in workflows:
        if workflow["active"]:
            flagged = nodes_where([workflow], unprotected)
            found += [f for f in flagged if not _has_validator_child(workflow, f["nodeName"])]
    return found


def _has_validator_child(workflow: Workflow, name: str) -> bool:
    """n8n's ``hasValidatorChild``: a node on the webhook's first main output checks the payload."""
    outputs = (workflow["connections"].get(name) or {}).get("main") or []
    first = outputs[0] if outputs and isinstance(outputs[0], list) else []
    children = {c.get("node") for c in first if isinstance(c, dict)}
    return any(
        n.get("name") in children and n.get("type") in WEBHOOK_VALIDATORS
        for n in workflow["nodes"]
        if isinstance(n, dict)
    )


def security_settings(settings: Settings) -> dict[str, Any]:
    """n8n's ``getSecuritySettings`` groups, with Weft's values, and Weft's own file and environment guards."""
    return {
        "features": {
            "communityPackagesEnabled": True,
            "versionNotificationsEnabled": False,
            "templatesEnabled": False,
            "publicApiEnabled": True,
        },
        "nodes": {"nodesExclude": ", ".join(sorted(DISABLED_FOR_SAFETY)), "nodesInclude": "none"},
        "telemetry": {"diagnosticsEnabled": False},
        "files": {
            "restrictFileAccessTo": settings.restrict_file_access_to,
            "blockFileAccessToWeftFiles": settings.block_file_access_to_weft_files,
            "blockFilePatterns": settings.block_file_patterns,
        },
        "environment": {"blockEnvAccessInNode": settings.block_env_access_in_node},
        "cookies": {"secureCookie": settings.secure_cookie},
    }


__all__ = [
    "CATEGORIES",
    "DAYS_ABANDONED_WORKFLOW",
    "community_nodes",
    "credentials_report",
    "executed_workflow_ids",
    "generate_audit",
    "instance_report",
    "parse_categories",
    "security_settings",
    "unprotected_webhooks",
    "used_credentials",
]
