"""n8n's GitHub ``GenericFunctions``: one request on the credential's server (``githubApiRequest``), every page of
a list (``githubApiRequestAllItems``: ``page``/``per_page=100`` while the ``Link`` header names a ``next`` page),
and a file's SHA (``getFileSha``)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from weft.errors import NodeOperationError
from weft.nodes.api import ApiRequests

#: n8n's ``authentication`` values and the credential types they use.
CREDENTIALS = {"accessToken": "githubApi", "oAuth2": "githubOAuth2Api"}
DEFAULT_SERVER = "https://api.github.com"
_BASE64 = re.compile(r"^([0-9a-zA-Z+/]{4})*(([0-9a-zA-Z+/]{2}==)|([0-9a-zA-Z+/]{3}=))?$")


def credential_type(api: ApiRequests) -> str:
    """The credential type the node's ``authentication`` names (a GitHub App is not supported yet)."""
    method = str(api.ctx.get_node_parameter("authentication", 0, "accessToken"))
    found = CREDENTIALS.get(method)
    if found is None:
        raise NodeOperationError(
            api.ctx.node.name,
            f"Authentication {method!r} is not supported yet",
            description="Set 'Authentication' to 'Access Token' or 'OAuth2'.",
        )
    return found


async def github_request(
    api: ApiRequests,
    method: str,
    endpoint: str,
    item_index: int,
    body: dict[str, Any] | None = None,
    qs: dict[str, Any] | None = None,
    **extra: Any,
) -> Any:
    """``githubApiRequest``: ``endpoint`` on the credential's server; ``extra`` are more request options."""
    kind = credential_type(api)
    credential = await api.credential(kind)
    server = str(credential.data.get("server") or DEFAULT_SERVER)
    options: dict[str, Any] = {"method": method, "url": f"{server}{endpoint}", "qs": qs or {}, "json": True}
    if body:
        options["body"] = body
    options.update(extra)
    return await api.request(kind, options, item_index)


async def github_request_all(
    api: ApiRequests, method: str, endpoint: str, item_index: int, body: dict[str, Any], qs: dict[str, Any]
) -> list[Any]:
    """``githubApiRequestAllItems``: pages of 100 (``page`` 1, 2, …) until the ``Link`` header has no ``next``."""
    found: list[Any] = []
    query = {**qs, "per_page": 100, "page": 1}
    while True:
        response = await github_request(api, method, endpoint, item_index, body, dict(query), returnFullResponse=True)
        page = response["body"]
        found.extend(page if isinstance(page, list) else [page])
        query["page"] += 1
        link = next((v for k, v in response["headers"].items() if k.lower() == "link"), "")
        if "next" not in str(link):
            return found


async def file_sha(
    api: ApiRequests, owner: str, repository: str, path: str, branch: str | None, item_index: int
) -> str:
    """``getFileSha``: the SHA of the file at ``path`` (on ``branch``), which an edit or delete must name."""
    qs = {"ref": branch} if branch is not None else {}
    endpoint = f"/repos/{owner}/{repository}/contents/{quote(path, safe=_URI_SAFE)}"
    found = await github_request(api, "GET", endpoint, item_index, None, qs)
    sha = found.get("sha") if isinstance(found, dict) else None
    if sha is None:
        raise NodeOperationError(api.ctx.node.name, "Could not get the SHA of the file.", item_index=item_index)
    return str(sha)


#: What JavaScript's ``encodeURI`` leaves as it is (``encodeURIComponent`` leaves ``-_.!~*'()``).
_URI_SAFE = ";,/?:@&=+$-_.!~*'()#"
COMPONENT_SAFE = "-_.!~*'()"


def is_base64(content: str) -> bool:
    """n8n's ``isBase64`` (an empty text counts as base64)."""
    return _BASE64.fullmatch(content) is not None


__all__ = ["COMPONENT_SAFE", "CREDENTIALS", "file_sha", "github_request", "github_request_all", "is_base64"]
