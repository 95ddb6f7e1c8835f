"""n8n Form Trigger (``n8n-nodes-base.formTrigger``): a hosted web form whose submissions start the workflow.

The server shows the form (``GET /form/<path>``, ``/form-test/<path>``; version 1 at
``/webhook/<path>/n8n-form``) and turns a submission (``POST``, multipart) into this node's input: a raw
:class:`~weft.nodes.builtin._form_fields.Submission` under :data:`SUBMISSION_KEY`. ``execute`` builds n8n's
output item from it: one key per field, ``submittedAt``, ``formMode``, ``formQueryParameters`` when the URL had
a query, and uploaded files as binary data. The parameters the server needs are read by :func:`form_trigger_options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from weft.nodes.builtin._form_fields import SUBMISSION_KEY, Submission, form_return_item, parameter_fields
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeModel, NodeOutput

FORM_TRIGGER_TYPE = "n8n-nodes-base.formTrigger"

#: n8n's ``FORM_TRIGGER_PATH_IDENTIFIER``: version 1 serves its form at ``/webhook/<path>/n8n-form``.
V1_PATH_SUFFIX = "n8n-form"

DEFAULT_SUBMITTED_TEXT = "Your response has been recorded"


class FormTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=FORM_TRIGGER_TYPE,
        display_name="n8n Form Trigger",
        versions=(1, 2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6),
        description="Generate webforms in n8n and pass their responses to the workflow",
        group=("trigger",),
        inputs=(),
        credentials=("httpBasicAuth",),
        defaults={
            "authentication": "none",
            "path": "",
            "formTitle": "",
            "formDescription": "",
            "formFields": {},
            "responseMode": "onReceived",
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        if not items or SUBMISSION_KEY not in items[0]:
            return [items or [{"json": {}}]]  # pinned or manual input: passed through
        raw: Mapping[str, Any] = items[0]
        submission = Submission.from_json(raw[SUBMISSION_KEY])
        options = form_trigger_options(ctx.node)
        fields = parameter_fields(ctx.get_node_parameter("formFields", 0, {}), ctx.node.name)
        item = await form_return_item(ctx, fields, submission, use_workflow_timezone=options.use_workflow_timezone)
        if submission.query:
            item["json"]["formQueryParameters"] = submission.query
        return [[item]]


@dataclass(frozen=True, kw_only=True)
class FormTriggerOptions:
    """What the server needs of a Form Trigger: where it listens, who may submit, how it answers."""

    version: float
    path: str
    """The path under ``/form`` (version 1: under ``/webhook``, with ``/n8n-form`` appended)."""
    authentication: str
    """``none`` or ``basicAuth`` (``n8nUserAuth``, 2.6, is refused: Weft has no form login)."""
    response_mode: str
    """``onReceived``, ``lastNode`` or ``responseNode`` (the last only up to version 2.1)."""
    title: str = ""
    description: str = ""
    button_label: str = "Submit"
    append_attribution: bool = True
    submitted_text: str | None = None
    redirect_url: str | None = None
    custom_css: str | None = None
    ignore_bots: bool = False
    use_workflow_timezone: bool = False
    ip_whitelist: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)


def form_path(node: NodeModel) -> str:
    """n8n's ``$parameter["path"] || $parameter["options"]?.path || $webhookId``, without slashes."""
    params = node.parameters
    options = params.get("options") or {}
    value = params.get("path") or (options.get("path") if isinstance(options, Mapping) else None) or node.webhookId
    return str(value or "").strip().strip("/")


def form_trigger_options(node: NodeModel) -> FormTriggerOptions:
    """Read the node's parameters (static values; expressions in them are not evaluated)."""
    params = node.parameters
    options: Mapping[str, Any] = params.get("options") or {}
    version = float(node.typeVersion)
    submitted_text, redirect = _respond_with(options)
    timezone = options.get("useWorkflowTimezone")
    return FormTriggerOptions(
        version=version,
        path=form_path(node),
        authentication=str(params.get("authentication") or "none") if version > 1 else "none",
        response_mode=str(params.get("responseMode") or "onReceived"),
        title=str(params.get("formTitle") or ""),
        description=str(params.get("formDescription") or ""),
        button_label=str(options.get("buttonLabel") or "Submit"),
        append_attribution=options.get("appendAttribution") is not False,
        submitted_text=submitted_text,
        redirect_url=redirect,
        custom_css=options.get("customCss") if version > 2 else None,
        ignore_bots=bool(options.get("ignoreBots")),
        use_workflow_timezone=bool(timezone) if timezone is not None else version > 2,
        ip_whitelist=str(options.get("ipWhitelist") or ""),
        options=options,
    )


def _respond_with(options: Mapping[str, Any]) -> tuple[str | None, str | None]:
    respond = options.get("respondWithOptions")
    if isinstance(respond, Mapping):
        values = respond.get("values") or {}
        if values.get("respondWith") == "redirect":
            return None, str(values.get("redirectUrl") or "") or None
        text = values.get("formSubmittedText")
        return (DEFAULT_SUBMITTED_TEXT if text is None else str(text)), None
    text = options.get("formSubmittedText")
    return (DEFAULT_SUBMITTED_TEXT if text is None else str(text)), None


def is_form_trigger(node: NodeModel) -> bool:
    return node.type == FORM_TRIGGER_TYPE and not node.disabled


__all__ = [
    "DEFAULT_SUBMITTED_TEXT",
    "FORM_TRIGGER_TYPE",
    "V1_PATH_SUFFIX",
    "FormTrigger",
    "FormTriggerOptions",
    "form_path",
    "form_trigger_options",
    "is_form_trigger",
]
