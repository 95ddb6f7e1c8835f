"""Each Trello operation's request, as n8n's node builds it: ``(method, endpoint, body, query, return all)``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import MISSING
from weft.nodes.routing.scope import RoutingScope


@dataclass
class Call:
    method: str = "GET"
    endpoint: str = ""
    body: dict[str, Any] = field(default_factory=dict)
    qs: dict[str, Any] = field(default_factory=dict)
    return_all: bool = False


@dataclass
class Params:
    """One item's parameters (n8n's ``getNodeParameter`` with the description's defaults)."""

    scope: RoutingScope
    index: int

    def __call__(self, name: str, default: Any = MISSING, *, extract: bool = False) -> Any:
        return self.scope.parameter(name, self.index, default, extract_value=extract)

    def fields(self, name: str) -> dict[str, Any]:
        value = self(name, {})
        return dict(value) if isinstance(value, dict) else {}

    def limited(self, call: Call) -> Call:
        call.return_all = bool(self("returnAll", False))
        if not call.return_all:
            call.qs["limit"] = self("limit")
        return call


def _unknown(p: Params, operation: str) -> NodeOperationError:
    return NodeOperationError(p.scope.node_name, f'The operation "{operation}" is not known!', item_index=p.index)


def _one(p: Params, operation: str, where: Callable[[], str]) -> Call:
    """Delete, get (``additionalFields`` as the query) or update (``updateFields``) the one record at ``where()``
    (read only for a known operation)."""
    if operation not in ("delete", "get", "update"):
        raise _unknown(p, operation)
    endpoint = where()
    if operation == "delete":
        return Call("DELETE", endpoint)
    if operation == "get":
        return Call("GET", endpoint, qs=p.fields("additionalFields"))
    return Call("PUT", endpoint, qs=p.fields("updateFields"))


def board(p: Params, operation: str) -> Call:
    if operation == "create":
        body = {"name": p("name"), "desc": p("description"), **p.fields("additionalFields")}
        return Call("POST", "boards", body)
    return _one(p, operation, lambda: f"boards/{p('id', extract=True)}")


def board_member(p: Params, operation: str) -> Call:
    board_id = p("id")
    if operation == "getAll":
        return p.limited(Call("GET", f"boards/{board_id}/members"))
    if operation == "add":
        qs = {"type": p("type"), "allowBillableGuest": p("additionalFields.allowBillableGuest", False)}
        return Call("PUT", f"boards/{board_id}/members/{p('idMember')}", qs=qs)
    if operation == "invite":
        extra = p.fields("additionalFields")
        qs = {"email": p("email"), "type": extra.get("type")}
        return Call("PUT", f"boards/{board_id}/members", {"fullName": extra.get("fullName")}, qs)
    if operation == "remove":
        return Call("DELETE", f"boards/{board_id}/members/{p('idMember')}")
    raise _unknown(p, operation)


def card(p: Params, operation: str) -> Call:
    if operation == "create":
        body = {"idList": p("listId"), "name": p("name"), "desc": p("description")}
        return Call("POST", "cards", {**body, **p.fields("additionalFields")})
    return _one(p, operation, lambda: f"cards/{p('id', extract=True)}")


def card_comment(p: Params, operation: str) -> Call:
    card_id = p("cardId", extract=True)
    if operation == "create":
        return Call("POST", f"cards/{card_id}/actions/comments", {"text": p("text")})
    if operation == "delete":
        return Call("DELETE", f"/cards/{card_id}/actions/{p('commentId')}/comments")
    if operation == "update":
        return Call("PUT", f"cards/{card_id}/actions/{p('commentId')}/comments", qs={"text": p("text")})
    raise _unknown(p, operation)


def list_(p: Params, operation: str) -> Call:
    if operation == "create":
        body = {"idBoard": p("idBoard"), "name": p("name"), **p.fields("additionalFields")}
        return Call("POST", "lists", body)
    list_id = p("id")
    if operation == "archive":
        return Call("PUT", f"lists/{list_id}/closed", qs={"value": p("archive")})
    if operation == "get":
        return Call("GET", f"lists/{list_id}", qs=p.fields("additionalFields"))
    if operation in ("getAll", "getCards"):
        call = p.limited(Call("GET", f"boards/{list_id}/lists" if operation == "getAll" else f"lists/{list_id}/cards"))
        call.qs.update(p.fields("additionalFields"))
        return call
    if operation == "update":
        return Call("PUT", f"lists/{list_id}", qs=p.fields("updateFields"))
    raise _unknown(p, operation)


def attachment(p: Params, operation: str) -> Call:
    attachments = f"cards/{p('cardId', extract=True)}/attachments"
    if operation == "create":
        return Call("POST", attachments, {"url": p("url"), **p.fields("additionalFields")})
    if operation == "delete":
        return Call("DELETE", f"{attachments}/{p('id')}")
    if operation == "get":
        return Call("GET", f"{attachments}/{p('id')}", qs=p.fields("additionalFields"))
    if operation == "getAll":
        return Call("GET", attachments, qs=p.fields("additionalFields"))
    raise _unknown(p, operation)


def checklist(p: Params, operation: str) -> Call:
    if operation == "get":
        return Call("GET", f"checklists/{p('id')}", qs=p.fields("additionalFields"))
    if operation == "createCheckItem":
        body = {"name": p("name"), **p.fields("additionalFields")}
        return Call("POST", f"checklists/{p('checklistId')}/checkItems", body)
    card_path = f"cards/{p('cardId', extract=True)}"
    if operation == "create":
        return Call("POST", f"{card_path}/checklists", {"name": p("name"), **p.fields("additionalFields")})
    if operation == "delete":
        return Call("DELETE", f"{card_path}/checklists/{p('id')}")
    if operation == "getAll":
        return Call("GET", f"{card_path}/checklists", qs=p.fields("additionalFields"))
    if operation == "completedCheckItems":
        return Call("GET", f"{card_path}/checkItemStates", qs=p.fields("additionalFields"))
    if operation not in ("getCheckItem", "deleteCheckItem", "updateCheckItem"):
        raise _unknown(p, operation)
    endpoint = f"{card_path}/checkItem/{p('checkItemId')}"
    if operation == "deleteCheckItem":
        return Call("DELETE", endpoint)
    return Call("GET" if operation == "getCheckItem" else "PUT", endpoint, qs=p.fields("additionalFields"))


def label(p: Params, operation: str) -> Call:
    if operation == "create":
        body = {"idBoard": p("boardId", extract=True), "name": p("name"), "color": p("color")}
        return Call("POST", "labels", body)
    if operation == "getAll":
        return Call("GET", f"board/{p('boardId', extract=True)}/labels", qs=p.fields("additionalFields"))
    if operation in ("addLabel", "removeLabel"):
        cards = f"/cards/{p('cardId', extract=True)}/idLabels"
        if operation == "addLabel":
            return Call("POST", cards, {"value": p("id")})
        return Call("DELETE", f"{cards}/{p('id')}")
    return _one(p, operation, lambda: f"labels/{p('id')}")


BUILDERS: dict[str, Callable[[Params, str], Call]] = {
    "board": board,
    "boardMember": board_member,
    "card": card,
    "cardComment": card_comment,
    "list": list_,
    "attachment": attachment,
    "checklist": checklist,
    "label": label,
}

__all__ = ["BUILDERS", "Call", "Params"]
