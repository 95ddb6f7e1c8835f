"""n8n's Jira ``GenericFunctions``: a request on the credential's domain (``jiraSoftwareCloudApiRequest``), every
page of a list (``jiraSoftwareCloudApiRequestAllItems``: ``startAt`` offsets or ``nextPageToken``), and the
simplified issue (``simplifyIssueOutput``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.api import ApiRequests
from weft.nodes.contract import MISSING
from weft.nodes.routing.scope import RoutingScope

#: ``jiraVersion`` values and their credential types.
CREDENTIALS = {
    "cloud": "jiraSoftwareCloudApi",
    "server": "jiraSoftwareServerApi",
    "serverPat": "jiraSoftwareServerPatApi",
}
_HEADERS = {"Accept": "application/json", "Content-Type": "application/json", "X-Atlassian-Token": "no-check"}
_PRIORITY = "Field 'priority' cannot be set"
_CUSTOM = re.compile(r"^customfield_\d+$")


@dataclass
class Run:
    """One run of the node: its requests, parameters and the query n8n shares between items (``qs``)."""

    api: ApiRequests
    scope: RoutingScope
    version: str
    qs: dict[str, Any] = field(default_factory=dict)

    @property
    def server(self) -> bool:
        return self.version in ("server", "serverPat")

    def param(self, name: str, index: int, default: Any = MISSING, *, extract: bool = False) -> Any:
        return self.scope.parameter(name, index, default, extract_value=extract)

    def fields(self, name: str, index: int) -> dict[str, Any]:
        value = self.param(name, index, {})
        return dict(value) if isinstance(value, dict) else {}

    async def request(
        self,
        endpoint: str,
        method: str,
        index: int,
        body: dict[str, Any] | None = None,
        qs: dict[str, Any] | None = None,
        uri: str | None = None,
        content: bytes | None = None,
        **extra: Any,
    ) -> Any:
        """``jiraSoftwareCloudApiRequest``: ``<domain>/rest<endpoint>`` (or ``uri``), no empty body or query."""
        kind = credential_type(self.scope, self.version)
        credential = await self.api.credential(kind)
        domain = re.sub(r"/+$", "", str(credential.data.get("domain") or ""))
        options: dict[str, Any] = {
            "headers": dict(_HEADERS),
            "method": method,
            "url": uri or f"{domain}/rest{endpoint}",
        }
        options["json"] = True
        if body or content is not None:
            options["body"] = content if content is not None else body
        if qs:
            options["qs"] = dict(qs)
        options.update(extra)
        try:
            return await self.api.request(kind, options, index)
        except NodeApiError as error:
            if _PRIORITY in str(getattr(error, "description", None) or ""):
                message = (
                    "Field 'priority' cannot be set. You need to add the Priority field to your Jira Project's "
                    "Issue Types."
                )
                raise NodeApiError(
                    error.node_name, message, http_code=error.http_code, description=getattr(error, "description", None)
                ) from error
            raise

    async def request_all(
        self,
        prop: str,
        endpoint: str,
        method: str,
        index: int,
        body: dict[str, Any] | None = None,
        qs: dict[str, Any] | None = None,
        paging: str = "offset",
    ) -> list[Any]:
        """Every page's ``prop`` entries: ``startAt``/``maxResults`` 100 while ``startAt + maxResults < total``,
        or ``nextPageToken`` while the answer has one (in the query for a GET, else in the body)."""
        body, qs = dict(body or {}), dict(qs or {})
        target = qs if method == "GET" else body
        target.update({"startAt": 0, "maxResults": 100} if paging == "offset" else {"maxResults": 100})
        found: list[Any] = []
        while True:
            answer = await self.request(endpoint, method, index, body, qs)
            answer = answer if isinstance(answer, dict) else {}
            found.extend(answer.get(prop) or [])
            if paging == "offset":
                target["startAt"] = (answer.get("startAt") or 0) + (answer.get("maxResults") or 0)
                if not target["startAt"] < (answer.get("total") or 0):
                    return found
            else:
                target["nextPageToken"] = answer.get("nextPageToken")
                if not answer.get("nextPageToken"):
                    return found


def credential_type(scope: RoutingScope, version: str) -> str:
    found = CREDENTIALS.get(version)
    if found is None:
        raise NodeOperationError(
            scope.node_name,
            f"Jira version {version!r} is not supported yet",
            description="Set 'Jira Version' to 'Cloud', 'Server (Self Hosted)' or 'Server (Pat) (Self Hosted)'.",
        )
    return found


def simplify_issue(answer: dict[str, Any]) -> dict[str, Any]:
    """``simplifyIssueOutput``: ``id``, ``key``, ``self`` and every field under its display name (custom fields
    last; a name taken twice gets ``_1``, ``_2`` …)."""
    mapped: dict[str, Any] = {"id": answer.get("id"), "key": answer.get("key"), "self": answer.get("self")}
    fields = answer.get("fields") or {}
    names = answer.get("names") or {}
    ordered = sorted(k for k in fields if not _CUSTOM.match(k)) + sorted(k for k in fields if _CUSTOM.match(k))
    for key in ordered:
        name = names.get(key)
        label = "undefined" if name is None else str(name)
        if label in mapped:
            counter, new = 0, label
            while new in mapped:
                counter += 1
                new = f"{label}_{counter}"
            mapped[new] = fields[key]
        else:
            mapped[str(name) if name else key] = fields[key]
    return mapped


def merge_rendered(fields: Any, rendered: Any) -> Any:
    """lodash ``mergeWith(fields, rendered, (a, b) => b === null ? a : b)``."""
    if isinstance(fields, dict) and isinstance(rendered, dict):
        merged = dict(fields)
        for key, value in rendered.items():
            merged[key] = fields[key] if value is None and key in fields else value
        return merged
    return fields if rendered is None else rendered


__all__ = ["CREDENTIALS", "Run", "credential_type", "merge_rendered", "simplify_issue"]
