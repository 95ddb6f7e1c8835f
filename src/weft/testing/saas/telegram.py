"""A fake Telegram Bot API (``https://api.telegram.org/bot<token>/<method>`` and the file download
``/file/bot<token>/<path>``), as Telegram answers: ``{"ok": true, "result": ...}``, its error bodies
(``{"ok": false, "error_code": 400, "description": "Bad Request: chat not found"}``), 401 for a wrong token, 429
with ``Retry-After`` and ``parameters.retry_after`` for the chat ``@flood``. Parameters arrive as JSON, a form,
multipart (an uploaded file) or the query. Legacy Markdown and HTML texts are rendered into ``text`` and
``entities`` as Telegram does. It keeps no state: every answer is built from the request and fixed data (message
ids from the chat, a fixed date), so cases run in any order."""

from __future__ import annotations

import json
import re
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.telegram.org"
TOKEN = "123456789:AAFakeTelegramBotToken"
DATE = 1735689600
BOT = {"id": 123456789, "is_bot": True, "first_name": "Weft Bot", "username": "weft_test_bot"}
USER = {"id": 555000111, "is_bot": False, "first_name": "Ada", "last_name": "Lovelace", "username": "ada",
        "language_code": "en"}  # fmt: skip
CHATS: dict[str, dict[str, Any]] = {
    "555000111": {"id": 555000111, "first_name": "Ada", "last_name": "Lovelace", "username": "ada", "type": "private"},
    "-1001234567890": {"id": -1001234567890, "title": "Weft Testers", "type": "supergroup"},
    "@weftnews": {"id": -1009876543210, "title": "Weft News", "username": "weftnews", "type": "channel"},
}
FILES = {
    "AgACAgQAAxkBAAIBPhoto": ("photos/file_7.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00fake-jpeg-bytes"),
    "BQACAgQAAxkBAAIBDoc": ("documents/file_3.pdf", b"%PDF-1.4\nfake pdf\n%%EOF\n"),
}
_MEDIA = ("photo", "document", "audio", "video", "animation", "sticker")


def _error(status: int, description: str, **extra: Any) -> ApiReply:
    headers = {"Retry-After": str(extra["parameters"]["retry_after"])} if status == 429 else {}
    return json_error(status, {"ok": False, "error_code": status, "description": description, **extra}, **headers)


def _ok(result: Any) -> ApiReply:
    return ApiReply(body={"ok": True, "result": result})


def _params(request: ApiRequest) -> tuple[dict[str, Any], dict[str, tuple[str, str, bytes]]]:
    """The method's parameters (query, then JSON, form or multipart body) and the uploaded files."""
    params: dict[str, Any] = dict(request.query)
    files: dict[str, tuple[str, str, bytes]] = {}
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        message = BytesParser(policy=HTTP).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + request.raw_body
        )
        for part in message.iter_parts():
            name = str(part.get_param("name", header="content-disposition"))
            payload = part.get_payload(decode=True)
            data = payload if isinstance(payload, bytes) else b""
            filename = part.get_filename()
            if filename is not None:
                files[name] = (filename, part.get_content_type(), data)
            else:
                params[name] = _form_value(data.decode())
    elif isinstance(request.body, dict):
        params.update(request.body)
    return params, files


def _form_value(text: str) -> Any:
    """A form field as Telegram reads it: JSON-serialized objects (``reply_markup``) parsed."""
    if text.startswith(("{", "[")):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def _chat(params: dict[str, Any]) -> dict[str, Any]:
    chat_id = params.get("chat_id")
    require(chat_id not in (None, ""), _error(400, "Bad Request: chat_id is empty"))
    if str(chat_id) == "@flood":
        require(False, _error(429, "Too Many Requests: retry after 7", parameters={"retry_after": 7}))
    chat = CHATS.get(str(chat_id))
    require(chat is not None, _error(400, "Bad Request: chat not found"))
    assert chat is not None
    return chat


def _message_id(chat: dict[str, Any], method: str) -> int:
    return 1000 + abs(int(chat["id"])) % 97 + len(method)


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


_MARKDOWN = re.compile(
    r"\*(?P<bold>[^*]+)\*|_(?P<italic>[^_]+)_|`(?P<code>[^`]+)`|\[(?P<label>[^\]]+)\]\((?P<url>[^)]+)\)"
)
_HTML = re.compile(r"<(?P<tag>b|strong|i|em|code|a)(?P<attrs>[^>]*)>(?P<inner>.*?)</(?P=tag)>", re.DOTALL)
_KINDS = {"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "code": "code", "a": "text_link"}


def _render(text: str, parse_mode: Any) -> tuple[str, list[dict[str, Any]]]:
    """Telegram's rendering of a legacy Markdown or HTML text: the plain text and its entities."""
    pattern = _MARKDOWN if parse_mode == "Markdown" else _HTML if parse_mode == "HTML" else None
    if pattern is None:
        return text, []
    out, entities, last = "", [], 0
    for match in pattern.finditer(text):
        out += text[last : match.start()]
        last = match.end()
        if pattern is _HTML:
            kind = _KINDS[match["tag"]]
            inner = re.sub(r"<[^>]+>", "", match["inner"])
            href = re.search(r'href="([^"]*)"', match["attrs"] or "")
            url = href.group(1) if href else None
        else:
            kind = next(k for k in ("bold", "italic", "code") if match[k]) if not match["label"] else "text_link"
            inner = match[kind] if kind != "text_link" else match["label"]
            url = match["url"]
        entity: dict[str, Any] = {"offset": _utf16(out), "length": _utf16(inner), "type": kind}
        if kind == "text_link":
            entity["url"] = url
        entities.append(entity)
        out += inner
    out += text[last:]
    return (out if pattern is _MARKDOWN else re.sub(r"<[^>]+>", "", out)), entities


def _message(chat: dict[str, Any], method: str, params: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"message_id": _message_id(chat, method), "from": BOT, "chat": chat, "date": DATE}
    if chat["type"] == "channel":
        message.pop("from")
        message["sender_chat"] = chat
    reply_to = params.get("reply_to_message_id")
    if reply_to not in (None, "", 0, "0"):
        message["reply_to_message"] = {"message_id": int(reply_to), "from": USER, "chat": chat, "date": DATE - 60,
                                       "text": "earlier message"}  # fmt: skip
    markup = params.get("reply_markup")
    if isinstance(markup, dict) and markup.get("inline_keyboard"):
        message["reply_markup"] = {"inline_keyboard": markup["inline_keyboard"]}
    return message


def _caption(message: dict[str, Any], params: dict[str, Any]) -> None:
    if params.get("caption"):
        caption, entities = _render(str(params["caption"]), params.get("parse_mode"))
        message["caption"] = caption
        if entities:
            message["caption_entities"] = entities


def send_message(request: ApiRequest, method: str, params: dict[str, Any]) -> ApiReply:
    chat = _chat(params)
    text = params.get("text")
    require(text not in (None, ""), _error(400, "Bad Request: message text is empty"))
    message = _message(chat, method, params)
    plain, entities = _render(str(text), params.get("parse_mode"))
    message["text"] = plain
    if entities:
        message["entities"] = entities
    if params.get("disable_web_page_preview") in (True, "true"):
        message["link_preview_options"] = {"is_disabled": True}
    return _ok(message)


def _file_entry(kind: str, value: Any, upload: tuple[str, str, bytes] | None, chat: dict[str, Any]) -> dict[str, Any]:
    """What Telegram stores for a file sent by id, URL or upload."""
    name, mime, data = upload or (str(value).rsplit("/", 1)[-1] or "file", "application/octet-stream", b"")
    if upload is None and str(value) in FILES:
        name = FILES[str(value)][0].rsplit("/", 1)[-1]
    size = len(data) if upload else 4096
    unique = f"AQAD{kind[:3]}{abs(int(chat['id'])) % 1000}"
    entry: dict[str, Any] = {"file_id": f"{kind}-{name}", "file_unique_id": unique, "file_size": size}
    if kind in ("document", "audio", "video", "animation"):
        entry = {"file_name": name, "mime_type": mime if upload else _guess(name), **entry}
    return entry


def _guess(name: str) -> str:
    types = {".jpg": "image/jpeg", ".png": "image/png", ".pdf": "application/pdf", ".mp3": "audio/mpeg",
             ".mp4": "video/mp4", ".gif": "image/gif", ".txt": "text/plain"}  # fmt: skip
    return next((t for ext, t in types.items() if name.lower().endswith(ext)), "application/octet-stream")


def send_media(request: ApiRequest, method: str, params: dict[str, Any], files: dict[str, Any]) -> ApiReply:
    kind = method.removeprefix("send").lower()
    chat = _chat(params)
    value, upload = params.get(kind), files.get(kind)
    require(
        upload is not None or value not in (None, ""), _error(400, f"Bad Request: there is no {kind} in the request")
    )
    if upload is None and not str(value).startswith(("http://", "https://")) and str(value) not in FILES:
        require(False, _error(400, "Bad Request: wrong remote file identifier specified: Wrong padding in the string"))
    message = _message(chat, method, params)
    entry = _file_entry(kind, value, upload, chat)
    if kind == "photo":
        base = {k: entry[k] for k in ("file_id", "file_unique_id")}
        sizes = [(90, 67, 1200), (320, 240, 15000), (800, 600, 60000)]
        message["photo"] = [{**base, "file_id": f"{base['file_id']}-{w}", "file_size": s, "width": w, "height": h}
                            for w, h, s in sizes]  # fmt: skip
    elif kind == "sticker":
        message["sticker"] = {**entry, "width": 512, "height": 512, "emoji": "👍", "is_animated": False,
                              "is_video": False, "type": "regular"}  # fmt: skip
    else:
        message[kind] = entry
        if kind == "animation":
            message["document"] = entry
    _caption(message, params)
    return _ok(message)


def send_media_group(params: dict[str, Any]) -> ApiReply:
    chat = _chat(params)
    media = params.get("media")
    require(isinstance(media, list) and 2 <= len(media) <= 10, _error(400, "Bad Request: wrong number of media"))
    assert isinstance(media, list)
    messages = []
    for number, entry in enumerate(media):
        message = _message(chat, "sendMediaGroup", params)
        message["message_id"] += number
        message["media_group_id"] = "13579246801357924"
        kind = str(entry.get("type") or "photo")
        message[kind] = _file_entry(kind, entry.get("media"), None, chat)
        _caption(message, entry)
        messages.append(message)
    return _ok(messages)


def _message_target(params: dict[str, Any]) -> dict[str, Any]:
    chat = _chat(params)
    message_id = str(params.get("message_id") or "")
    require(message_id not in ("", "0"), _error(400, "Bad Request: message identifier is not specified"))
    require(message_id != "999999", _error(400, "Bad Request: message to edit not found"))
    return chat


def edit_message_text(params: dict[str, Any]) -> ApiReply:
    if params.get("inline_message_id"):
        return _ok(True)
    chat = _message_target(params)
    message = _message(chat, "editMessageText", params)
    message["message_id"] = int(params["message_id"])
    message["edit_date"] = DATE + 120
    plain, entities = _render(str(params.get("text") or ""), params.get("parse_mode"))
    require(plain != "", _error(400, "Bad Request: message text is empty"))
    message["text"] = plain
    if entities:
        message["entities"] = entities
    return _ok(message)


def message_flag(method: str, params: dict[str, Any]) -> ApiReply:
    chat = _chat(params)
    message_id = str(params.get("message_id") or "")
    if method == "deleteMessage":
        require(message_id != "999999", _error(400, "Bad Request: message to delete not found"))
    elif method == "pinChatMessage":
        require(message_id != "999999", _error(400, "Bad Request: message to pin not found"))
    require(chat["type"] != "private" or method != "setChatTitle", _error(400, "Bad Request: chat is not a group"))
    return _ok(True)


def get_chat(params: dict[str, Any]) -> ApiReply:
    chat = dict(_chat(params))
    if chat["type"] == "private":
        chat.update({"accent_color_id": 3, "max_reaction_count": 11, "accepted_gift_types": {}})
    else:
        chat.update({"description": f"The {chat['title']} chat", "accent_color_id": 1, "max_reaction_count": 11,
                     "permissions": {"can_send_messages": True, "can_send_photos": True, "can_invite_users": True,
                                     "can_pin_messages": False}})  # fmt: skip
    return _ok(chat)


def chat_administrators(params: dict[str, Any]) -> ApiReply:
    chat = _chat(params)
    require(chat["type"] != "private", _error(400, "Bad Request: there are no administrators in the private chat"))
    return _ok([
        {"user": USER, "status": "creator", "is_anonymous": False},
        {"user": BOT, "status": "administrator", "can_be_edited": False, "is_anonymous": False,
         "can_manage_chat": True, "can_delete_messages": True, "can_pin_messages": True},
    ])  # fmt: skip


def chat_member(params: dict[str, Any]) -> ApiReply:
    chat = _chat(params)
    user_id = str(params.get("user_id") or "")
    require(user_id != "", _error(400, "Bad Request: user_id is empty"))
    require(user_id in (str(USER["id"]), str(BOT["id"])), _error(400, "Bad Request: user not found"))
    user = USER if user_id == str(USER["id"]) else BOT
    return _ok({"user": user, "status": "creator" if user is USER and chat["type"] != "private" else "member"})


def answer_query(method: str, params: dict[str, Any]) -> ApiReply:
    key = "callback_query_id" if method == "answerCallbackQuery" else "inline_query_id"
    query_id = str(params.get(key) or "")
    invalid = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    require(query_id.startswith("q-"), _error(400, invalid))
    if method == "answerInlineQuery":
        results = params.get("results")
        try:
            parsed = json.loads(results) if isinstance(results, str) else results
        except ValueError:
            parsed = None
        require(isinstance(parsed, list), _error(400, "Bad Request: can't parse inline query results JSON object"))
    return _ok(True)


def get_file(params: dict[str, Any]) -> ApiReply:
    file_id = str(params.get("file_id") or "")
    require(file_id in FILES, _error(400, "Bad Request: invalid file_id"))
    path, data = FILES[file_id]
    return _ok({"file_id": file_id, "file_unique_id": f"AQAD{len(path)}", "file_size": len(data), "file_path": path})


def call(request: ApiRequest) -> ApiReply:
    require(request.params["token"] == TOKEN, _error(401, "Unauthorized"))
    method = request.params["method"]
    params, files = _params(request)
    if method == "getMe":
        return _ok({**BOT, "can_join_groups": True, "can_read_all_group_messages": False,
                    "supports_inline_queries": False})  # fmt: skip
    if method == "sendMessage":
        return send_message(request, method, params)
    if method.removeprefix("send").lower() in _MEDIA:
        return send_media(request, method, params, files)
    simple = {
        "sendMediaGroup": send_media_group,
        "editMessageText": edit_message_text,
        "getChat": get_chat,
        "getChatAdministrators": chat_administrators,
        "getChatMember": chat_member,
        "getFile": get_file,
    }
    if method in simple:
        return simple[method](params)
    if method in ("answerCallbackQuery", "answerInlineQuery"):
        return answer_query(method, params)
    if method == "sendLocation":
        message = _message(_chat(params), method, params)
        message["location"] = {"latitude": float(params["latitude"]), "longitude": float(params["longitude"])}
        return _ok(message)
    if method in ("deleteMessage", "pinChatMessage", "unpinChatMessage", "sendChatAction", "leaveChat",
                  "setChatDescription", "setChatTitle"):  # fmt: skip
        return message_flag(method, params)
    return _error(404, "Not Found")


def download(request: ApiRequest) -> ApiReply:
    require(request.params["token"] == TOKEN, _error(401, "Unauthorized"))
    found = next((data for path, data in FILES.values() if path == request.params["path"]), None)
    require(found is not None, _error(404, "Not Found"))
    assert found is not None
    return ApiReply(data=found, content_type="application/octet-stream")


def install(server: FakeApiServer) -> None:
    server.route("*", r"/bot(?P<token>[^/]+)/(?P<method>[A-Za-z]+)", call, host=HOST)
    server.route("GET", r"/file/bot(?P<token>[^/]+)/(?P<path>.+)", download, host=HOST)


__all__ = ["HOST", "TOKEN", "install"]
