"""Production webhooks of active workflows, and matching a request path to one (n8n's ``webhook_entity``).

A static path (``orders/new``) is stored as is and served at ``/webhook/orders/new``. A path with
parameters (``user/:id``) is served at ``/webhook/<webhookId>/user/:id``: it is stored with the node's
``webhookId`` and its number of segments, and matched by those, then by its static segments.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from weft.db.base import rowcount
from weft.db.engine import Database
from weft.db.orm import WebhookEntity
from weft.errors import WorkflowDefinitionError


@dataclass(frozen=True, kw_only=True)
class WebhookSpec:
    """A webhook a workflow's node wants registered."""

    method: str
    """HTTP method, upper case."""
    path: str
    """The node's ``path`` parameter; ``:name`` segments are parameters."""
    node: str
    """Name of the node that receives the request."""
    webhook_id: str | None = None
    """The node's ``webhookId``; needed for paths with parameters."""


@dataclass(frozen=True, kw_only=True)
class StoredWebhook:
    workflow_id: str
    method: str
    path: str
    """Normalised: no leading or trailing ``/``."""
    node: str
    webhook_id: str | None
    path_length: int | None
    """Number of segments for paths with parameters, else ``None``."""

    @property
    def is_dynamic(self) -> bool:
        return self.path_length is not None


@dataclass(frozen=True, kw_only=True)
class WebhookMatch:
    webhook: StoredWebhook
    params: dict[str, str] = field(default_factory=dict)
    """Values of the ``:name`` segments of a dynamic path."""


def normalize_path(path: str) -> str:
    """The path without leading and trailing slashes."""
    return path.strip().strip("/")


def is_dynamic_path(path: str) -> bool:
    return path.startswith(":") or "/:" in path


class WebhookRepository:
    """Webhooks in one database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def register(self, workflow_id: str, specs: Iterable[WebhookSpec]) -> builtins.list[StoredWebhook]:
        """Replace the workflow's webhooks; a path and method used by another workflow is an error."""
        rows = [_row(workflow_id, spec) for spec in specs]
        _check_unique(rows)
        try:
            with self._db.transaction() as session:
                session.execute(delete(WebhookEntity).where(WebhookEntity.workflow_id == workflow_id))
                for row in rows:
                    _check_free(session, row)
                    session.add(row)
                session.flush()
                return [_record(row) for row in rows]
        except IntegrityError:
            # Another process registered the same path between the check and the insert.
            with self._db.sessions() as session:
                for row in rows:
                    _check_free(session, row)
            raise

    def unregister(self, workflow_id: str) -> int:
        with self._db.transaction() as session:
            return rowcount(session.execute(delete(WebhookEntity).where(WebhookEntity.workflow_id == workflow_id)))

    def list(self, *, workflow_id: str | None = None) -> builtins.list[StoredWebhook]:
        query = select(WebhookEntity).order_by(WebhookEntity.id)
        if workflow_id is not None:
            query = query.where(WebhookEntity.workflow_id == workflow_id)
        with self._db.sessions() as session:
            return [_record(row) for row in session.scalars(query)]

    def find(self, method: str, path: str) -> WebhookMatch | None:
        """The webhook serving ``method path`` (static paths first), with the path's parameters."""
        path = normalize_path(path)
        with self._db.sessions() as session:
            static = session.scalars(
                select(WebhookEntity).where(WebhookEntity.webhook_path == path, WebhookEntity.method == method.upper())
            ).first()
            if static is not None:
                return WebhookMatch(webhook=_record(static))
            webhook_id, _, rest = path.partition("/")
            segments = rest.split("/") if rest else []
            candidates = session.scalars(
                select(WebhookEntity).where(
                    WebhookEntity.webhook_id == webhook_id,
                    WebhookEntity.method == method.upper(),
                    WebhookEntity.path_length == len(segments),
                )
            ).all()
        return _best_dynamic(candidates, segments)

    def methods(self, path: str) -> builtins.list[str]:
        """The methods registered for ``path`` (for ``405`` answers and CORS preflight)."""
        path = normalize_path(path)
        query = select(WebhookEntity.method).where(WebhookEntity.webhook_path == path).order_by(WebhookEntity.method)
        with self._db.sessions() as session:
            return builtins.list(session.scalars(query))


def _row(workflow_id: str, spec: WebhookSpec) -> WebhookEntity:
    path = normalize_path(spec.path)
    dynamic = is_dynamic_path(path)
    if dynamic and not spec.webhook_id:
        raise WorkflowDefinitionError(
            f"Webhook path {path!r} has parameters but the node has no 'webhookId'.",
            node_name=spec.node,
            field="webhookId",
            fix="Give the node a 'webhookId' (any UUID) so its URL is unique.",
        )
    return WebhookEntity(
        workflow_id=workflow_id,
        webhook_path=path,
        method=spec.method.upper(),
        node=spec.node,
        webhook_id=spec.webhook_id,
        path_length=len(path.split("/")) if dynamic else None,
    )


def _check_unique(rows: builtins.list[WebhookEntity]) -> None:
    seen: dict[tuple[str, str], str] = {}
    for row in rows:
        first = seen.setdefault((row.webhook_path, row.method), row.node)
        if first != row.node:
            raise WorkflowDefinitionError(
                f"Nodes {first!r} and {row.node!r} both listen on {row.method} {row.webhook_path!r}.",
                node_name=row.node,
                field="path",
                fix="Give each webhook node its own path or method.",
            )


def _check_free(session: Session, row: WebhookEntity) -> None:
    other = session.scalars(
        select(WebhookEntity).where(
            WebhookEntity.webhook_path == row.webhook_path,
            WebhookEntity.method == row.method,
            WebhookEntity.workflow_id != row.workflow_id,
        )
    ).first()
    if other is not None:
        raise WorkflowDefinitionError(
            f"The {row.method} webhook path {row.webhook_path!r} of node {row.node!r} is already used by "
            f"node {other.node!r} of active workflow {other.workflow_id!r}.",
            node_name=row.node,
            field="path",
            fix="Change the node's path or method, or deactivate the other workflow.",
        )


def _best_dynamic(candidates: Iterable[WebhookEntity], segments: builtins.list[str]) -> WebhookMatch | None:
    best: WebhookMatch | None = None
    best_static = -1
    for row in candidates:
        pattern = row.webhook_path.split("/")
        params: dict[str, str] = {}
        static = 0
        for want, got in zip(pattern, segments, strict=True):
            if want.startswith(":"):
                params[want[1:]] = got
            elif want == got:
                static += 1
            else:
                break
        else:
            if static > best_static:
                best, best_static = WebhookMatch(webhook=_record(row), params=params), static
    return best


def _record(row: WebhookEntity) -> StoredWebhook:
    return StoredWebhook(
        workflow_id=row.workflow_id,
        method=row.method,
        path=row.webhook_path,
        node=row.node,
        webhook_id=row.webhook_id,
        path_length=row.path_length,
    )


__all__ = ["StoredWebhook", "WebhookMatch", "WebhookRepository", "WebhookSpec", "is_dynamic_path", "normalize_path"]
