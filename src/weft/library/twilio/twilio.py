"""The Twilio node (``n8n-nodes-base.twilio`` 1): "SMS: Send" and "Call: Make", each one form-encoded POST to
``https://api.twilio.com/2010-04-01/Accounts/<accountSid>/Messages.json`` / ``Calls.json`` with the ``twilioApi``
credential (HTTP Basic: account SID and auth token, or API key SID and secret).

As n8n: "To Whatsapp" prefixes both numbers with ``whatsapp:``; a call's message is sent as TwiML as it is, or
wrapped as ``<Response><Say>…</Say></Response>`` with the XML characters escaped; ``StatusCallback`` is always
sent (empty when unset). One output item per input item: Twilio's answer, or ``{error: <message>}`` under
"continue on fail"."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

CREDENTIAL = "twilioApi"
_XML = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;"}


def escape_xml(text: str) -> str:
    """n8n's ``escapeXml``: the five XML special characters as entities."""
    return "".join(_XML.get(ch, ch) for ch in text)


class Twilio(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.twilio",
        display_name="Twilio",
        versions=(1,),
        description="Send SMS and WhatsApp messages or make phone calls",
        group=("transform",),
        usable_as_tool=True,
        credentials=(CREDENTIAL,),
        defaults={"resource": "sms", "operation": "send"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            for index in range(len(ctx.get_input_data())):
                try:
                    endpoint, form = _request(ctx.node.name, scope, index)
                    answer = await _send(api, endpoint, form, index)
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}})
                    continue
                out.append({"json": answer if isinstance(answer, dict) else {}})
        return [out]


def _request(node: str, scope: RoutingScope, index: int) -> tuple[str, dict[str, Any]]:
    """The endpoint and form of the item's operation (n8n's checks for an unknown resource or operation)."""
    resource = str(scope.parameter("resource", index, "sms"))
    operation = str(scope.parameter("operation", index, ""))
    if resource not in ("sms", "call"):
        raise NodeOperationError(node, f'The resource "{resource}" is not known!', item_index=index)
    if (resource, operation) not in (("sms", "send"), ("call", "make")):
        raise NodeOperationError(node, f'The operation "{operation}" is not known!', item_index=index)
    form: dict[str, Any] = {"From": scope.parameter("from", index), "To": scope.parameter("to", index)}
    message = scope.parameter("message", index)
    if resource == "sms":
        form["Body"] = message
        form["StatusCallback"] = scope.parameter("options.statusCallback", index, "")
        if scope.parameter("toWhatsapp", index, False):
            form["From"], form["To"] = f"whatsapp:{form['From']}", f"whatsapp:{form['To']}"
        return "/Messages.json", form
    use_twiml = scope.parameter("twiml", index, False)
    form["Twiml"] = message if use_twiml else f"<Response><Say>{escape_xml(str(message))}</Say></Response>"
    form["StatusCallback"] = scope.parameter("options.statusCallback", index, "")
    return "/Calls.json", form


async def _send(api: ApiRequests, endpoint: str, form: dict[str, Any], index: int) -> Any:
    """n8n's ``twilioApiRequest``: the form to the account's endpoint, with the credential's authentication."""
    credential = await api.credential(CREDENTIAL)
    options: dict[str, Any] = {
        "method": "POST",
        "body": form,
        "qs": {},
        "url": f"https://api.twilio.com/2010-04-01/Accounts/{credential.data.get('accountSid', '')}{endpoint}",
        "headers": {"content-type": "application/x-www-form-urlencoded"},
        "json": True,
    }
    return await api.request(CREDENTIAL, options, index)


__all__ = ["Twilio", "escape_xml"]
