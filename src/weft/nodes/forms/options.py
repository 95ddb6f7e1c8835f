"""What the host reads of the form nodes: their types, a Form Trigger's options (where its form is served, who may
submit, how it answers) and where a waiting Form node keeps the page it shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.nodes.forms.page import DEFAULT_SUBMITTED_TEXT
from weft.workflow import NodeModel

FORM_TRIGGER_TYPE = "n8n-nodes-base.formTrigger"
FORM_TYPE = "n8n-nodes-base.form"

#: n8n's ``FORM_TRIGGER_PATH_IDENTIFIER``: version 1 serves its form at ``/webhook/<path>/n8n-form``.
V1_PATH_SUFFIX = "n8n-form"

#: Where a waiting Form node keeps the page it shows (its node context): built when it runs, read by the server.
PAGE_KEY = "formPage"


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
    "FORM_TRIGGER_TYPE",
    "FORM_TYPE",
    "PAGE_KEY",
    "V1_PATH_SUFFIX",
    "FormTriggerOptions",
    "form_path",
    "form_trigger_options",
    "is_form_trigger",
]
