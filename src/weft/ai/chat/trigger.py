"""Chat Trigger (``@n8n/n8n-nodes-langchain.chatTrigger``): runs the workflow when a chat message arrives.

The server answers ``/webhook/<webhookId>/chat`` (an active workflow) and ``/webhook-test/<webhookId>/chat``
(while the editor listens), both only when ``public`` is on:
``GET`` serves the hosted chat page (``public`` on, mode ``hostedChat``), ``POST`` takes a message
``{action: "sendMessage", sessionId, chatInput}`` (JSON or multipart with files). The request body becomes the
node's output item, which ``execute`` passes through. How the server answers (``options.responseMode``:
``lastNode``, ``responseNode``/``responseNodes``, ``streaming``) is read with :func:`chat_trigger_options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from weft.errors import WeftError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_MEMORY, NodeModel, NodeOutput

CHAT_TRIGGER_TYPE = "@n8n/n8n-nodes-langchain.chatTrigger"

DEFAULT_INITIAL_MESSAGES = "Hi there! 👋\nMy name is Nathan. How can I assist you today?"
DEFAULT_TITLE = "Hi there! 👋"
DEFAULT_SUBTITLE = "Start a chat. We're here to help you 24/7."
DEFAULT_PLACEHOLDER = "Type your question.."
LOAD_PREVIOUS_SESSION = ("notSupported", "memory", "manually")
RESPONSE_MODES = ("lastNode", "responseNode", "streaming")


class ChatTriggerError(WeftError):
    """A Chat Trigger's parameters cannot be served (an unknown option value, an unsupported authentication)."""

    n8n_name = "NodeOperationError"


def _inputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """n8n: a memory input only in hosted/embedded mode with ``loadPreviousSession: memory``."""
    options = parameters.get("options") or {}
    mode = parameters.get("mode") or "hostedChat"
    wants_memory = isinstance(options, Mapping) and options.get("loadPreviousSession") == "memory"
    return (AI_MEMORY,) if mode in ("hostedChat", "webhook") and wants_memory else ()


class ChatTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=CHAT_TRIGGER_TYPE,
        display_name="Chat Trigger",
        versions=(1, 1.1, 1.2, 1.3, 1.4, 1.5),
        description="Runs the workflow when an n8n generated webchat is submitted",
        group=("trigger",),
        inputs=_inputs,
        credentials=("httpBasicAuth",),
        defaults={"public": False, "mode": "hostedChat", "authentication": "none", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return [ctx.get_input_data() or [{"json": {}}]]


@dataclass(frozen=True, kw_only=True)
class ChatTriggerOptions:
    """A Chat Trigger's parameters that decide how the chat is served and answered (static values)."""

    webhook_id: str
    public: bool = False
    """The chat URLs (production and test) answer only when on, else an empty 404 (as n8n); the editor's chat
    panel does not need it."""
    mode: str = "hostedChat"
    """``hostedChat`` (the page is served on ``GET``) or ``webhook`` (embedded chat / API only)."""
    authentication: str = "none"
    """``none``, ``basicAuth`` (credential ``httpBasicAuth``) or ``n8nUserAuth`` (a login session)."""
    initial_messages: str = DEFAULT_INITIAL_MESSAGES
    response_mode: str = "lastNode"
    """``lastNode``, ``responseNode`` (n8n's ``responseNodes`` too) or ``streaming``."""
    load_previous_session: str = "notSupported"
    allow_file_uploads: bool = False
    allowed_mime_types: str = "*"
    allowed_origins: str = "*"
    title: str = DEFAULT_TITLE
    subtitle: str = DEFAULT_SUBTITLE
    input_placeholder: str = DEFAULT_PLACEHOLDER
    show_welcome_screen: bool = False
    get_started: str = "New Conversation"
    custom_css: str = ""

    @property
    def streaming(self) -> bool:
        return self.response_mode == "streaming"


def chat_trigger_options(node: NodeModel) -> ChatTriggerOptions:
    """Read the node's parameters; :class:`ChatTriggerError` for values n8n refuses too."""
    params = node.parameters
    raw = params.get("options")
    options: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    load = str(options.get("loadPreviousSession") or "notSupported")
    if load not in LOAD_PREVIOUS_SESSION:
        raise ChatTriggerError(
            f"Invalid value for 'loadPreviousSession': {load!r}",
            description=f"Set 'Load Previous Session' on node {node.name!r} to one of "
            f"{', '.join(LOAD_PREVIOUS_SESSION)}.",
        )
    return ChatTriggerOptions(
        webhook_id=str(node.webhookId or ""),
        public=bool(params.get("public", False)),
        mode=str(params.get("mode") or "hostedChat"),
        authentication=str(params.get("authentication") or "none"),
        initial_messages=str(params.get("initialMessages", DEFAULT_INITIAL_MESSAGES) or ""),
        response_mode=_response_mode(node, options),
        load_previous_session=load,
        allow_file_uploads=bool(options.get("allowFileUploads", False)),
        allowed_mime_types=str(options.get("allowedFilesMimeTypes") or "*"),
        allowed_origins=str(options.get("allowedOrigins") or "*"),
        title=str(options.get("title", DEFAULT_TITLE)),
        subtitle=str(options.get("subtitle", DEFAULT_SUBTITLE)),
        input_placeholder=str(options.get("inputPlaceholder", DEFAULT_PLACEHOLDER)),
        show_welcome_screen=bool(options.get("showWelcomeScreen", False)),
        get_started=str(options.get("getStarted") or "New Conversation"),
        custom_css=str(options.get("customCss") or ""),
    )


def _response_mode(node: NodeModel, options: Mapping[str, Any]) -> str:
    """n8n: ``options.responseMode ?? (availableInChat ? "streaming" : "lastNode")``; streaming from v1.2."""
    default = "streaming" if node.parameters.get("availableInChat") else "lastNode"
    mode = str(options.get("responseMode") or default)
    if mode == "responseNodes":
        mode = "responseNode"
    if mode not in RESPONSE_MODES:
        raise ChatTriggerError(
            f"Invalid value for 'responseMode': {mode!r}",
            description=f"Set 'Response Mode' on node {node.name!r} to one of lastNode, responseNode, streaming.",
        )
    if mode == "streaming" and float(node.typeVersion) < 1.2:
        return "lastNode"  # versions 1 and 1.1 have no streaming option
    return mode


def is_chat_trigger(node: NodeModel) -> bool:
    return node.type == CHAT_TRIGGER_TYPE and not node.disabled


__all__ = [
    "CHAT_TRIGGER_TYPE",
    "ChatTrigger",
    "ChatTriggerError",
    "ChatTriggerOptions",
    "chat_trigger_options",
    "is_chat_trigger",
]
