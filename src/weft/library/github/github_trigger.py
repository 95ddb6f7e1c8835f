"""GitHub Trigger (``n8n-nodes-base.githubTrigger`` v1): a repository's events, by a webhook it registers.

On activation a hook is created (``POST /repos/{owner}/{repo}/hooks`` with the events, the node's URL,
``content_type: json``, a fresh random secret and ``insecure_ssl``); its id, events and secret are kept in the
node's static data and the hook is deleted on deactivation. A call whose ``X-Hub-Signature-256`` is not the
HMAC-SHA256 of the body under that secret is refused (401 ``Unauthorized``); GitHub's ping answers ``OK``; any
other call emits ``{body, headers, query}``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeOperationError
from weft.library.github.transport import github_request
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import (
    TriggerContext,
    WebhookRequest,
    WebhookResult,
    run_trigger_node,
    workflow_static_data,
)
from weft.nodes.webhooks import WebhookResponse
from weft.workflow import NodeOutput

GITHUB_TRIGGER_TYPE = "n8n-nodes-base.githubTrigger"
SIGNATURE_HEADER = "x-hub-signature-256"
_KEYS = ("webhookId", "webhookEvents", "webhookSecret")


def _locator(ctx: ExecuteContext, name: str) -> str:
    value = ctx.get_node_parameter(name, default="")
    return str(value.get("value") or "") if isinstance(value, dict) else str(value or "")


def _hooks(ctx: ExecuteContext) -> str:
    return f"/repos/{_locator(ctx, 'owner')}/{_locator(ctx, 'repository')}/hooks"


async def _call(ctx: ExecuteContext, method: str, endpoint: str, body: dict[str, Any] | None = None) -> Any:
    async with ApiRequests(ctx) as api:
        return await github_request(api, method, endpoint, 0, body)


def _forget(data: dict[str, Any]) -> None:
    for key in _KEYS:
        data.pop(key, None)


def signature_valid(secret: str, header: str, raw_body: bytes) -> bool:
    """n8n's ``verifySignature``: ``sha256=<hex HMAC of the raw body>``, compared in constant time."""
    if not secret or not header.startswith("sha256=") or not raw_body:
        return False
    expected = hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest().encode()
    return hmac.compare_digest(expected, header[7:].encode())


class GithubTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=GITHUB_TRIGGER_TYPE,
        display_name="Github Trigger",
        versions=(1,),
        description="Starts the workflow when Github events occur",
        group=("trigger",),
        inputs=(),
        credentials=("githubApi", "githubOAuth2Api"),
        defaults={"authentication": "accessToken", "events": [], "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def check_exists(self, ctx: TriggerContext) -> bool:
        data = workflow_static_data(ctx)
        if data.get("webhookId") is None or not data.get("webhookSecret"):
            return False
        try:
            await _call(ctx, "GET", f"{_hooks(ctx)}/{data['webhookId']}")
        except NodeApiError as error:
            if error.http_code == 404:
                _forget(data)
                return False
            raise
        return True

    async def create(self, ctx: TriggerContext) -> bool:
        url = ctx.get_node_webhook_url()
        if "//localhost" in url:
            raise NodeOperationError(
                ctx.node.name, 'The Webhook can not work on "localhost". Please setup n8n on a custom domain.'
            )
        options = ctx.get_node_parameter("options", default={}) or {}
        events = list(ctx.get_node_parameter("events", default=[]) or [])
        secret = secrets.token_hex(32)
        config = {
            "url": url,
            "content_type": "json",
            "insecure_ssl": "1" if options.get("insecureSSL") else "0",
            "secret": secret,
        }
        body = {"name": "web", "config": config, "events": events, "active": True}
        try:
            created = await _call(ctx, "POST", _hooks(ctx), body)
        except NodeApiError as error:
            if error.http_code == 404:
                raise NodeOperationError(
                    ctx.node.name,
                    "Check that the repository exists and that you have permission to create the webhooks "
                    "this node requires",
                ) from error
            raise
        if not isinstance(created, dict) or created.get("id") is None or created.get("active") is not True:
            raise NodeOperationError(
                ctx.node.name, "Github webhook creation response did not contain the expected data."
            )
        data = workflow_static_data(ctx)
        data.update(webhookId=created["id"], webhookEvents=created.get("events"), webhookSecret=secret)
        return True

    async def delete(self, ctx: TriggerContext) -> bool:
        data = workflow_static_data(ctx)
        if data.get("webhookId") is not None:
            try:
                await _call(ctx, "DELETE", f"{_hooks(ctx)}/{data['webhookId']}", {})
            except Exception:
                return False
            _forget(data)
        return True

    async def webhook(self, ctx: TriggerContext, request: WebhookRequest) -> WebhookResult:
        secret = str(workflow_static_data(ctx).get("webhookSecret") or "")
        if not signature_valid(secret, request.headers.get(SIGNATURE_HEADER, ""), request.raw_body):
            return WebhookResult(response=WebhookResponse.text("Unauthorized", 401))
        body = request.body()
        if isinstance(body, dict) and body.get("hook_id") is not None and "action" not in body:
            return WebhookResult(response=WebhookResponse.text("OK"))
        item = {"json": {"body": body, "headers": dict(request.headers), "query": dict(request.query)}}
        return WebhookResult(workflow_data=[[item]])  # type: ignore[list-item]


__all__ = ["GITHUB_TRIGGER_TYPE", "GithubTrigger", "signature_valid"]
