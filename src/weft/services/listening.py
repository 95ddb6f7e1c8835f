"""Test webhooks (``/webhook-test/<path>``): a workflow listens for one call, then stops listening.

The listener is kept in the database (instance settings, under ``testWebhook:<METHOD> <path>``) so that
whichever server process gets the call can take it; taking it deletes it, so only one call runs the workflow.
The test run uses the workflow as it was when listening started, saved or not, and runs in mode ``manual``.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from weft.db.webhooks import is_dynamic_path, normalize_path
from weft.services.activation import WebhookTarget, webhook_nodes, webhook_url
from weft.services.errors import ActivationError
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner

_PREFIX = "testWebhook:"

#: How long a test webhook listens (n8n: 120 s).
LISTEN_SECONDS = 120


class TestWebhooks:
    """Listening test webhooks of the instance."""

    __test__ = False  # not a pytest class

    def __init__(self, runner: WorkflowRunner) -> None:
        self.runner = runner

    async def listen(self, workflow: dict[str, Any], *, seconds: int = LISTEN_SECONDS) -> list[str]:
        """Listen on the workflow's Webhook node paths; returns the test URLs."""
        prepared = prepare(workflow, self.runner.registry)
        nodes = webhook_nodes(prepared)
        if not nodes:
            raise ActivationError(
                f"Workflow {workflow.get('name')!r} has no Webhook node to listen with; add one first."
            )
        session = secrets.token_hex(8)
        expires = (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()
        urls = []
        for node, options in nodes:
            if is_dynamic_path(options.path):
                continue
            for method in options.methods:
                value = {"session": session, "workflow": workflow, "node": node, "expires": expires}
                await self.runner.db(self.runner.store.settings.set, _key(method, options.path), value)
            urls.append(webhook_url(self.runner.settings.public_url, options.path, test=True))
        return urls

    async def take(self, method: str, path: str) -> WebhookTarget | None:
        """The listener for ``method path``, removed with its siblings; ``None`` when nobody listens."""
        key = _key(method, path)
        value = await self.runner.db(self.runner.store.settings.get, key)
        if not isinstance(value, dict) or datetime.fromisoformat(value["expires"]) < datetime.now(UTC):
            return None
        if not await self.runner.db(self.runner.store.settings.delete, key):
            return None  # another call took it first
        await self._forget_session(value["session"])
        prepared = prepare(value["workflow"], self.runner.registry)
        options = dict(webhook_nodes(prepared))[value["node"]]
        return WebhookTarget(prepared=prepared, node=value["node"], options=options)

    async def methods(self, path: str) -> list[str]:
        keys = await self.runner.db(self.runner.store.settings.all)
        suffix = " " + normalize_path(path)
        return sorted(k[len(_PREFIX) :].split(" ", 1)[0] for k in keys if k.startswith(_PREFIX) and k.endswith(suffix))

    async def _forget_session(self, session: str) -> None:
        values = await self.runner.db(self.runner.store.settings.all)
        for key, value in values.items():
            if key.startswith(_PREFIX) and isinstance(value, dict) and value.get("session") == session:
                await self.runner.db(self.runner.store.settings.delete, key)


def _key(method: str, path: str) -> str:
    return f"{_PREFIX}{method.upper()} {normalize_path(path)}"


__all__ = ["LISTEN_SECONDS", "TestWebhooks"]
