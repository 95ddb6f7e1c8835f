"""Blocks of the fake Notion API (:mod:`.notion`): a block's or page's children, one cursor page at a time, and
appending children (optionally after a given block), answered as Notion reads them back."""

from __future__ import annotations

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._notion_common import (
    authorized,
    canonical,
    error,
    list_page,
    not_found,
    read_text,
    request_body,
    versioned,
)
from weft.testing.saas._notion_data import BLOCKS, PAGES, block_object


def block_children(request: ApiRequest) -> ApiReply:
    authorized(request)
    block_id = canonical(request.params["id"])
    if block_id not in BLOCKS and block_id not in PAGES:
        return not_found("block", request.params["id"])
    children = BLOCKS.get(block_id, [])
    listed = list_page(children, request.query.get("start_cursor"), request.query.get("page_size"), "block")
    return ApiReply(body=versioned(request, listed))


def append_children(request: ApiRequest) -> ApiReply:
    authorized(request)
    block_id = canonical(request.params["id"])
    if block_id not in BLOCKS and block_id not in PAGES:
        return not_found("block", request.params["id"])
    children = request_body(request).get("children")
    missing = "body failed validation: body.children should be defined, instead was `undefined`."
    require(isinstance(children, list), error(400, "validation_error", missing))
    assert isinstance(children, list)
    created = []
    for number, child in enumerate(children):
        kind = child.get("type")
        missing = f"body failed validation: body.children[{number}].{kind} should be defined, instead was `undefined`."
        require(kind in child, error(400, "validation_error", missing))
        block = block_object(800 + number, kind, "", block_id)
        content = dict(child[kind])
        for key in ("text", "rich_text"):
            if key in content:
                content[key] = [read_text(t) for t in content[key]]
        block[kind] = {**content, "color": "default"} if kind != "image" else {**content, "caption": []}
        created.append(block)
    position = request_body(request).get("position")
    if isinstance(position, dict) and position.get("type") == "after_block":
        after = canonical(str((position.get("after_block") or {}).get("id")))
        known = [b["id"] for b in BLOCKS.get(block_id, [])]
        require(after in known, not_found("block", str((position.get("after_block") or {}).get("id"))))
    return ApiReply(body={"object": "list", "results": created, "next_cursor": None, "has_more": False,
                          "type": "block", "block": {}})  # fmt: skip
