"""n8n Form Trigger (``n8n-nodes-base.formTrigger``): a hosted web form whose submissions start the workflow.

The server shows the form (``GET /form/<path>``, ``/form-test/<path>``; version 1 at
``/webhook/<path>/n8n-form``) and turns a submission (``POST``, multipart) into this node's input: a raw
:class:`~weft.nodes.forms.fields.Submission` under :data:`SUBMISSION_KEY`. ``execute`` builds n8n's
output item from it: one key per field, ``submittedAt``, ``formMode``, ``formQueryParameters`` when the URL had
a query, and uploaded files as binary data. The parameters the server needs are read by
:func:`weft.nodes.forms.options.form_trigger_options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.forms.fields import SUBMISSION_KEY, Submission, form_return_item, parameter_fields
from weft.nodes.forms.options import FORM_TRIGGER_TYPE, form_trigger_options
from weft.workflow import NodeOutput


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


__all__ = ["FormTrigger"]
