"""What the parts of the fake Slack Web API share: Slack's two answers (``ok``, ``fail``), a method's arguments
and the caller's token, the channel, user and message an argument names, and the two kinds of page (by cursor,
by ``page``/``count``)."""

from __future__ import annotations

import base64
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, json_error, require
from weft.testing.saas import _slack_data as data

FLOOD = "C09FLOOD00"
#: The most entries one page holds (Slack may answer fewer than ``limit``).
PAGE = 4
Args = dict[str, Any]


def fail(error: str, **extra: Any) -> ApiReply:
    return ApiReply(body={"ok": False, "error": error, **extra})


def ok(**fields: Any) -> ApiReply:
    return ApiReply(body={"ok": True, **fields})


def parse_args(request: ApiRequest) -> Args:
    """The method's arguments: the query, then a JSON, form or multipart body."""
    args: Args = dict(request.query)
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        head = f"Content-Type: {content_type}\r\n\r\n".encode()
        for part in BytesParser(policy=HTTP).parsebytes(head + request.raw_body).iter_parts():
            name = str(part.get_param("name", header="content-disposition"))
            payload = part.get_payload(decode=True)
            raw = payload if isinstance(payload, bytes) else b""
            args[name] = {"filename": part.get_filename(), "bytes": raw} if part.get_filename() else raw.decode()
    elif isinstance(request.body, dict):
        args.update(request.body)
    return args


def caller_token(request: ApiRequest, args: Args) -> str:
    """The caller's token (``Authorization: Bearer``, or a ``token`` argument); fails as Slack does."""
    header = request.headers.get("authorization", "")
    token = header[7:] if header.startswith("Bearer ") else str(args.get("token") or "")
    require(bool(token), fail("not_authed"))
    require(token in (data.BOT_TOKEN, data.USER_TOKEN), fail("invalid_auth"))
    return token


def find_channel(args: Args, name: str = "channel") -> dict[str, Any]:
    cid = str(args.get(name) or "")
    require(bool(cid), fail("invalid_arguments" if name not in args else "channel_not_found"))
    if cid == FLOOD:
        require(False, json_error(429, {"ok": False, "error": "ratelimited"}, **{"Retry-After": "30"}))
    found = data.CHANNEL_BY_ID.get(cid) or data.CHANNEL_BY_NAME.get(cid.lstrip("#"))
    require(found is not None, fail("channel_not_found"))
    assert found is not None
    return found


def find_user(uid: Any) -> dict[str, Any]:
    text = str(uid or "")
    found = data.USER_BY_ID.get(text) or data.USER_BY_NAME.get(text.lstrip("@"))
    require(found is not None, fail("user_not_found"))
    assert found is not None
    return found


def cursor_page(entries: list[Any], args: Args) -> tuple[list[Any], str]:
    """One cursor page: the entries from the cursor on, at most ``limit`` and :data:`PAGE`; the next cursor."""
    cursor = str(args.get("cursor") or "")
    start = int(base64.b64decode(cursor).decode().split(":")[1]) if cursor else 0
    size = min(int(args.get("limit") or 100), PAGE)
    end = start + size
    following = base64.b64encode(f"next:{end}".encode()).decode() if end < len(entries) else ""
    return entries[start:end], following


def classic_page(entries: list[Any], args: Args) -> tuple[list[Any], dict[str, Any]]:
    """A classic page (``page``, ``count``): the entries and Slack's ``paging``."""
    count = max(int(args.get("count") or 100), 1)
    page = max(int(args.get("page") or 1), 1)
    pages = max((len(entries) + count - 1) // count, 1)
    paging = {"count": count, "total": len(entries), "page": page, "pages": pages}
    return entries[(page - 1) * count : page * count], paging


def known_message(channel: dict[str, Any], ts: Any) -> dict[str, Any]:
    found = next((m for m in data.HISTORY.get(channel["id"], []) if same_ts(m["ts"], ts)), None)
    require(found is not None, fail("message_not_found"))
    assert found is not None
    return found


def same_ts(stored: str, given: Any) -> bool:
    """Whether ``given`` names the message (n8n sends a number parameter's text, ``1735696000`` for
    ``1735696000.000000``)."""
    try:
        return float(stored) == float(given)
    except (TypeError, ValueError):
        return False
