"""The labels of the fake Gmail API (:mod:`weft.testing.saas.gmail`): list, get, create (409 for a name taken) and
delete; a created label is answered from the request, its id a hash of its name."""

from __future__ import annotations

import hashlib

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._gmail_common import authorized, error, not_found
from weft.testing.saas._gmail_data import LABELS


def list_labels(request: ApiRequest) -> ApiReply:
    authorized(request)
    return ApiReply(body={"labels": LABELS})


def get_label(request: ApiRequest) -> ApiReply:
    authorized(request)
    found = next((lbl for lbl in LABELS if lbl["id"] == request.params["id"]), None)
    require(found is not None, not_found())
    return ApiReply(body=found)


def create_label(request: ApiRequest) -> ApiReply:
    authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    name = str(body.get("name") or "")
    require(name != "", error(400, "Invalid label name", "invalidArgument", "INVALID_ARGUMENT"))
    taken = any(str(lbl["name"]).lower() == name.lower() for lbl in LABELS)
    require(not taken, error(409, "Label name exists or conflicts", "alreadyExists", "ALREADY_EXISTS"))
    label_id = "Label_" + str(int(hashlib.sha1(name.encode()).hexdigest()[:8], 16) % 10**6)
    out = {"id": label_id, "name": name}
    out.update({k: body[k] for k in ("messageListVisibility", "labelListVisibility") if k in body})
    return ApiReply(body=out)


def delete_label(request: ApiRequest) -> ApiReply:
    authorized(request)
    require(any(lbl["id"] == request.params["id"] for lbl in LABELS), not_found())
    return ApiReply(status=204)


__all__ = ["create_label", "delete_label", "get_label", "list_labels"]
