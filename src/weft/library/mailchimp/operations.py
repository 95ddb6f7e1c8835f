"""Each Mailchimp operation, as n8n's node runs it (the answer the item outputs)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from weft.errors import NodeOperationError
from weft.library.mailchimp.transport import mailchimp_request, mailchimp_request_all
from weft.nodes.api import ApiRequests
from weft.nodes.contract import MISSING
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string

#: n8n's ``campaignFieldsMetadata`` (the fields asked for when "*" is chosen).
CAMPAIGN_FIELDS = (
    "*,campaigns.id,campaigns.web_id,campaigns.type,campaigns.create_time,campaigns.archive_url,"
    "campaigns.long_archive_url,campaigns.status,campaigns.emails_sent,campaigns.send_time,campaigns.content_type,"
    "campaigns.needs_block_refresh,campaigns.resendable,campaigns.recipients,campaigns.recipients.list_id,"
    "campaigns.recipients.list_is_active,campaigns.recipients.list_name,campaigns.recipients.segment_text,"
    "campaigns.recipients.recipient_count,campaigns.settings,campaigns.settings.subject_line,"
    "campaigns.settings.preview_text,campaigns.settings.title,campaigns.settings.from_name,"
    "campaigns.settings.reply_to,campaigns.settings.use_conversation,campaigns.settings.to_name,"
    "campaigns.settings.folder_id,campaigns.settings.authenticate,campaigns.settings.auto_footer,"
    "campaigns.settings.inline_css,campaigns.settings.auto_tweet,campaigns.settings.fb_comments,"
    "campaigns.settings.timewarp,campaigns.settings.template_id,campaigns.settings.drag_and_drop,"
    "campaigns.tracking,campaigns.tracking.opens,campaigns.tracking.html_clicks,campaigns.tracking.text_clicks,"
    "campaigns.tracking.goal_tracking,campaigns.tracking.ecomm360,campaigns.tracking.google_analytics,"
    "campaigns.tracking.clicktale,campaigns.report_summary,campaigns.report_summary.opens,"
    "campaigns.report_summary.unique_opens,campaigns.report_summary.open_rate,campaigns.report_summary.clicks,"
    "campaigns.report_summary.subscriber_clicks,campaigns.report_summary.click_rate,"
    "campaigns.report_summary.click_rate.ecommerce,campaigns.report_summary.click_rate.ecommerce.total_orders,"
    "campaigns.report_summary.click_rate.ecommerce.total_spent,"
    "campaigns.report_summary.click_rate.ecommerce.total_revenue,campaigns.report_summary.delivery_status.enabled,"
    "campaigns._links"
)
_DEFAULT_CAMPAIGN_FIELDS = (
    "campaigns.id,campaigns.status,campaigns.tracking,campaigns.settings.from_name,campaigns.settings.title,"
    "campaigns.settings.reply_to"
)
_MEMBER_OPTIONS: tuple[tuple[str, str], ...] = (("emailType", "email_type"), ("language", "language"), ("vip", "vip"))
_MEMBER_OPTIONS += (("ipSignup", "ip_signup"), ("ipOptIn", "ip_opt"))


@dataclass
class Run:
    """One run: the requests, the parameters and the query n8n shares between items."""

    api: ApiRequests
    scope: RoutingScope
    qs: dict[str, Any] = field(default_factory=dict)

    def param(self, name: str, index: int, default: Any = MISSING) -> Any:
        return self.scope.parameter(name, index, default)

    def fields(self, name: str, index: int) -> dict[str, Any]:
        value = self.param(name, index, {})
        return dict(value) if isinstance(value, dict) else {}

    async def request(self, endpoint: str, method: str, index: int, body: dict[str, Any] | None = None) -> Any:
        return await mailchimp_request(self.api, endpoint, method, index, body, self.qs)


def _moment(value: Any) -> str:
    """moment's ``format('YYYY-MM-DD HH:MM:SS')`` as n8n writes it (``MM`` twice is the month, ``SS`` the
    hundredths of a second)."""
    moment = datetime.fromisoformat(js_string(value).replace("Z", "+00:00"))
    return moment.strftime("%Y-%m-%d %H:%m:") + f"{moment.microsecond // 10000:02d}"


def _json_or_empty(text: Any) -> Any:
    try:
        return json.loads(js_string(text))
    except ValueError:
        return ""


def _member_options(given: dict[str, Any], body: dict[str, Any]) -> None:
    for name, key in _MEMBER_OPTIONS:
        if given.get(name):
            body[key] = given[name]
    for name, key in (("timestampOpt", "timestamp_opt"), ("timestampSignup", "timestamp_signup")):
        if given.get(name):
            body[key] = _moment(given[name])


def _member_structured(run: Run, index: int, body: dict[str, Any], ui: dict[str, Any]) -> None:
    """Location, merge fields and interests: from the node's JSON parameters, or from ``ui``'s collections."""
    if run.param("jsonParameters", index, False):
        pairs = (("locationJson", "location"), ("mergeFieldsJson", "merge_fields"), ("groupJson", "interests"))
        for name, key in pairs:
            parsed = _json_or_empty(run.param(name, index, ""))
            if parsed:
                body[key] = parsed
        return
    location = (ui.get("locationFieldsUi") or {}).get("locationFieldsValues")
    if location:
        body["location"] = {k: float(js_string(v)) for k, v in location.items() if k in ("latitude", "longitude")}
    merge = (ui.get("mergeFieldsUi") or {}).get("mergeFieldsValues")
    if merge:
        body["merge_fields"] = {entry.get("name"): entry.get("value") for entry in merge}
    groups = (ui.get("groupsUi") or {}).get("groupsValues")
    if groups:
        body["interests"] = {entry.get("categoryFieldId"): entry.get("value") for entry in groups}


async def member_create(run: Run, index: int) -> Any:
    list_id, email = run.param("list", index), run.param("email", index)
    options = run.fields("options", index)
    body: dict[str, Any] = {"listId": list_id, "email_address": email, "status": run.param("status", index)}
    _member_options(options, body)
    if options.get("tags"):
        body["tags"] = js_string(options["tags"]).split(",")
    ui = {}
    if not run.param("jsonParameters", index, False):
        ui = {name: run.param(name, index, {}) for name in ("locationFieldsUi", "mergeFieldsUi", "groupsUi")}
    _member_structured(run, index, body, ui)
    return await run.request(f"/lists/{list_id}/members", "POST", index, body)


async def member_update(run: Run, index: int) -> Any:
    list_id, email = run.param("list", index), run.param("email", index)
    given = run.fields("updateFields", index)
    body: dict[str, Any] = {"listId": list_id, "email_address": email}
    if given.get("skipMergeValidation"):
        run.qs["skip_merge_validation"] = given["skipMergeValidation"]
    if given.get("status"):
        body["status"] = given["status"]
    _member_options(given, body)
    _member_structured(run, index, body, given)
    return await run.request(f"/lists/{list_id}/members/{email}", "PUT", index, body)


async def member_get(run: Run, index: int) -> Any:
    list_id, email = run.param("list", index), run.param("email", index)
    options = run.fields("options", index)
    if options.get("fields"):
        run.qs["fields"] = options["fields"]
    if options.get("excludeFields"):
        run.qs["exclude_fields"] = options["excludeFields"]
    return await run.request(f"/lists/{list_id}/members/{email}", "GET", index)


async def member_get_all(run: Run, index: int) -> Any:
    list_id = run.param("list", index)
    options = run.fields("options", index)
    names: tuple[tuple[str, str], ...] = (("beforeLastChanged", "before_last_changed"),)
    names += (("beforeTimestampOpt", "before_timestamp_opt"), ("emailType", "email_type"), ("status", "status"))
    names += (("sinceLastChanged", "since_last_changed"),)
    for name, key in names:
        if options.get(name):
            run.qs[key] = options[name]
    return await _listed(run, index, f"/lists/{list_id}/members", "members")


async def _listed(run: Run, index: int, endpoint: str, prop: str) -> Any:
    if run.param("returnAll", index, False):
        return await mailchimp_request_all(run.api, endpoint, prop, index, run.qs)
    run.qs["count"] = run.param("limit", index, 500)
    answer = await run.request(endpoint, "GET", index)
    return answer.get(prop) if isinstance(answer, dict) else None


async def member_delete(run: Run, index: int) -> Any:
    list_id, email = run.param("list", index), run.param("email", index)
    await run.request(f"/lists/{list_id}/members/{email}/actions/delete-permanent", "POST", index)
    return {"success": True}


async def _tags(run: Run, index: int, status: str) -> Any:
    list_id, email = run.param("list", index), run.param("email", index)
    options = run.fields("options", index)
    body: dict[str, Any] = {"tags": []}
    if options.get("isSyncing"):
        body["is_syncing"] = options["isSyncing"]
    body["tags"] = [{"name": tag, "status": status} for tag in run.param("tags", index, []) or []]
    await run.request(f"/lists/{list_id}/members/{email}/tags", "POST", index, body)
    return {"success": True}


async def tag_create(run: Run, index: int) -> Any:
    return await _tags(run, index, "active")


async def tag_delete(run: Run, index: int) -> Any:
    return await _tags(run, index, "inactive")


async def campaign_get_all(run: Run, index: int) -> Any:
    options = run.fields("options", index)
    names: tuple[tuple[str, str], ...] = (("status", "status"), ("beforeCreateTime", "before_create_time"))
    names += (("beforeSendTime", "before_send_time"),)
    for name, key in names:
        if options.get(name):
            run.qs[key] = options[name]
    if options.get("excludeFields"):  # n8n reads "exclude_fields", which is never set
        message = "Cannot read properties of undefined (reading 'join')"
        raise NodeOperationError(run.scope.node_name, message, item_index=index)
    fields = options.get("fields")
    if fields:
        run.qs["fields"] = CAMPAIGN_FIELDS if "*" in fields else ",".join(map(str, fields))
    else:
        run.qs["fields"] = _DEFAULT_CAMPAIGN_FIELDS
    names = (("listId", "list_id"), ("sinceCreateTime", "since_create_time"), ("sinceSendTime", "since_send_time"))
    names += (("sortDirection", "sort_dir"), ("sortField", "sort_field"))
    for name, key in names:
        if options.get(name):
            run.qs[key] = options[name]
    return await _listed(run, index, "/campaigns", "campaigns")


async def campaign_action(run: Run, index: int, operation: str) -> Any:
    campaign = f"/campaigns/{run.param('campaignId', index)}"
    if operation == "get":
        return await run.request(campaign, "GET", index)
    if operation == "delete":
        await run.request(campaign, "DELETE", index)
        return {"success": True}
    action = {"send": "send", "replicate": "replicate", "resend": "create-resend"}[operation]
    answer = await run.request(f"{campaign}/actions/{action}", "POST", index)
    return {"success": True} if operation == "send" else answer


async def group_get_all(run: Run, index: int) -> Any:
    endpoint = f"/lists/{run.param('list', index)}/interest-categories/{run.param('groupCategory', index)}/interests"
    return await _listed(run, index, endpoint, "interests")


MEMBER = {
    "create": member_create,
    "update": member_update,
    "get": member_get,
    "getAll": member_get_all,
    "delete": member_delete,
}
TAG = {"create": tag_create, "delete": tag_delete}

__all__ = ["MEMBER", "TAG", "Run", "campaign_action", "campaign_get_all", "group_get_all"]
