"""The Telegram Bot API's webhook methods (``getWebhookInfo``, ``setWebhook``, ``deleteWebhook``) and files
(``getFile``, ``/file/bot<token>/<path>``), for the Telegram Trigger's tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "api.telegram.org"
TOKEN = "123456:trigger-test-token"
FILE_BYTES = b"\x89PNG fake photo"


@dataclass
class TelegramState:
    webhook: dict[str, Any] = field(default_factory=dict)
    """What ``setWebhook`` set (``url``, ``secret_token``, ``allowed_updates``, ``drop_pending_updates``)."""
    calls: list[str] = field(default_factory=list)
    """The methods called, in order."""
    fail_set_webhook: bool = False


def install(server: FakeApiServer, token: str = TOKEN) -> TelegramState:
    state = TelegramState()

    def method(request: ApiRequest) -> ApiReply:
        if request.params["token"] != token:
            return json_error(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        name = request.params["method"]
        state.calls.append(name)
        body = request.body if isinstance(request.body, dict) else {}
        if name == "getWebhookInfo":
            url = state.webhook.get("url", "")
            return ApiReply(body={"ok": True, "result": {"url": url, "has_custom_certificate": False}})
        if name == "setWebhook":
            if state.fail_set_webhook:
                bad = "Bad Request: bad webhook: HTTPS url must be provided for webhook"
                return json_error(400, {"ok": False, "error_code": 400, "description": bad})
            state.webhook = dict(body)
            return ApiReply(body={"ok": True, "result": True, "description": "Webhook was set"})
        if name == "deleteWebhook":
            state.webhook = {}
            return ApiReply(body={"ok": True, "result": True, "description": "Webhook was deleted"})
        if name == "getFile":
            file_id = request.query.get("file_id", "")
            return ApiReply(body={"ok": True, "result": {"file_id": file_id, "file_path": f"photos/{file_id}.png"}})
        return json_error(404, {"ok": False, "error_code": 404, "description": "Not Found"})

    def file(request: ApiRequest) -> ApiReply:
        return ApiReply(data=FILE_BYTES, content_type="image/png")

    server.route("*", r"/bot(?P<token>[^/]+)/(?P<method>\w+)", method, host=HOST)
    server.route("GET", r"/file/bot(?P<token>[^/]+)/(?P<path>.+)", file, host=HOST)
    return state
