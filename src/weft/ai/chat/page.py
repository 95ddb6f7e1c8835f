"""The hosted chat page: ``page.html`` (vanilla JS, no external resources) with the trigger's settings."""

from __future__ import annotations

import html
import json
from functools import cache
from importlib.resources import files
from typing import Any

from weft.ai.chat.trigger import ChatTriggerOptions

_CONFIG = "__WEFT_CHAT_CONFIG__"
_TITLE = "__WEFT_CHAT_TITLE__"


@cache
def _template() -> str:
    return files("weft.ai.chat").joinpath("page.html").read_text(encoding="utf-8")


def render_page(options: ChatTriggerOptions, webhook_url: str, *, mode: str) -> str:
    """The page for a trigger; ``webhook_url`` is where it posts messages, ``mode`` is ``test``/``production``."""
    config: dict[str, Any] = {
        "webhookUrl": webhook_url,
        "mode": mode,
        "streaming": options.streaming,
        "authentication": options.authentication,
        "title": options.title,
        "subtitle": options.subtitle,
        "inputPlaceholder": options.input_placeholder,
        "initialMessages": [line for line in options.initial_messages.split("\n") if line.strip()],
        "loadPreviousSession": options.load_previous_session != "notSupported",
        "allowFileUploads": options.allow_file_uploads,
        "allowedFilesMimeTypes": options.allowed_mime_types,
        "showWelcomeScreen": options.show_welcome_screen,
        "getStarted": options.get_started,
        "customCss": options.custom_css,
    }
    # JSON inside <script>: no "<" may end the element early
    blob = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    return _template().replace(_TITLE, html.escape(options.title or "Chat")).replace(_CONFIG, blob)


__all__ = ["render_page"]
