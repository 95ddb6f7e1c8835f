"""n8n Form (``n8n-nodes-base.form``): a further page of a Form Trigger's form, or its ending.

On its run the node checks that a Form Trigger comes before it (and that an ending is the last Form node),
then puts the execution to wait (``waitReason: resume-node``): the browser is sent to
``/form-waiting/<executionId>``, where the server shows this page (:mod:`weft.services.forms`). The page's
submission resumes the execution and the node runs again with it (``metadata.resumeRequest``):

* ``operation: page``: the output is the submission, as the trigger's (fields by label or name, files as binary);
* ``operation: completion``: the output is the node's input; the server shows the ending (text, a redirect, a
  text of its own, or a binary file of an earlier node).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

from weft.errors import NodeOperationError, WeftError
from weft.nodes.contract import WAIT_INDEFINITELY, ExecuteContext, NodeDescription, NodeType
from weft.nodes.forms.fields import SUBMISSION_KEY, Submission, form_return_item, json_fields, parameter_fields
from weft.nodes.forms.options import FORM_TRIGGER_TYPE, FORM_TYPE, PAGE_KEY, form_trigger_options
from weft.nodes.forms.page import completion_page, form_page
from weft.workflow import NodeModel, NodeOutput, Workflow

WAITING_KEY = "formWaiting"

_UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}


class Form(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=FORM_TYPE,
        display_name="n8n Form",
        versions=(1, 2.3, 2.4, 2.5),
        description="Generate webforms in n8n and pass their responses to the workflow",
        group=("input",),
        defaults={
            "operation": "page",
            "defineForm": "fields",
            "formFields": {},
            "jsonOutput": "[]",
            "limitWaitTime": False,
            "limitType": "afterTimeInterval",
            "resumeAmount": 1,
            "resumeUnit": "hours",
            "respondWith": "text",
            "redirectUrl": "",
            "completionTitle": "",
            "completionMessage": "",
            "responseText": "",
            "inputDataFieldName": "data",
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        operation = ctx.get_node_parameter("operation", 0)
        request = _resume_request(ctx)
        if ctx.get_context("node").pop(WAITING_KEY, None) and request is None:
            return [ctx.get_input_data()]  # the wait time ran out (``limitWaitTime``): n8n passes the input on
        if request is not None:
            if operation == "completion":
                return [ctx.get_input_data()]
            return [[await self._page_item(ctx, Submission.from_json(request))]]
        trigger = _executed_trigger(ctx)
        if operation == "completion" and _has_next_page(ctx.workflow, ctx.node.name):
            raise NodeOperationError(ctx.node.name, "Completion has to be the last Form node in the workflow")
        try:
            page = _completion(ctx, trigger) if operation == "completion" else _page(ctx, trigger)
        except WeftError as error:  # n8n builds the page when it is opened: the error shows there, not here
            page = {"kind": "error", "message": str(error), "description": getattr(error, "description", None)}
        ctx.get_context("node").update({PAGE_KEY: page, WAITING_KEY: True})
        ctx.put_execution_to_wait(_wait_till(ctx), resume_node=True)
        return [ctx.get_input_data()]

    async def _page_item(self, ctx: ExecuteContext, submission: Submission) -> Any:
        trigger = form_trigger_of(ctx.workflow, ctx.node.name)
        use_timezone = form_trigger_options(trigger).use_workflow_timezone if trigger is not None else True
        return await form_return_item(ctx, page_fields(ctx), submission, use_workflow_timezone=use_timezone)


def _page(ctx: ExecuteContext, trigger: NodeModel) -> dict[str, Any]:
    """n8n's ``renderFormNode``: this page's title, fields and button, the trigger's where it has none."""
    options = ctx.get_node_parameter("options", 0, {}) or {}
    trigger_options = form_trigger_options(trigger)
    query = _first_json(ctx, trigger.name).get("formQueryParameters")
    return form_page(
        title=str(options.get("formTitle") or trigger_options.title),
        description=str(options.get("formDescription") or ""),
        fields=page_fields(ctx),
        version=float(ctx.node.typeVersion),
        query=query if isinstance(query, Mapping) else None,
        test_run=ctx.mode == "manual",
        use_response_data=True,
        append_attribution=trigger_options.append_attribution,
        button_label=str(options.get("buttonLabel") or trigger_options.button_label or "Submit"),
        custom_css=options.get("customCss"),
    )


def _completion(ctx: ExecuteContext, trigger: NodeModel) -> dict[str, Any]:
    """n8n's ``renderFormCompletion``: the ending's text, or where it redirects, or what it shows."""
    options = ctx.get_node_parameter("options", 0, {}) or {}
    respond_with = ctx.get_node_parameter("respondWith", 0)
    trigger_options = form_trigger_options(trigger)
    attribution = options.get("appendAttribution")
    binary = str(ctx.get_node_parameter("inputDataFieldName", 0) or "") if respond_with == "returnBinary" else ""
    names = [f.strip() for f in binary.split(",") if f.strip()]
    return completion_page(
        title=str(ctx.get_node_parameter("completionTitle", 0) or ""),
        message=str(ctx.get_node_parameter("completionMessage", 0) or ""),
        form_title=str(options.get("formTitle") or trigger_options.title),
        append_attribution=trigger_options.append_attribution if attribution is None else attribution is not False,
        response_text=str(ctx.get_node_parameter("responseText", 0) or "") if respond_with == "showText" else "",
        redirect_url=str(ctx.get_node_parameter("redirectUrl", 0) or "") if respond_with == "redirect" else None,
        custom_css=options.get("customCss"),
        binary_fields=names,
        binaries=_parent_binaries(ctx, names),
    )


def _parent_binaries(ctx: ExecuteContext, names: list[str]) -> list[dict[str, Any]]:
    """n8n's ``binaryResponse``: each field from the earliest ancestor whose first item has it (``None``: none)."""
    if not names:
        return []
    found: list[dict[str, Any]] = []
    ancestors = [_first_binary(ctx, parent) for parent in reversed(ctx.workflow.parents(ctx.node.name))]
    for name in names:
        entry = next((binary[name] for binary in ancestors if name in binary), None)
        found.append({"field": name, "entry": entry})
    return found


def _first_binary(ctx: ExecuteContext, node_name: str) -> dict[str, Any]:
    return _first(ctx, node_name, "binary")


def _first_json(ctx: ExecuteContext, node_name: str) -> dict[str, Any]:
    return _first(ctx, node_name, "json")


def _first(ctx: ExecuteContext, node_name: str, key: str) -> dict[str, Any]:
    """``$("<node>").first().<key>``, or ``{}`` for a node that did not run."""
    try:
        value = ctx.evaluate_expression("={{ $(" + json.dumps(node_name) + f").first().{key} }}}}")
    except WeftError:
        return {}
    return dict(value) if isinstance(value, Mapping) else {}


def page_fields(ctx: Any) -> list[dict[str, Any]]:
    """The page's fields: ``formFields`` (expressions evaluated) or, with ``defineForm: json``, ``jsonOutput``."""
    if ctx.get_node_parameter("defineForm", 0) == "json":
        return json_fields(ctx.get_node_parameter("jsonOutput", 0), ctx.node.name)
    return parameter_fields(ctx.get_node_parameter("formFields", 0, {}), ctx.node.name)


def _resume_request(ctx: ExecuteContext) -> Mapping[str, Any] | None:
    execute_data = getattr(ctx, "execute_data", None) or {}
    request = (execute_data.get("metadata") or {}).get("resumeRequest")
    if isinstance(request, Mapping) and isinstance(request.get(SUBMISSION_KEY), Mapping):
        return request[SUBMISSION_KEY]  # type: ignore[no-any-return]
    return None


def _executed_trigger(ctx: ExecuteContext) -> NodeModel:
    """n8n's ``getFormTriggerNode``: the Form Trigger before this node that ran in this execution."""
    triggers = [
        node
        for name in ctx.workflow.parents(ctx.node.name)
        if (node := ctx.workflow.nodes.get(name)) is not None and node.type == FORM_TRIGGER_TYPE
    ]
    if not triggers:
        raise NodeOperationError(ctx.node.name, "Form Trigger node must be set before this node")
    execution: Mapping[str, Any] = ctx.expression_context().run_execution_data or {}
    run_data: Mapping[str, Any] = (execution.get("resultData") or {}).get("runData") or {}
    # n8n's execute only asks for a Form Trigger before the node; its page (rendered later) takes the one that ran
    return next((trigger for trigger in triggers if run_data.get(trigger.name)), triggers[0])


def form_trigger_of(workflow: Workflow, node_name: str) -> NodeModel | None:
    """The first Form Trigger among the node's ancestors (n8n's ``getFormTriggerNode``), or ``None``."""
    for parent in workflow.parents(node_name, depth=-1):
        node = workflow.nodes.get(parent)
        if node is not None and node.type == FORM_TRIGGER_TYPE:
            return node
    return None


def _has_next_page(workflow: Workflow, node_name: str) -> bool:
    children = workflow.children(node_name, depth=-1)
    return any((n := workflow.nodes.get(c)) is not None and n.type == FORM_TYPE for c in children)


def _wait_till(ctx: ExecuteContext) -> datetime:
    """n8n's ``configureWaitTillDate``: forever, or until ``limitWaitTime`` says."""
    if ctx.get_node_parameter("limitWaitTime", 0) is not True:
        return WAIT_INDEFINITELY
    if ctx.get_node_parameter("limitType", 0) == "afterTimeInterval":
        amount = float(ctx.get_node_parameter("resumeAmount", 0))
        return datetime.now(UTC) + timedelta(
            seconds=amount * _UNIT_SECONDS.get(ctx.get_node_parameter("resumeUnit", 0), 1)
        )
    value = ctx.get_node_parameter("maxDateAndTime", 0, "")
    try:
        moment = datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise NodeOperationError(
            ctx.node.name,
            "Could not configure Limit Wait Time",
            description=f"'maxDateAndTime' must be an ISO date and time, not {value!r}.",
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


__all__ = ["Form", "form_trigger_of", "page_fields"]
