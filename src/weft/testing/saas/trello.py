"""A fake Trello REST API on ``api.trello.com`` (``/1/...``), as Trello answers: the key and token in the query,
Trello's plain-text errors (``invalid id``, ``The requested resource was not found.``, ``invalid token``), list
answers cut by ``limit`` and paged by ``before`` (ids sorted ``-id``), and 429 with ``Retry-After`` for the card
id :data:`RATE_LIMITED`. Seeded data only (one board, its lists, cards, labels, checklists); writes answer as
Trello does, built from the request, and change nothing, so every run answers the same."""

from __future__ import annotations

import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, require

HOST = "api.trello.com"
KEY = "trello-fake-key-0001"
TOKEN = "trello-fake-token-0001"
BOARD = "60d0fe4f5311236168a109ca"
RATE_LIMITED = "60d0fe4f5311236168a1ffff"
_ID = re.compile(r"[0-9a-f]{24}")
_DATE = "2024-05-01T10:00:00.000Z"


def _id(kind: str, number: int) -> str:
    return f"60d0fe4f5311236168a1{kind}{number:03x}"


def _text(status: int, text: str, **headers: str) -> ApiReply:
    return ApiReply(status=status, text=text, headers=dict(headers))


def _label(number: int, name: str, color: str) -> dict[str, Any]:
    return {"id": _id("b", number), "idBoard": BOARD, "name": name, "color": color, "uses": number}


LABELS = [_label(1, "Bug", "red"), _label(2, "Feature", "green"), _label(3, "Docs", "blue")]
LISTS = [
    {"id": _id("a", n), "name": name, "closed": False, "idBoard": BOARD, "pos": 16384 * n, "subscribed": False}
    for n, name in ((1, "To Do"), (2, "Backlog"), (3, "Done"))
]


def _card(number: int, name: str, list_number: int, labels: tuple[int, ...] = ()) -> dict[str, Any]:
    card_id = _id("c", number)
    return {
        "id": card_id,
        "idShort": number,
        "name": name,
        "desc": f"Card {number}",
        "closed": False,
        "idBoard": BOARD,
        "idList": _id("a", list_number),
        "idLabels": [_id("b", n) for n in labels],
        "labels": [LABELS[n - 1] for n in labels],
        "due": None,
        "pos": 1024 * number,
        "dateLastActivity": _DATE,
        "shortUrl": f"https://trello.com/c/card{number:04d}",
        "url": f"https://trello.com/c/card{number:04d}/{number}-card",
    }


CARDS = [_card(1, "Write the fake", 1, (2,)), _card(2, "Record cases", 1, (2, 3)), _card(3, "Fix bug", 1, (1,))]
CARDS += [_card(n, f"Backlog item {n}", 2) for n in range(4, 40)]
CARDS += [_card(40, "Ship it", 3)]
BOARDS = [
    {
        "id": BOARD,
        "name": "Weft roadmap",
        "desc": "What comes next",
        "closed": False,
        "idOrganization": "60d0fe4f5311236168a1e001",
        "pinned": False,
        "url": "https://trello.com/b/roadmap/weft-roadmap",
        "shortUrl": "https://trello.com/b/roadmap",
        "prefs": {"permissionLevel": "private", "background": "blue"},
        "labelNames": {"red": "Bug", "green": "Feature", "blue": "Docs"},
    }
]
CHECKLISTS = [
    {
        "id": _id("d", 1),
        "name": "Release steps",
        "idBoard": BOARD,
        "idCard": _id("c", 1),
        "pos": 16384,
        "checkItems": [
            {"id": _id("e", n), "name": name, "state": state, "idChecklist": _id("d", 1), "pos": 100 * n}
            for n, (name, state) in enumerate((("Tag", "complete"), ("Publish", "incomplete")), start=1)
        ],
    }
]


def _authorized(request: ApiRequest) -> None:
    require(request.query.get("key") == KEY, _text(401, "invalid key"))
    require(request.query.get("token") == TOKEN, _text(401, "invalid token"))


def _find(rows: list[dict[str, Any]], given: str) -> dict[str, Any]:
    if given == RATE_LIMITED:
        body = {"error": "API_TOKEN_LIMIT_EXCEEDED", "message": "Rate limit exceeded"}
        require(False, ApiReply(status=429, body=body, headers={"Retry-After": "10"}))
    require(_ID.fullmatch(given) is not None, _text(400, "invalid id"))
    found = next((row for row in rows if row["id"] == given), None)
    require(found is not None, _text(404, "The requested resource was not found."))
    return dict(found or {})


def _fields(request: ApiRequest) -> dict[str, Any]:
    """The body's fields, and the query's (Trello reads both)."""
    body = request.body if isinstance(request.body, dict) else {}
    skip = ("key", "token")
    return {**{k: v for k, v in request.query.items() if k not in skip}, **body}


def _listed(request: ApiRequest, rows: list[dict[str, Any]]) -> ApiReply:
    """``limit`` (at most 1000), and with ``sort=-id`` ids descending, ``before`` an id."""
    if request.query.get("sort") == "-id":
        rows = sorted(rows, key=lambda row: row["id"], reverse=True)
    before = request.query.get("before")
    if before:
        rows = [row for row in rows if row["id"] < before]
    limit = request.query.get("limit")
    if limit:
        require(limit.isdigit() and 1 <= int(limit) <= 1000, _text(400, "invalid value for limit"))
        rows = rows[: int(limit)]
    return ApiReply(body=rows)


def token_member(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.params["token"] == TOKEN, _text(401, "invalid token"))
    return ApiReply(body={"id": "60d0fe4f5311236168a1f001", "username": "weftbot", "fullName": "Weft Bot"})


def create_board(request: ApiRequest) -> ApiReply:
    _authorized(request)
    fields = _fields(request)
    require(bool(fields.get("name")), _text(400, "invalid value for name"))
    board = {**BOARDS[0], "id": "60d0fe4f5311236168a10b02", "name": fields["name"], "desc": fields.get("desc") or ""}
    board["url"] = "https://trello.com/b/newboard/" + re.sub(r"\W+", "-", str(fields["name"]).lower())
    return ApiReply(body=board)


def get_board(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_find(BOARDS, request.params["id"]))


def update_board(request: ApiRequest) -> ApiReply:
    _authorized(request)
    board = _find(BOARDS, request.params["id"])
    fields = _fields(request)
    board.update({k: fields[k] for k in ("name", "desc") if k in fields})
    if "closed" in fields:
        board["closed"] = fields["closed"] in (True, "true")
    return ApiReply(body=board)


def delete_board(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(BOARDS, request.params["id"])
    return ApiReply(body={"_value": None})


def board_lists(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(BOARDS, request.params["id"])
    return _listed(request, LISTS)


def board_members(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(BOARDS, request.params["id"])
    members = [{"id": f"60d0fe4f5311236168a1f00{n}", "fullName": name, "username": name.lower().replace(" ", "")}
               for n, name in enumerate(("Weft Bot", "Ada Lovelace", "Alan Turing"), start=1)]  # fmt: skip
    return _listed(request, members)


def create_list(request: ApiRequest) -> ApiReply:
    _authorized(request)
    fields = _fields(request)
    require(fields.get("idBoard") == BOARD, _text(400, "invalid value for idBoard"))
    require(bool(fields.get("name")), _text(400, "invalid value for name"))
    return ApiReply(body={**LISTS[0], "id": _id("a", 9), "name": fields["name"], "pos": 140737488355328})


def get_list(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_find(LISTS, request.params["id"]))


def update_list(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = _find(LISTS, request.params["id"])
    fields = _fields(request)
    found.update({k: fields[k] for k in ("name",) if k in fields})
    if request.params.get("closed") or "closed" in fields:
        found["closed"] = str(fields.get("value", fields.get("closed"))).lower() == "true"
    return ApiReply(body=found)


def list_cards(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = _find(LISTS, request.params["id"])
    return _listed(request, [c for c in CARDS if c["idList"] == found["id"]])


def create_card(request: ApiRequest) -> ApiReply:
    _authorized(request)
    fields = _fields(request)
    require(any(row["id"] == fields.get("idList") for row in LISTS), _text(400, "invalid value for idList"))
    card = {**_card(41, str(fields.get("name") or ""), int(str(fields["idList"])[-3:], 16)), "desc": fields.get("desc")}
    for key in ("due", "pos", "closed", "urlSource"):
        if key in fields:
            card[key] = fields[key]
    if fields.get("idLabels"):
        ids = str(fields["idLabels"]).split(",")
        card.update(idLabels=ids, labels=[row for row in LABELS if row["id"] in ids])
    return ApiReply(body=card)


def get_card(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    fields = request.query.get("fields")
    if fields and fields != "all":
        card = {k: v for k, v in card.items() if k == "id" or k in fields.split(",")}
    return ApiReply(body=card)


def update_card(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    fields = _fields(request)
    card.update({k: fields[k] for k in ("name", "desc", "due", "idList") if k in fields})
    if "closed" in fields:
        card["closed"] = str(fields["closed"]).lower() == "true"
    card["dateLastActivity"] = "2024-05-02T10:00:00.000Z"
    return ApiReply(body=card)


def delete_card(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(CARDS, request.params["id"])
    return ApiReply(body={"limits": {}})


def _comment(card: dict[str, Any], text: str, action: str = "60d0fe4f5311236168a1f101") -> dict[str, Any]:
    return {"id": action, "idMemberCreator": "60d0fe4f5311236168a1f001", "type": "commentCard", "date": _DATE,
            "data": {"text": text, "card": {"id": card["id"], "name": card["name"], "idShort": card["idShort"]},
                     "board": {"id": BOARD, "name": "Weft roadmap"}}}  # fmt: skip


def add_comment(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    text = _fields(request).get("text")
    require(bool(text), _text(400, "invalid value for text"))
    return ApiReply(body=_comment(card, str(text)))


def change_comment(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    require(request.params["action"] == "60d0fe4f5311236168a1f101", _text(404, "The requested resource was not found."))
    if request.method == "DELETE":
        return ApiReply(body={"_value": None})
    return ApiReply(body=_comment(card, str(_fields(request).get("text")), request.params["action"]))


def _attachment(card: dict[str, Any], url: str, name: str) -> dict[str, Any]:
    return {"id": "60d0fe4f5311236168a1f201", "bytes": None, "date": _DATE, "isUpload": False, "mimeType": "",
            "name": name, "url": url, "pos": 16384, "idMember": "60d0fe4f5311236168a1f001"}  # fmt: skip


def attachments(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    if request.method == "POST":
        fields = _fields(request)
        require(bool(fields.get("url")), _text(400, "invalid value for url"))
        return ApiReply(body=_attachment(card, str(fields["url"]), str(fields.get("name") or fields["url"])))
    return ApiReply(body=[_attachment(card, "https://example.com/spec.pdf", "spec.pdf")])


def attachment(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    found = _find([_attachment(card, "https://example.com/spec.pdf", "spec.pdf")], request.params["aid"])
    return ApiReply(body={"limits": {}} if request.method == "DELETE" else found)


def card_checklists(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    if request.method == "POST":
        name = _fields(request).get("name")
        require(bool(name), _text(400, "invalid value for name"))
        return ApiReply(body={**CHECKLISTS[0], "id": _id("d", 2), "name": name, "idCard": card["id"], "checkItems": []})
    return ApiReply(body=[c for c in CHECKLISTS if c["idCard"] == card["id"]])


def get_checklist(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_find(CHECKLISTS, request.params["id"]))


def create_check_item(request: ApiRequest) -> ApiReply:
    _authorized(request)
    checklist = _find(CHECKLISTS, request.params["id"])
    fields = _fields(request)
    state = "complete" if str(fields.get("checked")).lower() == "true" else "incomplete"
    return ApiReply(body={"id": _id("e", 3), "name": fields.get("name"), "state": state,
                          "idChecklist": checklist["id"], "pos": 50000, "limits": {}})  # fmt: skip


def create_label(request: ApiRequest) -> ApiReply:
    _authorized(request)
    fields = _fields(request)
    require(fields.get("idBoard") == BOARD, _text(400, "invalid value for idBoard"))
    return ApiReply(body={**_label(4, str(fields.get("name")), str(fields.get("color"))), "uses": 0, "limits": {}})


def board_labels(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(BOARDS, request.params["id"])
    return _listed(request, LABELS)


def label(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = _find(LABELS, request.params["id"])
    if request.method == "DELETE":
        return ApiReply(body={"limits": {}})
    fields = _fields(request)
    found.update({k: fields[k] for k in ("name", "color") if k in fields and request.method == "PUT"})
    return ApiReply(body=found)


def card_labels(request: ApiRequest) -> ApiReply:
    _authorized(request)
    card = _find(CARDS, request.params["id"])
    if request.method == "POST":
        value = str(_fields(request).get("value"))
        _find(LABELS, value)
        return ApiReply(body=sorted({*card["idLabels"], value}))
    _find(LABELS, request.params["lid"])
    return ApiReply(body=[])


def install(server: FakeApiServer) -> None:
    one = "/1/+"
    routes = [
        ("GET", r"tokens/(?P<token>[^/]+)/member", token_member),
        ("POST", r"boards/?", create_board),
        ("GET", r"boards/(?P<id>[^/]+)", get_board),
        ("PUT", r"boards/(?P<id>[^/]+)", update_board),
        ("DELETE", r"boards/(?P<id>[^/]+)", delete_board),
        ("GET", r"boards/(?P<id>[^/]+)/lists", board_lists),
        ("GET", r"boards/(?P<id>[^/]+)/members", board_members),
        ("POST", r"lists/?", create_list),
        ("GET", r"lists/(?P<id>[^/]+)", get_list),
        ("PUT", r"lists/(?P<id>[^/]+)", update_list),
        ("PUT", r"lists/(?P<id>[^/]+)/(?P<closed>closed)", update_list),
        ("GET", r"lists/(?P<id>[^/]+)/cards", list_cards),
        ("POST", r"cards/?", create_card),
        ("GET", r"cards/(?P<id>[^/]+)", get_card),
        ("PUT", r"cards/(?P<id>[^/]+)", update_card),
        ("DELETE", r"cards/(?P<id>[^/]+)", delete_card),
        ("POST", r"cards/(?P<id>[^/]+)/actions/comments", add_comment),
        ("*", r"cards/(?P<id>[^/]+)/actions/(?P<action>[^/]+)/comments", change_comment),
        ("*", r"cards/(?P<id>[^/]+)/attachments", attachments),
        ("*", r"cards/(?P<id>[^/]+)/attachments/(?P<aid>[^/]+)", attachment),
        ("*", r"cards/(?P<id>[^/]+)/checklists", card_checklists),
        ("GET", r"checklists/(?P<id>[^/]+)", get_checklist),
        ("POST", r"checklists/(?P<id>[^/]+)/checkItems", create_check_item),
        ("POST", r"labels/?", create_label),
        ("GET", r"board/(?P<id>[^/]+)/labels", board_labels),
        ("*", r"labels/(?P<id>[^/]+)", label),
        ("POST", r"cards/(?P<id>[^/]+)/idLabels", card_labels),
        ("DELETE", r"cards/(?P<id>[^/]+)/idLabels/(?P<lid>[^/]+)", card_labels),
    ]
    for method, pattern, handler in routes:
        server.route(method, one + pattern, handler, host=HOST)


__all__ = ["BOARD", "HOST", "KEY", "RATE_LIMITED", "TOKEN", "install"]
