"""Test URLs: they answer only while the editor listens for them, for one test run (n8n's ``TestWebhooks``).

"Execute workflow" (or "Execute step" on a trigger) listens on the test URLs of the workflow's triggers
(:mod:`weft.services.listening_urls`: ``/webhook-test/``, ``/form-test/``, ``/mcp-test/`` and a public chat's
``/webhook-test/<webhookId>/chat``) for :data:`LISTEN_SECONDS`. The listeners are kept in the database (instance
settings, under ``testWebhook:<kind> <METHOD> <path>``) so that whichever server process gets the call can serve
it. A call that starts an execution *claims* its listener: claiming deletes it with its siblings, so one test run
happens per listen. As in n8n, calls that start no execution leave the listener in place: a form's page (``GET``)
before its submission, an MCP session's ``initialize`` and ``tools/list`` before its first ``tools/call``, the
hosted chat page. A URL nobody listens on answers n8n's 404 (``The requested webhook "<path>" is not
registered.``). The test run uses the workflow as it was when listening started, saved or not, in mode ``manual``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from weft.db.webhooks import normalize_path
from weft.services.activation import WebhookTarget, webhook_nodes
from weft.services.errors import ActivationError, WebhookNotFoundError
from weft.services.listening_urls import Kind, listening_urls
from weft.services.prepared import PreparedWorkflow, prepare
from weft.services.runner import WorkflowRunner

_PREFIX = "testWebhook:"

#: How long a test URL listens (n8n's ``TEST_WEBHOOK_TIMEOUT``: 120 s).
LISTEN_SECONDS = 120

#: n8n's hint for a test URL nobody listens on.
TEST_HINT = (
    "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works "
    "for one call after you click this button)"
)


def not_listening(path: str) -> WebhookNotFoundError:
    """n8n's 404 for a test URL nobody listens on (its message names the path, not the method)."""
    return WebhookNotFoundError(f'The requested webhook "{normalize_path(path)}" is not registered.', hint=TEST_HINT)


@dataclass(frozen=True, kw_only=True)
class Listener:
    """A test URL being listened on: the workflow as it was when listening started, and the trigger."""

    key: str
    session: str
    path: str
    node: str
    prepared: PreparedWorkflow


class TestWebhooks:
    """The listening test URLs of the instance."""

    __test__ = False  # not a pytest class

    def __init__(self, runner: WorkflowRunner) -> None:
        self.runner = runner

    async def listen(
        self,
        workflow: PreparedWorkflow | dict[str, Any],
        *,
        triggers: Collection[str] | None = None,
        seconds: int = LISTEN_SECONDS,
    ) -> list[str]:
        """Listen on the test URLs of the workflow's triggers (those named in ``triggers`` when given); returns
        the URLs to show."""
        prepared = workflow if isinstance(workflow, PreparedWorkflow) else prepare(workflow, self.runner.registry)
        urls = listening_urls(prepared, self.runner.settings.base_url)
        urls = [url for url in urls if triggers is None or url.node in triggers]
        if not urls:
            raise ActivationError(
                f"Workflow {prepared.data.get('name')!r} has no trigger to listen with; add a Webhook, Form "
                "Trigger, public Chat Trigger or MCP Server Trigger first."
            )
        await self._forget_expired()
        session = secrets.token_hex(8)
        expires = (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()
        # the caches of tool lists and the like are per version: a workflow not saved as it is gets its own
        version = prepared.version_id or f"test-{session}"
        for url in urls:
            value = {
                "session": session,
                "workflow": prepared.data,
                "version": version,
                "node": url.node,
                "expires": expires,
            }
            await self.runner.db(self.runner.store.settings.set, _key(url.kind, url.method, url.path), value)
        return list(dict.fromkeys(url.url for url in urls))

    async def find(self, kind: Kind, method: str, path: str) -> Listener | None:
        """The listener for ``method path``, left in place (:meth:`claim` takes it); ``None`` when nobody listens."""
        key = _key(kind, method, path)
        value = await self.runner.db(self.runner.store.settings.get, key)
        if not _live(value):
            return None
        prepared = prepare(value["workflow"], self.runner.registry, version_id=value.get("version"))
        return Listener(key=key, session=value["session"], path=path, node=value["node"], prepared=prepared)

    async def claim(self, listener: Listener) -> None:
        """Take the listener, and stop listening on its siblings, before its test run starts; n8n's 404 when
        another call took it first."""
        if not await self.runner.db(self.runner.store.settings.delete, listener.key):
            raise not_listening(listener.path)
        await self._forget(lambda value: value.get("session") == listener.session)

    async def take(self, method: str, path: str) -> WebhookTarget | None:
        """A Webhook node's listener for ``method path``, claimed; ``None`` when nobody listens."""
        listener = await self.find("webhook", method, path)
        if listener is None:
            return None
        try:
            await self.claim(listener)
        except WebhookNotFoundError:
            return None
        options = dict(webhook_nodes(listener.prepared))[listener.node]
        return WebhookTarget(prepared=listener.prepared, node=listener.node, options=options)

    async def methods(self, path: str, kind: Kind = "webhook") -> list[str]:
        """The methods listened on for ``path`` (n8n names them when a call uses another)."""
        values = await self.runner.db(self.runner.store.settings.all)
        path = normalize_path(path)
        found = []
        for key, value in values.items():
            parts = key[len(_PREFIX) :].split(" ", 2) if key.startswith(_PREFIX) else []
            if len(parts) == 3 and parts[0] == kind and parts[2] == path and _live(value):
                found.append(parts[1])
        return sorted(found)

    async def _forget_expired(self) -> None:
        await self._forget(lambda value: not _live(value))

    async def _forget(self, matches: Callable[[dict[str, Any]], bool]) -> None:
        values = await self.runner.db(self.runner.store.settings.all)
        for key, value in values.items():
            if key.startswith(_PREFIX) and isinstance(value, dict) and matches(value):
                await self.runner.db(self.runner.store.settings.delete, key)


def _live(value: Any) -> bool:
    """Whether a stored listener still listens (a value of another format is not one)."""
    if not isinstance(value, dict) or not isinstance(value.get("expires"), str) or "workflow" not in value:
        return False
    return datetime.fromisoformat(value["expires"]) >= datetime.now(UTC)


def _key(kind: Kind, method: str, path: str) -> str:
    return f"{_PREFIX}{kind} {method.upper()} {normalize_path(path)}"


__all__ = ["LISTEN_SECONDS", "TEST_HINT", "Listener", "TestWebhooks", "not_listening"]
