"""A fake SharePoint REST API v2.0 for the SharePoint node (version 1) on the tenant host n8n builds from the
credential's subdomain (``https://<subdomain>.sharepoint.com/_api/v2.0``; the recorded credential's subdomain is
``weft``): a site's lists, list items and drive files, as SharePoint answers. Bearer token
``sharepoint-test-token``; errors as ``{"error": {"code", "message"}}`` (``itemNotFound`` for a missing list or
list item, ``invalidRequest`` for an unknown column or a duplicate unique ``Title``); lists in pages (``$top``,
else 3 entries) with an ``@odata.nextLink``; ``$select``, ``$expand=fields`` and ``fields/<column> eq '<value>'``
filters. The list ``throttled`` answers 429 with ``Retry-After``. It keeps no state: writes answer what was
written without changing what reads see, so cases run in any order."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlencode

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "weft.sharepoint.com"
BASE = f"https://{HOST}/_api/v2.0"
TOKEN = "sharepoint-test-token"
SITE = "site1"
PAGE = 3
STAMP = "2025-03-12T22:18:18Z"
_ADA = "11111111-1111-4111-8111-000000000001"
_AUTHOR = {"user": {"displayName": "Ada Lovelace", "email": "ada@contoso.com", "id": _ADA}}


def _list(key: str, name: str, n: int) -> dict[str, Any]:
    return {
        "@odata.etag": f'"{key}-etag,{n}"', "createdDateTime": f"2025-01-0{n}T08:00:00Z",
        "description": f"The {name} list", "eTag": f'"{key}-etag,{n}"', "id": key,
        "lastModifiedDateTime": f"2025-02-0{n}T08:00:00Z", "name": name, "displayName": name,
        "webUrl": f"https://{HOST}/sites/{SITE}/Lists/{name}",
        "createdBy": _AUTHOR, "parentReference": {"siteId": SITE}, "list": {"contentTypesEnabled": False,
        "hidden": False, "template": "genericList"},
    }  # fmt: skip


LISTS = [_list("list1", "Tasks", 1), _list("list2", "Contacts", 2), _list("list3", "Events", 3),
         _list("list4", "Issues", 4)]  # fmt: skip
COLUMNS = ("Title", "Status", "Priority", "Link")
ITEMS = [
    {"Title": "Write report", "Status": "Active", "Priority": "High"},
    {"Title": "Review budget", "Status": "Done", "Priority": "Low"},
    {"Title": "Plan offsite", "Status": "Active", "Priority": "Low"},
    {"Title": "Hire intern", "Status": "Active", "Priority": "Medium"},
    {"Title": "Fix printer", "Status": "Done", "Priority": "High"},
]
FILES = {"file1": ("report Q1.txt", b"Quarterly numbers\n", "text/plain"),
         "file2": ("logo.png", b"\x89PNG\r\n\x1a\nfake", "image/png")}  # fmt: skip
FOLDERS = ("root", "folder1")


def error(status: int, code: str, message: str) -> ApiReply:
    headers = {"Retry-After": "5"} if status == 429 else {}
    return json_error(status, {"error": {"code": code, "message": message}}, **headers)


def _authorized(request: ApiRequest) -> None:
    require(
        request.headers.get("authorization") == f"Bearer {TOKEN}",
        error(401, "InvalidAuthenticationToken", "Invalid audience Uri."),
    )


def _site(request: ApiRequest) -> None:
    _authorized(request)
    require(request.params["site"] == SITE, error(404, "itemNotFound", "Requested site could not be found"))


def _find_list(request: ApiRequest) -> dict[str, Any]:
    _site(request)
    key = request.params["list"]
    require(key != "throttled", error(429, "activityLimitReached", "The request has been throttled"))
    found = next((entry for entry in LISTS if key in (entry["id"], entry["name"])), None)
    require(found is not None, error(404, "itemNotFound", "The specified list was not found"))
    assert found is not None
    return found


def _selected(entry: dict[str, Any], select: str | None) -> dict[str, Any]:
    if not select:
        return dict(entry)
    names = [n.strip() for n in select.split(",") if n.strip()]
    return {k: v for k, v in entry.items() if k in names or k == "@odata.etag"}


def _page(request: ApiRequest, path: str, entries: list[dict[str, Any]], context: str) -> ApiReply:
    size = int(request.query.get("$top") or PAGE)
    start = int(request.query.get("$skiptoken") or 0)
    body: dict[str, Any] = {"@odata.context": context, "value": entries[start : start + size]}
    if start + size < len(entries):
        kept = [(k, v) for k, v in request.query_pairs if k != "$skiptoken"] + [("$skiptoken", str(start + size))]
        body["@odata.nextLink"] = f"{BASE}{path}?" + urlencode(kept, quote_via=quote, safe="$,'()/=")
    return ApiReply(body=body)


def list_lists(request: ApiRequest) -> ApiReply:
    _site(request)
    select = request.query.get("$select")
    shown = [_selected(entry, select) for entry in LISTS]
    return _page(request, f"/sites/{SITE}/lists", shown, f"{BASE}/$metadata#lists")


def get_list(request: ApiRequest) -> ApiReply:
    found = _find_list(request)
    context = f"https://{HOST}/sites/{SITE}/_api/v2.0/$metadata#lists/$entity"
    return ApiReply(body={"@odata.context": context, **_selected(found, request.query.get("$select"))})


def _item(n: int, fields: dict[str, Any], expand: str | None) -> dict[str, Any]:
    key = str(n)
    item: dict[str, Any] = {
        "@odata.etag": f'"item{key}-etag,1"', "createdBy": _AUTHOR, "createdDateTime": STAMP,
        "eTag": f'"item{key}-etag,1"', "id": key, "lastModifiedBy": _AUTHOR, "lastModifiedDateTime": STAMP,
        "parentReference": {"id": "parent-1", "listId": "list1", "siteId": SITE},
        "webUrl": f"https://{HOST}/sites/{SITE}/Lists/Tasks/{key}_.000",
        "contentType": {"id": "0x0100", "name": "Item"},
    }  # fmt: skip
    if expand:
        item["fields@odata.navigationLink"] = f"sites/{SITE}/lists/list1/items/{key}/fields"
        chosen = re.search(r"select=([^)]*)", expand)
        shown = {"@odata.etag": f'"item{key}-etag,1"', **fields, "id": key, "ContentType": "Item", "Modified": STAMP,
                 "Created": STAMP, "AuthorLookupId": "7", "EditorLookupId": "7", "Attachments": False}  # fmt: skip
        if chosen:
            names = chosen.group(1).split(",")
            shown = {k: v for k, v in shown.items() if k in names or k == "@odata.etag"}
        item["fields"] = shown
    return item


def _filter(request: ApiRequest) -> list[tuple[int, dict[str, Any]]]:
    rows = list(enumerate(ITEMS, start=1))
    wanted = request.query.get("$filter")
    if not wanted:
        return rows
    for clause in re.split(r"\s*and(?=\s*fields/)", wanted):
        found = re.fullmatch(r"\s*fields/(\w+) eq '(.*)'\s*", clause)
        require(found is not None, error(400, "invalidRequest", f"Invalid filter clause: {clause}"))
        assert found is not None
        require(found.group(1) in COLUMNS, error(400, "invalidRequest", f"Field '{found.group(1)}' is not recognized"))
        rows = [(n, f) for n, f in rows if str(f.get(found.group(1))) == found.group(2)]
    return rows


def list_items(request: ApiRequest) -> ApiReply:
    _find_list(request)
    expand = request.query.get("$expand")
    shown = [_item(n, fields, expand) for n, fields in _filter(request)]
    select = request.query.get("$select")
    if select:
        shown = [_selected(item, f"{select},fields,fields@odata.navigationLink") for item in shown]
    path = f"/sites/{SITE}/lists/{request.params['list']}/items"
    return _page(request, path, shown, f"https://{HOST}/sites/{SITE}/_api/v2.0/$metadata#listItems")


def _found_item(request: ApiRequest) -> int:
    _find_list(request)
    key = request.params["item"]
    found = key.isdigit() and 1 <= int(key) <= len(ITEMS)
    require(found, error(404, "itemNotFound", "The specified list item was not found"))
    return int(key)


def get_item(request: ApiRequest) -> ApiReply:
    n = _found_item(request)
    item = _item(n, ITEMS[n - 1], request.query.get("$expand") or "fields")
    context = f"https://{HOST}/sites/{SITE}/_api/v2.0/$metadata#listItems/$entity"
    return ApiReply(body={"@odata.context": context, **_selected(item, _item_select(request))})


def _item_select(request: ApiRequest) -> str | None:
    select = request.query.get("$select")
    return f"{select},fields,fields@odata.navigationLink" if select else None


def _fields(request: ApiRequest) -> dict[str, Any]:
    body = request.body if isinstance(request.body, dict) else {}
    fields = body.get("fields")
    require(isinstance(fields, dict), error(400, "invalidRequest", "Invalid request: fields are required"))
    assert isinstance(fields, dict)
    for name in fields:
        require(name in COLUMNS, error(400, "invalidRequest", f"Field '{name}' is not recognized"))
    return fields


def create_item(request: ApiRequest) -> ApiReply:
    _find_list(request)
    fields = _fields(request)
    unique = "One or more fields with unique constraints already has the provided value."
    require(all(f["Title"] != fields.get("Title") for f in ITEMS), error(400, "invalidRequest", unique))
    return ApiReply(status=201, body={"@odata.context": f"{BASE}/$metadata#listItems/$entity",
                                       **_item(100, fields, "fields")})  # fmt: skip


def update_item(request: ApiRequest) -> ApiReply:
    n = _found_item(request)
    fields = _fields(request)
    return ApiReply(body={"@odata.context": f"{BASE}/$metadata#listItems/$entity",
                          **_item(n, {**ITEMS[n - 1], **fields}, "fields")})  # fmt: skip


def delete_item(request: ApiRequest) -> ApiReply:
    _found_item(request)
    return ApiReply(status=204)


def _drive_item(key: str, name: str, size: int, mime: str) -> dict[str, Any]:
    return {
        "@odata.context": f"https://{HOST}/sites/{SITE}/_api/v2.0/$metadata#items/$entity",
        "createdBy": _AUTHOR, "createdDateTime": STAMP, "eTag": f'"{{{key}}},1"', "id": key,
        "lastModifiedDateTime": STAMP, "name": name, "size": size,
        "parentReference": {"driveType": "documentLibrary", "id": "folder1", "path": "/drive/root:/Shared"},
        "webUrl": f"https://{HOST}/sites/{SITE}/Shared%20Documents/{quote(name)}", "file": {"mimeType": mime},
    }  # fmt: skip


def _file(request: ApiRequest) -> tuple[str, bytes, str]:
    _site(request)
    found = FILES.get(request.params["file"])
    require(found is not None, error(404, "itemNotFound", "The resource could not be found."))
    assert found is not None
    return found


def download(request: ApiRequest) -> ApiReply:
    name, data, mime = _file(request)
    disposition = f"attachment; filename*=UTF-8''{quote(name)}"
    return ApiReply(data=data, content_type=mime, headers={"content-disposition": disposition})


def upload(request: ApiRequest) -> ApiReply:
    _site(request)
    require(request.params["folder"] in FOLDERS, error(404, "itemNotFound", "The resource could not be found."))
    name = request.params["name"]
    return ApiReply(status=201, body=_drive_item("new-file", name, len(request.raw_body), "text/plain"))


def rename_file(request: ApiRequest) -> ApiReply:
    name, data, mime = _file(request)
    body = request.body if isinstance(request.body, dict) else {}
    return ApiReply(body=_drive_item(request.params["file"], str(body.get("name") or name), len(data), mime))


def replace_content(request: ApiRequest) -> ApiReply:
    name, _, mime = _file(request)
    return ApiReply(body=_drive_item(request.params["file"], name, len(request.raw_body), mime))


def install(server: FakeApiServer) -> None:
    def route(method: str, path: str, handler: Any) -> None:
        server.route(method, rf"/_api/v2\.0/sites/(?P<site>[^/]+){path}", handler, host=HOST)

    route("GET", "/lists/?", list_lists)
    route("GET", r"/lists/(?P<list>[^/]+)", get_list)
    route("GET", r"/lists/(?P<list>[^/]+)/items/?", list_items)
    route("POST", r"/lists/(?P<list>[^/]+)/items/?", create_item)
    route("GET", r"/lists/(?P<list>[^/]+)/items/(?P<item>[^/]+)", get_item)
    route("PATCH", r"/lists/(?P<list>[^/]+)/items/(?P<item>[^/]+)", update_item)
    route("DELETE", r"/lists/(?P<list>[^/]+)/items/(?P<item>[^/]+)", delete_item)
    route("GET", r"/drive/items/(?P<file>[^/:]+)/content", download)
    route("PUT", r"/drive/items/(?P<file>[^/:]+)/content", replace_content)
    route("PATCH", r"/drive/items/(?P<file>[^/:]+)", rename_file)
    route("PUT", r"/drive/items/(?P<folder>[^/:]+):/(?P<name>[^:]+):/content", upload)


__all__ = ["BASE", "HOST", "ITEMS", "LISTS", "TOKEN", "install"]
