"""The Jira node's issue operations, as n8n builds them (each answers what the item outputs)."""

from __future__ import annotations

import json
from typing import Any

from weft.errors import NodeOperationError
from weft.library.jira.transport import Run, merge_rendered, simplify_issue
from weft.nodes.values import js_string


def _person(run: Run, value: Any) -> dict[str, Any]:
    return {"name": value} if run.server else {"id": value}


def _locators(run: Run, index: int, group: str, fields: dict[str, Any], names: tuple[str, ...]) -> None:
    for name in names:
        value = run.param(f"{group}.{name}", index, "", extract=True)
        if value:
            fields[name] = value


def _custom_fields(given: dict[str, Any], fields: dict[str, Any]) -> None:
    values = (given.get("customFieldsUi") or {}).get("customFieldsValues")
    for entry in values or []:
        field_id = entry.get("fieldId")
        if not isinstance(field_id, str):
            field_id = str((field_id or {}).get("value", "")).strip()
        fields[field_id] = entry.get("fieldValue")


def _common_fields(run: Run, given: dict[str, Any], fields: dict[str, Any]) -> None:
    if given.get("labels"):
        fields["labels"] = given["labels"]
    if given.get("serverLabels"):
        fields["labels"] = given["serverLabels"]
    if given.get("priority"):
        fields["priority"] = {"id": given["priority"]}
    for key in ("assignee", "reporter"):
        if given.get(key):
            fields[key] = _person(run, given[key])
    if given.get("description"):
        fields["description"] = given["description"]


async def _subtask_types(run: Run, index: int, qs: dict[str, Any] | None) -> list[Any]:
    types = await run.request("/api/2/issuetype", "GET", index, None, qs)
    return [t.get("id") for t in types or [] if isinstance(t, dict) and t.get("subtask")]


def _parent(run: Run, index: int, given: dict[str, Any], type_id: Any, subtasks: list[Any]) -> dict[str, Any] | None:
    if type_id not in subtasks:
        return None
    if not given.get("parentIssueKey"):
        message = "You must define a Parent Issue Key when Issue type is sub-task"
        raise NodeOperationError(run.scope.node_name, message, item_index=index)
    return {"key": js_string(given["parentIssueKey"]).upper()}


async def create(run: Run, index: int) -> Any:
    given = run.fields("additionalFields", index)
    _locators(run, index, "additionalFields", given, ("assignee", "reporter", "priority"))
    type_id = run.param("issueType", index, "", extract=True)
    fields: dict[str, Any] = {"summary": run.param("summary", index)}
    fields["project"] = {"id": run.param("project", index, "", extract=True)}
    fields["issuetype"] = {"id": type_id}
    _common_fields(run, given, fields)
    if given.get("updateHistory"):
        run.qs["updateHistory"] = given["updateHistory"]
    if given.get("componentIds"):
        fields["components"] = [{"id": c} for c in given["componentIds"]]
    _custom_fields(given, fields)
    parent = _parent(run, index, given, type_id, await _subtask_types(run, index, run.qs))
    if parent is not None:
        fields["parent"] = parent
    return await run.request("/api/2/issue", "POST", index, {"fields": fields})


async def update(run: Run, index: int) -> Any:
    key = run.param("issueKey", index)
    given = run.fields("updateFields", index)
    _locators(run, index, "updateFields", given, ("assignee", "reporter", "priority", "statusId"))
    fields: dict[str, Any] = {}
    if given.get("summary"):
        fields["summary"] = given["summary"]
    if given.get("issueType"):
        fields["issuetype"] = {"id": given["issueType"]}
    _common_fields(run, given, fields)
    _custom_fields(given, fields)
    parent = _parent(run, index, given, given.get("issueType"), await _subtask_types(run, index, None))
    if parent is not None:
        fields["parent"] = parent
    if given.get("statusId"):
        body = {"transition": {"id": given["statusId"]}}
        await run.request(f"/api/2/issue/{key}/transitions", "POST", index, body)
    await run.request(f"/api/2/issue/{key}", "PUT", index, {"fields": fields})
    return {"success": True}


async def get(run: Run, index: int) -> Any:
    key = run.param("issueKey", index)
    simplify = bool(run.param("simplifyOutput", index, False))
    given = run.fields("additionalFields", index)
    for name in ("fields", "fieldsByKey", "expand"):
        if given.get(name):
            run.qs[name] = given[name]
    if simplify:
        run.qs["expand"] = f"{run.qs.get('expand') or ''},names"
    for name in ("properties", "updateHistory"):
        if given.get(name):
            run.qs[name] = given[name]
    answer = await run.request(f"/api/2/issue/{key}", "GET", index, None, run.qs)
    if not simplify or not isinstance(answer, dict):
        return answer
    expand = str(run.qs.get("expand") or "")
    if "renderedfields" in expand.lower() and answer.get("renderedFields"):
        answer["fields"] = merge_rendered(answer.get("fields"), answer["renderedFields"])
    return simplify_issue(answer)


async def get_all(run: Run, index: int) -> Any:
    options = run.fields("options", index)
    body: dict[str, Any] = {"fields": js_string(options.get("fields") or "*navigable").split(",")}
    body["jql"] = options.get("jql") or 'created >= "1970-01-01"'
    if options.get("expand"):
        given = options["expand"]
        expand = ",".join(map(str, given)) if isinstance(given, list) else js_string(given)
        body["expand"] = expand.split(",") if run.server else expand
    endpoint = "/api/2/search" if run.server else "/api/2/search/jql"
    if run.param("returnAll", index, False):
        return await run.request_all("issues", endpoint, "POST", index, body, None, "offset" if run.server else "token")
    body["maxResults"] = run.param("limit", index, 50)
    answer = await run.request(endpoint, "POST", index, body)
    return answer.get("issues") if isinstance(answer, dict) else None


async def changelog(run: Run, index: int) -> Any:
    endpoint = f"/api/2/issue/{run.param('issueKey', index)}/changelog"
    if run.param("returnAll", index, False):
        return await run.request_all("values", endpoint, "GET", index)
    run.qs["maxResults"] = run.param("limit", index, 50)
    answer = await run.request(endpoint, "GET", index, None, run.qs)
    return answer.get("values") if isinstance(answer, dict) else None


def _recipients(values: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key in ("reporter", "assignee"):
        if values.get(key):
            found[key] = values[key]
    if values.get("assignee"):
        found["watchers"] = values.get("watchers")  # n8n reads "watchers" when "assignee" is set
    if values.get("voters"):
        found["watchers"] = values["voters"]
    if values.get("users"):
        found["users"] = [{"accountId": user} for user in values["users"]]
    if values.get("groups"):
        found["groups"] = [{"name": group} for group in values["groups"]]
    return found


async def notify(run: Run, index: int) -> Any:
    key = run.param("issueKey", index)
    given = run.fields("additionalFields", index)
    body: dict[str, Any] = {k: given[k] for k in ("textBody", "htmlBody") if given.get(k)}
    if not run.param("jsonParameters", 0, False):
        recipients = (run.param("notificationRecipientsUi", index, {}) or {}).get("notificationRecipientsValues")
        body["to"] = _recipients(recipients or {})
        restrictions = (run.param("notificationRecipientsRestrictionsUi", index, {}) or {}).get(
            "notificationRecipientsRestrictionsValues"
        )
        groups = (restrictions or {}).get("groups") or []
        body["restrict"] = {"groups": [{"name": g} for g in groups]} if groups else {}
    else:
        for name, target in (
            ("notificationRecipientsJson", "to"),
            ("notificationRecipientsRestrictionsJson", "restrict"),
        ):
            parsed = _json_or_empty(run.param(name, index, ""))
            if parsed:
                body[target] = parsed
    await run.request(f"/api/2/issue/{key}/notify", "POST", index, body, run.qs)
    return {"success": True}


def _json_or_empty(text: Any) -> Any:
    """n8n's Jira ``validateJSON``: the parsed JSON, or ``""``."""
    try:
        return json.loads(js_string(text))
    except ValueError:
        return ""


async def transitions(run: Run, index: int) -> Any:
    key = run.param("issueKey", index)
    given = run.fields("additionalFields", index)
    for name in ("transitionId", "expand", "skipRemoteOnlyCondition"):
        if given.get(name):
            run.qs[name] = given[name]
    answer = await run.request(f"/api/2/issue/{key}/transitions", "GET", index, None, run.qs)
    return answer.get("transitions") if isinstance(answer, dict) else None


async def delete(run: Run, index: int) -> Any:
    key = run.param("issueKey", index)
    run.qs["deleteSubtasks"] = run.param("deleteSubtasks", index, False)
    await run.request(f"/api/2/issue/{key}", "DELETE", index, None, run.qs)
    return {"success": True}


OPERATIONS = {
    "create": create,
    "update": update,
    "get": get,
    "getAll": get_all,
    "changelog": changelog,
    "notify": notify,
    "transitions": transitions,
    "delete": delete,
}

__all__ = ["OPERATIONS"]
