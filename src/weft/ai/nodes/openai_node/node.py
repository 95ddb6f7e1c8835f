"""``@n8n/n8n-nodes-langchain.openAi``: the OpenAI node (n8n's ``vendors/OpenAi``), the operations Weft runs:

* Text → Message a Model: Chat Completions up to typeVersion 1.8 (:mod:`.text_message`), the Responses API
  from 2 (:mod:`.text_response`), with the tools connected to its Tools input;
* Image → Analyze Image, with image URLs or binary files (:mod:`.image_analyze`).

Each item is one operation; a failed item is ``{error}`` when the node continues on fail (n8n's ``router``).
As n8n 2.41, a prompt that is blank is an error ("A non-empty prompt is required."). The other resources
(assistant, audio, file, conversation, video) and operations (generate image, classify) are errors naming the
operation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar

from weft.ai.nodes.openai_node import image_analyze, text_message, text_response
from weft.ai.nodes.openai_node.tools import MODELS_WITHOUT_TOOLS
from weft.ai.nodes.openai_node.transport import OpenAiTransport
from weft.errors import NodeApiError, NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_TOOL, MAIN, Item, NodeOutput

Operation = Callable[[ExecuteContext, OpenAiTransport, int], Awaitable[list[Item]]]
VERSIONS: tuple[float, ...] = (1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 2, 2.1, 2.2, 2.3)
#: n8n's ``getCustomErrorMessage``: OpenAI error codes with n8n's own wording.
_CUSTOM_MESSAGES = {
    "insufficient_quota": 'Insufficient quota detected. <a href="https://docs.n8n.io/integrations/builtin/'
    'app-nodes/n8n-nodes-langchain.openai/common-issues/#insufficient-quota" target="_blank">Learn more</a> '
    "about resolving this issue",
    "rate_limit_exceeded": "OpenAI: Rate limit reached",
}


def _inputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """``configureNodeInputs``: a Tools input for Message a Model unless the model hides tools (the input
    function cannot see the typeVersion; before 1.2 only such old models lack the input here)."""
    resource = parameters.get("resource", "text")
    operation = parameters.get("operation", "message" if resource == "text" else None)
    if resource != "text" or operation not in ("message", "response"):
        return (MAIN,)
    model = parameters.get("modelId")
    model = model.get("value") if isinstance(model, Mapping) else model
    return (MAIN,) if str(model or "") in MODELS_WITHOUT_TOOLS else (MAIN, AI_TOOL)


def _operation(ctx: ExecuteContext) -> Operation:
    version = float(ctx.node.typeVersion)
    resource = ctx.get_node_parameter("resource", 0, "text")
    default = ("response" if version >= 2 else "message") if resource == "text" else "generate"
    operation = ctx.get_node_parameter("operation", 0, default)
    if resource == "text" and operation == "message" and version < 2:
        return text_message.execute
    if resource == "text" and operation == "response" and version >= 2:
        return text_response.execute
    if resource == "image" and operation == "analyze":
        return image_analyze.execute
    raise NodeOperationError(
        ctx.node.name,
        f'The operation "{operation}" is not supported!',
        description=f"Weft runs Text → Message a Model and Image → Analyze Image (resource '{resource}').",
    )


class OpenAi(NodeType):
    """The OpenAI node: message a model, analyze an image."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.openAi",
        display_name="OpenAI",
        versions=VERSIONS,
        description="Message an assistant or GPT, analyze images, generate audio, etc.",
        inputs=_inputs,
        outputs=(MAIN,),
        credentials=("openAiApi",),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        operation = _operation(ctx)
        transport = OpenAiTransport(ctx)
        output: list[Item] = []
        try:
            for index in range(len(ctx.get_input_data())):
                try:
                    output.extend(await operation(ctx, transport, index))
                except Exception as error:  # n8n's router: every failure is an item error or the node's error
                    if ctx.continue_on_fail():
                        message = getattr(error, "message", None) or str(error)
                        output.append({"json": {"error": message}, "pairedItem": {"item": index}})
                        continue
                    raise _node_error(ctx, error, index) from error
        finally:
            await transport.aclose()
        return [output]


def _node_error(ctx: ExecuteContext, error: Exception, index: int) -> Exception:
    if isinstance(error, NodeApiError):
        body = getattr(error, "body", None)
        inner = body.get("error") if isinstance(body, dict) else None
        code = inner.get("code") if isinstance(inner, dict) else None
        if isinstance(code, str) and code in _CUSTOM_MESSAGES:
            error.message = _CUSTOM_MESSAGES[code]
        return error
    if isinstance(error, NodeError):
        return error
    return NodeOperationError(ctx.node.name, str(error) or type(error).__name__, item_index=index)


__all__ = ["VERSIONS", "OpenAi"]
