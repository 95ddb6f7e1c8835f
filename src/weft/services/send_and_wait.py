"""Opening a send-and-wait link: ``/webhook-waiting/<executionId>/<nodeId>?approved=…&signature=…``.

As n8n's ``WaitingWebhooks`` answers a link of a node whose ``operation`` is ``sendAndWait``:

* a missing or wrong signature (each link is signed on its own, see ``_send_and_wait.link_signature``): 401 and
  an HTML page; the execution stays waiting;
* an execution that finished already, or a link of a node that does not wait now (another node, another method):
  the "No action required" page;
* an execution that runs: 409 (``ExecutionConflictError``);
* a link preview or bot (approval links only): an empty 200, the execution stays waiting;
* otherwise the execution is claimed and resumed with ``{data: {approved, respondedAt}}`` (free text:
  ``{data: {text, respondedAt}}``) as the node's output, and the answer is n8n's "Got it, thanks" page. A HITL
  tool (``emailSendHitlTool``) runs again with the request (``resumeRequest``) instead; a link of an earlier
  question of the execution gets 409.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from weft.db.executions import StoredExecution
from weft.nodes.mail.templates import INVALID_LINK_PAGE, NO_ACTION_REQUIRED_PAGE
from weft.nodes.send_and_wait import SEND_AND_WAIT_OPERATION, link_signature, webhook_answer
from weft.nodes.webhooks import WebhookResponse
from weft.services.errors import ExecutionConflictError
from weft.services.runner import WorkflowRunner
from weft.services.waiting import claim_waiting, not_waiting_error
from weft.services.webhook_requests import IncomingRequest

HTML_TYPE = "text/html; charset=utf-8"
_METHODS = ("GET", "POST")
HITL_SUFFIX = "HitlTool"


def send_and_wait_node(workflow_data: Mapping[str, Any] | None, node_id: str) -> Mapping[str, Any] | None:
    """The workflow's node with id ``node_id`` when it is a send-and-wait node (n8n's ``isSendAndWaitRequest``)
    or a HITL tool (whose ``operation`` is hidden, always ``sendAndWait``)."""
    for node in (workflow_data or {}).get("nodes") or []:
        if isinstance(node, Mapping) and node.get("id") == node_id:
            parameters = node.get("parameters") or {}
            hitl = str(node.get("type", "")).endswith(HITL_SUFFIX)
            return node if hitl or parameters.get("operation") == SEND_AND_WAIT_OPERATION else None
    return None


async def call_send_and_wait(
    runner: WorkflowRunner, execution_id: str, node_id: str, request: IncomingRequest, signature: str | None
) -> WebhookResponse | None:
    """The answer to a send-and-wait link; ``None`` when ``node_id`` names no send-and-wait node of the execution."""
    stored = await runner.db(runner.store.executions.get, execution_id)
    if stored is None:
        return None
    node = send_and_wait_node(stored.workflow_data, node_id)
    if node is None:
        return None
    if not _valid(runner, stored, node_id, request.query, signature):
        return _html(INVALID_LINK_PAGE, 401)
    if stored.status in ("running", "new"):
        raise not_waiting_error(stored)
    if stored.status != "waiting" or not _waits_at(stored, node_id) or request.method not in _METHODS:
        return _html(NO_ACTION_REQUIRED_PAGE)
    answer = webhook_answer(
        node.get("parameters") or {}, request.method, request.query, _form(request), request.headers.get("user-agent")
    )
    if answer.items is None:
        return _html(answer.html)
    _check_question(stored, request.query)
    claimed = await claim_waiting(runner, execution_id, check_signature=False)
    resume_request = {"headers": request.headers, "params": {}, "query": dict(request.query), "body": _form(request)}
    runner.spawn(runner.resume_claimed(claimed, resume_items=answer.items, resume_request=resume_request))
    return _html(answer.html)


def _check_question(stored: StoredExecution, query: Mapping[str, Any]) -> None:
    """A HITL tool's link (its ``toolCallId`` signed with it) answers only the question now waiting: a link of an
    earlier question of the execution gets 409."""
    given, stack = query.get("toolCallId"), _stack(stored)
    if given is None or not stack:
        return
    items = (((stack[0].get("data") or {}).get("main") or [[]])[0]) or []
    waiting = items[0].get("json", {}).get("toolCallId") if items else None
    if waiting is not None and str(given) != str(waiting):
        message = "This approval link answers a question that was already answered."
        raise ExecutionConflictError(message, execution_id=stored.id)


def _valid(
    runner: WorkflowRunner, stored: StoredExecution, node_id: str, query: Mapping[str, Any], signature: str | None
) -> bool:
    if not signature or isinstance(signature, list):
        return False
    params = {key: str(value) for key, value in query.items() if key != "signature" and not isinstance(value, list)}
    expected = link_signature(runner.signer.sign(stored.id), stored.id, node_id, params)
    return hmac.compare_digest(signature.strip().lower().encode(), expected.encode())


def _stack(stored: StoredExecution) -> list[Any]:
    data: Mapping[str, Any] = stored.data or {}
    return list((data.get("executionData") or {}).get("nodeExecutionStack") or [])


def _waits_at(stored: StoredExecution, node_id: str) -> bool:
    stack = _stack(stored)
    return bool(stack) and (stack[0].get("node") or {}).get("id") == node_id


def _form(request: IncomingRequest) -> dict[str, Any]:
    if request.form is not None:
        return dict(request.form)
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return dict(parse_qsl(request.body.decode(errors="replace")))
    return {}


def _html(body: str, status: int = 200) -> WebhookResponse:
    return WebhookResponse(status_code=status, headers={"content-type": HTML_TYPE}, body=body.encode())


__all__ = ["call_send_and_wait", "send_and_wait_node"]
