"""``/form-waiting/<executionId>``: the pages of a multi-page form, served while its execution waits.

As n8n's ``WaitingForms``: the URL carries the execution's signature (a missing or wrong one: 401, the "Invalid
Form Link" page, the execution stays waiting); ``/form-waiting/<id>/n8n-execution-status`` answers the status as
text (``form-waiting`` while a Form node waits, else the execution's status, ``null`` for none), which the pages
poll. ``GET`` shows the page the waiting Form node built when it ran (its node context keeps it, so it survives a
restart); a finished execution shows its Form ending (or n8n's "Form Submitted" page). ``POST`` resumes the
execution with the submission (the Form node runs again and outputs it) and answers ``{redirectURL}`` to the next
page when the execution waits at one again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.db.executions import StoredExecution
from weft.nodes.forms.fields import SUBMISSION_KEY
from weft.nodes.forms.options import FORM_TYPE, PAGE_KEY
from weft.nodes.forms.page import FORM_SUBMITTED_PAGE
from weft.nodes.webhooks import WebhookResponse
from weft.services.errors import ExecutionConflictError
from weft.services.forms import FormAnswer, FormView, form_waiting_url, submission_of
from weft.services.runner import WorkflowRunner
from weft.services.waiting import claim_waiting, not_waiting_error
from weft.services.webhook_calls import ERROR
from weft.services.webhook_requests import IncomingRequest

STATUS_SUFFIX = "n8n-execution-status"
INVALID_LINK = {
    "kind": "message",
    "title": "Invalid Form Link",
    "message": "This form link is invalid or has expired. Please request a new link.",
}
#: n8n's ``form-trigger-404`` page, for production and test URLs.
NOT_FOUND = {
    "kind": "message",
    "title": "Problem loading form",
    "message": "This usually occurs if the n8n workflow serving this form is deactivated or no longer exist",
}
NOT_LISTENING = {
    "kind": "message",
    "title": "Form Trigger isn't listening yet",
    "message": 'Click the "Execute step" button in your form trigger',
}


def _stack_head(stored: StoredExecution) -> Mapping[str, Any] | None:
    data: Mapping[str, Any] = stored.data or {}
    stack = (data.get("executionData") or {}).get("nodeExecutionStack") or []
    node = stack[0].get("node") if stack else None
    return node if isinstance(node, Mapping) else None


def _waiting_form_node(stored: StoredExecution) -> str | None:
    node = _stack_head(stored)
    if stored.status == "waiting" and node is not None and node.get("type") == FORM_TYPE:
        return str(node.get("name"))
    return None


async def execution_status(runner: WorkflowRunner, execution_id: str, signature: str | None) -> str | None:
    """n8n's ``handleStatusRequest``: ``form-waiting``, the execution's status, or ``null``; ``None`` when the
    signature does not sign the execution (the status is not told)."""
    stored = await runner.db(runner.store.executions.get, execution_id)
    if stored is None:
        return "null"
    if not runner.signer.verify(stored.id, signature):
        return None
    return "form-waiting" if _waiting_form_node(stored) else stored.status


def _page_of(stored: StoredExecution, node_name: str) -> dict[str, Any] | None:
    data: Mapping[str, Any] = stored.data or {}
    context = (data.get("executionData") or {}).get("contextData") or {}
    page = (context.get(f"node:{node_name}") or {}).get(PAGE_KEY)
    return dict(page) if isinstance(page, Mapping) else None


def _completion_of(stored: StoredExecution) -> dict[str, Any]:
    """n8n's ``findCompletionPage``: the last Form ending that ran, else the "Form Submitted" page."""
    data: Mapping[str, Any] = stored.data or {}
    run_data = (data.get("resultData") or {}).get("runData") or {}
    nodes = {n.get("name"): n for n in (stored.workflow_data or {}).get("nodes") or [] if isinstance(n, Mapping)}
    for name in reversed(list(run_data)):
        node = nodes.get(name) or {}
        operation = (node.get("parameters") or {}).get("operation")
        if node.get("type") == FORM_TYPE and operation == "completion" and not node.get("disabled"):
            page = _page_of(stored, str(name))
            if page is not None:
                return page
    return dict(FORM_SUBMITTED_PAGE)


async def _load(runner: WorkflowRunner, execution_id: str, signature: str | None) -> StoredExecution | FormAnswer:
    stored = await runner.db(runner.store.executions.get, execution_id)
    if stored is None:
        return FormView(data=dict(NOT_FOUND), status=404)
    if not runner.signer.verify(stored.id, signature):
        return FormView(data=dict(INVALID_LINK), status=401)
    if stored.status in ("error", "crashed"):
        raise ExecutionConflictError(f'The execution "{stored.id}" has finished with error.', execution_id=stored.id)
    if stored.status in ("running", "new"):
        raise not_waiting_error(stored)
    return stored


async def show_waiting_form(
    runner: WorkflowRunner, execution_id: str, signature: str | None, *, test_run: bool = False
) -> FormAnswer:
    """The page of the Form node the execution waits at, or the ending of a finished execution."""
    loaded = await _load(runner, execution_id, signature)
    if not isinstance(loaded, StoredExecution):
        return loaded
    if loaded.status != "waiting":
        return await _with_downloads(runner, _completion_of(loaded))
    node = _waiting_form_node(loaded)
    page = _page_of(loaded, node) if node else None
    if page is None:
        raise not_waiting_error(loaded)
    return await _with_downloads(runner, page)


async def _with_downloads(runner: WorkflowRunner, page: dict[str, Any]) -> FormAnswer:
    """A Form ending's files (``returnBinary``), read through the binary-data service; n8n's error for a missing one.
    A page that could not be built (bad JSON fields) answers its error, as n8n's page does when opened."""
    if page.get("kind") == "error":
        return WebhookResponse.json({"code": 0, "message": page.get("message"), "hint": page.get("description")}, 500)
    downloads = []
    for wanted in page.get("binaries") or []:
        entry = wanted.get("entry")
        if not isinstance(entry, Mapping):
            message = f"No binary data with field {wanted.get('field')} found."
            return WebhookResponse.json({"code": 0, "message": message}, 500)
        data = await runner.options.binary_data.get_bytes(entry)
        mime = str(entry.get("mimeType") or "application/octet-stream")
        downloads.append({"fileName": str(entry.get("fileName") or "file"), "mimeType": mime, "data": data})
    return FormView(data=page, downloads=downloads)


async def submit_waiting_form(
    runner: WorkflowRunner, execution_id: str, request: IncomingRequest, signature: str | None, *, waiting_base: str
) -> FormAnswer:
    """Resume the execution with the page's submission; where it waits next, if at another page."""
    loaded = await _load(runner, execution_id, signature)
    if not isinstance(loaded, StoredExecution):
        return loaded
    if loaded.status != "waiting":
        return WebhookResponse(status_code=200)
    node = _waiting_form_node(loaded)
    if node is None:
        raise not_waiting_error(loaded)
    completion = (_page_of(loaded, node) or {}).get("kind") == "completion"
    submission = submission_of(request, test=loaded.mode == "manual")
    claimed = await claim_waiting(runner, execution_id, signature=signature)
    resume = {SUBMISSION_KEY: submission.to_json()}
    task = runner.spawn(runner.resume_claimed(claimed, resume_request=resume))
    try:
        result = await task
    except Exception:
        return WebhookResponse.json(ERROR, 500)
    if result.run["status"] == "error":
        return WebhookResponse.json(ERROR, 500)
    if completion:  # n8n answers the ending's resume with an empty page
        return WebhookResponse(status_code=200, headers={"content-type": "text/html; charset=utf-8"})
    stored = await runner.db(runner.store.executions.get, execution_id)
    if stored is not None and _waiting_form_node(stored):
        return WebhookResponse.json({"formWaitingUrl": form_waiting_url(runner, waiting_base, execution_id)})
    return WebhookResponse(status_code=200)


__all__ = [
    "INVALID_LINK",
    "NOT_FOUND",
    "NOT_LISTENING",
    "STATUS_SUFFIX",
    "execution_status",
    "show_waiting_form",
    "submit_waiting_form",
]
