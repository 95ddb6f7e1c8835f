"""n8n's Slack ``GenericFunctions``: :func:`slack_api_request` (a Web API method with the node's credential; a
200 answer with ``ok: false`` is an error, raised as n8n words it), :func:`slack_api_request_all_items` (every
page: the cursor of ``response_metadata.next_cursor``, or the classic ``paging.page``/``paging.pages``) and
:func:`slack_api_request_all_items_with_rate_limit` (the same, waiting ``Retry-After`` seconds on a 429 and trying
again up to three times)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope

SLACK_API = "https://slack.com/api"
#: The OAuth2 token n8n signs Slack's requests with (the user's token of the OAuth v2 answer).
_OAUTH2_PROPERTY = ("authed_user", "access_token")
_HINTS = {
    "ratelimited": "Wait before running this again, or request less data at a time. Limits differ per operation - "
    "see the Slack Documentation - https://docs.slack.dev/apis/web-api/rate-limits",
}
Sleep = Callable[[float], Awaitable[None]]
#: An operation: ``(api, scope, item index, node version) -> the answer``.
Operation = Callable[[ApiRequests, RoutingScope, int, float], Awaitable[Any]]


def to_multi_options_csv(value: Any) -> str:
    """n8n's ``toMultiOptionsCsv``: a list or a comma-separated text as ``a,b`` (entries trimmed, blanks left out)."""
    if isinstance(value, list):
        entries = [str(entry).strip() for entry in value]
    elif isinstance(value, str):
        entries = [entry.strip() for entry in value.split(",")]
    else:
        return ""
    return ",".join(entry for entry in entries if entry)


def throw_on_slack_api_error(api: ApiRequests, response: Mapping[str, Any]) -> None:
    """n8n's ``throwOnSlackApiError``: an ``ok: false`` answer as the node's error."""
    node = api.ctx.node.name
    error = response.get("error")
    if error == "paid_teams_only":
        resource = api.ctx.get_node_parameter("resource", 0, "message")
        raise NodeOperationError(node, f"Your current Slack plan does not include the resource '{resource}'",
                                 description="Hint: Upgrade to a Slack plan that includes the functionality you want "
                                 "to use.")  # fmt: skip
    if error in ("ratelimited", "rate_limited"):
        raise NodeOperationError(node, f"Slack error response: {json.dumps(error)}", description=_HINTS["ratelimited"])
    if error == "missing_scope":
        raise NodeOperationError(node, "Your Slack credential is missing required Oauth Scopes",
                                 description=f"Add the following scope(s) to your Slack App: "
                                 f"{_js_text(response.get('needed'))}")  # fmt: skip
    if error in ("not_allowed_token_type", "invalid_action_token"):
        raise NodeOperationError(node, "This Slack operation requires a user token", description="Bot tokens are not "
                                 "accepted here. Use OAuth2 authentication, or an Access Token credential holding a "
                                 'user token (starts with "xoxp-").')  # fmt: skip
    if error == "not_admin":
        raise NodeOperationError(node, "Need higher Role Level for this Operation (e.g. Owner or Admin Rights)",
                                 description="Hint: Check the Role of your Slack App Integration. For more information "
                                 "see the Slack Documentation - "
                                 "https://slack.com/help/articles/360018112273-Types-of-roles-in-Slack")  # fmt: skip
    raise NodeOperationError(node, f"Slack error response: {_js_json(error)}")


def _js_text(value: Any) -> str:
    return "undefined" if value is None else str(value)


def _js_json(value: Any) -> str:
    """``JSON.stringify`` of the error (``undefined`` stays out of the text as n8n's concatenation writes it)."""
    return "undefined" if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


async def _credential(api: ApiRequests) -> tuple[str | None, dict[str, str]]:
    """The credential type to sign with (None: signed here) and the headers that sign it."""
    authentication = api.ctx.get_node_parameter("authentication", 0, "accessToken")
    if authentication == "accessToken":
        return "slackApi", {}
    data = (await api.credential("slackOAuth2Api")).data
    token_data = data.get("oauthTokenData") or {}
    token: Any = token_data
    for step in _OAUTH2_PROPERTY:
        token = token.get(step) if isinstance(token, Mapping) else None
    token = token or token_data.get("accessToken") or token_data.get("access_token")
    return None, {"Authorization": f"Bearer {token}"}


async def slack_api_request(
    api: ApiRequests,
    method: str,
    resource: str,
    body: Mapping[str, Any] | None = None,
    query: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    option: Mapping[str, Any] | None = None,
    item_index: int = 0,
) -> Any:
    """n8n's ``slackApiRequest``: the answer (``ts`` renamed ``message_timestamp``); ``ok: false`` raises unless
    ``option["simple"]`` is False. ``option["full"]`` answers the full response (``statusCode``, ``headers``)."""
    option = dict(option or {})
    full, simple = bool(option.pop("full", False)), option.pop("simple", True)
    credential_type, signing = await _credential(api)
    options: dict[str, Any] = {
        "method": method,
        "url": resource if resource.startswith("https") else f"{SLACK_API}{resource}",
        "headers": {**(headers if headers is not None else {"Content-Type": "application/json; charset=utf-8"}),
                    **signing},
        "json": True,
        "returnFullResponse": True,
    }  # fmt: skip
    if body:
        options["body"] = dict(body)
    if query:
        options["qs"] = dict(query)
    if simple is False:
        options["ignoreHttpStatusErrors"] = True
    options.update(option)
    try:
        response = await api.request(credential_type, options, item_index)
    except NodeApiError as error:
        raise NodeOperationError(api.ctx.node.name, error.message, description=error.description) from error
    data = response["body"]
    if isinstance(data, dict):
        if data.get("ok") is False and simple is not False:
            throw_on_slack_api_error(api, data)
        if "ts" in data:
            data["message_timestamp"] = data.pop("ts")
    return response if full else data


def _defined(value: Any) -> bool:
    return value is not None and value != ""


def _has_next_page(data: Mapping[str, Any], prop: str) -> bool:
    """n8n's ``hasNextPage``: a next cursor, or a classic page before the last."""
    if _defined((data.get("response_metadata") or {}).get("next_cursor")):
        return True
    for paging in (
        data.get("paging"),
        (data.get(prop) or {}).get("paging") if isinstance(data.get(prop), dict) else None,
    ):
        if isinstance(paging, dict) and _defined(paging.get("pages")) and _defined(paging.get("page")):
            if paging["page"] < paging["pages"]:
                return True
    return False


def _entries(data: Mapping[str, Any], prop: str) -> list[Any]:
    value = data.get(prop)
    if isinstance(value, dict) and "matches" in value:
        value = value["matches"]
    return list(value) if isinstance(value, list) else []


def _first_query(endpoint: str, query: Mapping[str, Any] | None) -> dict[str, Any]:
    query = dict(query or {})
    query["page"] = 1
    if "files.list" in endpoint:
        query["count"] = 100  # the classic pagination counts
    else:
        query["limit"] = query.get("limit", 100)
    return query


async def slack_api_request_all_items(
    api: ApiRequests,
    prop: str,
    method: str,
    endpoint: str,
    body: Mapping[str, Any] | None = None,
    query: Mapping[str, Any] | None = None,
    item_index: int = 0,
) -> list[Any]:
    """n8n's ``slackApiRequestAllItems``: the entries of ``prop`` (or ``prop.matches``) over every page."""
    query = _first_query(endpoint, query)
    found: list[Any] = []
    while True:
        data = await slack_api_request(api, method, endpoint, body, query, item_index=item_index)
        query["cursor"] = (data.get("response_metadata") or {}).get("next_cursor")
        query["page"] += 1
        found.extend(_entries(data, prop))
        if not _has_next_page(data, prop):
            return found


async def slack_api_request_all_items_with_rate_limit(
    api: ApiRequests,
    prop: str,
    method: str,
    endpoint: str,
    query: Mapping[str, Any] | None = None,
    *,
    max_retries: int = 3,
    fallback_delay_s: float = 30.0,
    on_fail: str = "throw",
    sleep: Sleep = asyncio.sleep,
) -> dict[str, Any]:
    """n8n's ``slackApiRequestAllItemsWithRateLimit``: every page; a 429 waits its ``Retry-After`` (else
    ``fallback_delay_s``) and retries up to ``max_retries`` times, then raises, or with ``on_fail="stop"`` answers
    what it has with the cursor or page to go on from (``{data, cursor?, page?}``)."""
    query = _first_query(endpoint, query)
    found: list[Any] = []
    data: dict[str, Any] = {}
    while True:
        retries = 0
        while True:
            response = await slack_api_request(
                api, method, endpoint, None, query, option={"full": True, "simple": False}
            )
            status, body = response["statusCode"], response["body"]
            if status == 200:
                if isinstance(body, dict) and body.get("ok") is False:
                    throw_on_slack_api_error(api, body)
                data = body
                break
            if status != 429:
                raise NodeOperationError(api.ctx.node.name, _status_message(response))
            retry = retries < max_retries
            if retry or on_fail == "stop":
                after = {k.lower(): v for k, v in (response.get("headers") or {}).items()}.get("retry-after")
                await sleep(int(after) if after and str(after).isdigit() else fallback_delay_s)
                retries += 1
            if retry:
                continue
            if on_fail == "stop":
                return _stopped(found, query, data, prop)
            raise NodeOperationError(api.ctx.node.name, _status_message(response))
        query["cursor"] = (data.get("response_metadata") or {}).get("next_cursor")
        query["page"] += 1
        found.extend(_entries(data, prop))
        if not _has_next_page(data, prop):
            return {"data": found}


def _status_message(response: Mapping[str, Any]) -> str:
    body = response.get("body")
    error = body.get("error") if isinstance(body, dict) else None
    return f"Slack error response: {_js_json(error or response.get('statusMessage') or 'Unknown error')}"


def _stopped(found: list[Any], query: Mapping[str, Any], data: Mapping[str, Any], prop: str) -> dict[str, Any]:
    result: dict[str, Any] = {"data": found}
    if query.get("cursor"):
        result["cursor"] = query["cursor"]
    given = data.get(prop)
    nested: Mapping[str, Any] = given if isinstance(given, dict) else {}
    page = (data.get("paging") or {}).get("page") or (nested.get("paging") or {}).get("page") or query.get("page")
    if page:
        result["page"] = str(page)
    return result
