"""A fake WhatsApp Business Cloud API (``graph.facebook.com/v13.0``): messages sent from the phone number id
``1098765432`` (text, media by link or id, template, contacts, location), media uploads (a ``multipart/form-data``
body with ``file`` and ``messaging_product``), a media's URL and its delete. It checks the bearer token and
answers Meta's error bodies (``{"error": {"message", "type", "code", "fbtrace_id"}}``): an unknown media id or a
bad link 400 ``(#100) …``, the recipient ``15550000500`` a 500, ``15550000429`` a 429 (code 130429). Ids are derived
from the request, so every run answers the same; nothing is kept."""

from __future__ import annotations

import hashlib
import json
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "graph.facebook.com"
ACCESS_TOKEN = "whatsapp-access-token"
PHONE_NUMBER_ID = "1098765432"
BUSINESS_ACCOUNT_ID = "2109876543"
MEDIA = {"media-1001": ("image/jpeg", 2048), "media-1002": ("application/pdf", 4096)}
_TYPES = ("text", "image", "video", "audio", "document", "sticker", "template", "contacts", "location")


def _error(status: int, message: str, code: int, kind: str = "OAuthException", **headers: str) -> ApiReply:
    body = {"error": {"message": message, "type": kind, "code": code, "fbtrace_id": "AfakeTraceId0001"}}
    return json_error(status, body, **headers)


def _authorized(request: ApiRequest) -> None:
    require(
        request.headers.get("authorization") == f"Bearer {ACCESS_TOKEN}",
        _error(401, "Invalid OAuth access token - Cannot parse access token", 190),
    )


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:24]


def _media_problem(body: dict[str, Any], kind: str) -> ApiReply | None:
    media = body.get(kind)
    media = media if isinstance(media, dict) else {}
    if "id" in media and str(media["id"]) not in MEDIA and not str(media["id"]).startswith("media-up-"):
        return _error(
            400, f"(#100) Param {kind}['id'] is not a valid whatsapp business account media attachment ID", 100
        )
    link = media.get("link")
    if "link" in media and not str(link).startswith(("http://", "https://")):
        return _error(400, f"(#100) Param {kind}['link'] is not a valid URI.", 100)
    if (
        kind != "text"
        and "id" not in media
        and "link" not in media
        and kind in ("image", "video", "audio", "document", "sticker")
    ):
        return _error(400, f"(#100) The parameter {kind}['link'] or {kind}['id'] is required.", 100)
    return None


def send(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.params["phone"] == PHONE_NUMBER_ID, _error(400, "(#100) Invalid parameter", 100))
    body = request.body if isinstance(request.body, dict) else {}
    require(
        body.get("messaging_product") == "whatsapp",
        _error(400, "(#100) The parameter messaging_product is required.", 100),
    )
    to = str(body.get("to") or "")
    require(to.isdigit(), _error(400, "(#100) The parameter to is required.", 100))
    require(to != "15550000500", _error(500, "An unknown error has occurred.", 1, "OAuthException"))
    require(to != "15550000429", _error(429, "(#130429) Rate limit hit", 130429, **{"Retry-After": "60"}))
    kind = str(body.get("type") or "text")
    require(kind in _TYPES, _error(400, f"(#100) Param type must be one of {{{', '.join(_TYPES)}}}", 100))
    problem = _media_problem(body, kind)
    if problem is not None:
        return problem
    if kind == "template":
        found = body.get("template")
        template: dict[str, Any] = found if isinstance(found, dict) else {}
        require(
            bool(template.get("name")), _error(400, "(#132001) Template name does not exist in the translation", 132001)
        )
    return ApiReply(
        body={
            "messaging_product": "whatsapp",
            "contacts": [{"input": to, "wa_id": to}],
            "messages": [{"id": f"wamid.{_digest(body)}"}],
        }
    )


def upload(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.params["phone"] == PHONE_NUMBER_ID, _error(400, "(#100) Invalid parameter", 100))
    content_type = request.headers.get("content-type", "")
    require(content_type.startswith("multipart/form-data"), _error(400, "(#100) The parameter file is required.", 100))
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + request.raw_body)
    fields = {part.get_param("name", header="content-disposition"): part for part in message.iter_parts()}
    file = fields.get("file")
    require(file is not None and bool(file.get_filename()), _error(400, "(#100) The parameter file is required.", 100))
    product = fields.get("messaging_product")
    require(
        product is not None and product.get_payload(decode=True) == b"whatsapp",
        _error(400, "(#100) The parameter messaging_product is required.", 100),
    )
    assert file is not None
    data = file.get_payload(decode=True)
    return ApiReply(body={"id": f"media-up-{_digest(file.get_filename(), file.get_content_type(), str(data))}"})


def media_url(request: ApiRequest) -> ApiReply:
    _authorized(request)
    media = request.params["media"]
    require(
        media in MEDIA,
        _error(400, f"Unsupported get request. Object with ID '{media}' does not exist", 100, "GraphMethodException"),
    )
    mime, size = MEDIA[media]
    return ApiReply(
        body={
            "url": f"https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid={media}&ext=1700000000&hash=fake",
            "mime_type": mime,
            "sha256": hashlib.sha256(media.encode()).hexdigest(),
            "file_size": size,
            "id": media,
            "messaging_product": "whatsapp",
        }
    )


def delete_media(request: ApiRequest) -> ApiReply:
    _authorized(request)
    media = request.params["media"]
    require(
        media in MEDIA,
        _error(
            400, f"Unsupported delete request. Object with ID '{media}' does not exist", 100, "GraphMethodException"
        ),
    )
    return ApiReply(body={"success": True})


def root(request: ApiRequest) -> ApiReply:
    """The credential test (``GET /v13.0/``): Meta answers a missing node id, or the OAuth error."""
    if request.headers.get("authorization") != f"Bearer {ACCESS_TOKEN}":
        return _error(401, "Invalid OAuth access token - Cannot parse access token", 190)
    return _error(400, "Unsupported get request.", 100, "GraphMethodException")


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/v13\.0/?", root, host=HOST)
    server.route("GET", r"/v13\.0/(?P<media>[^/]+)", media_url, host=HOST)
    server.route("DELETE", r"/v13\.0/(?P<media>[^/]+)", delete_media, host=HOST)
    server.route("POST", r"/v13\.0/(?P<phone>[^/]+)/messages", send, host=HOST)
    server.route("POST", r"/v13\.0/(?P<phone>[^/]+)/media", upload, host=HOST)
