"""Form fields as n8n's Form Trigger and Form nodes define them, and a submission turned into the output item.

A field is the ``formFields.values`` entry with n8n's parameter defaults filled in (``fieldType: text``,
``multipleFiles: true`` for files). Fields are submitted as ``field-<index>`` (n8n's form page); the output item
has one key per field, named by :func:`field_identifier` (the label, or from version 2.4 the ``fieldName``), with
n8n's conversions (:func:`submission_json`). Uploaded files become binary properties named after the field
(``prepareFormReturnItem``), stored through the node's binary helpers.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import js_to_number
from weft.workflow import Item

FIELD_TYPES = (
    "text",
    "textarea",
    "email",
    "number",
    "password",
    "date",
    "dropdown",
    "checkbox",
    "radio",
    "file",
    "hiddenField",
    "html",
)

#: The key a Form Trigger's (or a resumed Form node's) raw submission travels under, until the node turns it
#: into its output item.
SUBMISSION_KEY = "formSubmission"


@dataclass(frozen=True, kw_only=True)
class UploadedFormFile:
    """One uploaded file of a submission."""

    field: str
    """The form field it was sent as (``field-<index>``)."""
    filename: str | None
    mime_type: str
    data: bytes


@dataclass(frozen=True, kw_only=True)
class Submission:
    """A form POST as the nodes need it: the fields, the files, the query, the headers and the mode."""

    body: dict[str, Any]
    files: list[UploadedFormFile] = field(default_factory=list)
    query: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    mode: str = "production"
    """``test`` (``/form-test``) or ``production`` (n8n's ``formMode``)."""

    def to_json(self) -> dict[str, Any]:
        """The submission as plain JSON (the files base64-encoded), to travel in an item or a stack entry."""
        files = [
            {
                "field": f.field,
                "fileName": f.filename,
                "mimeType": f.mime_type,
                "data": base64.b64encode(f.data).decode(),
            }
            for f in self.files
        ]
        return {"body": self.body, "files": files, "query": self.query, "headers": self.headers, "mode": self.mode}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Submission:
        files = [
            UploadedFormFile(
                field=str(f.get("field", "")),
                filename=f.get("fileName"),
                mime_type=str(f.get("mimeType") or "application/octet-stream"),
                data=base64.b64decode(str(f.get("data", ""))),
            )
            for f in data.get("files") or []
        ]
        return cls(
            body=dict(data.get("body") or {}),
            files=files,
            query=dict(data.get("query") or {}),
            headers=dict(data.get("headers") or {}),
            mode=str(data.get("mode") or "production"),
        )


def normalize_field(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A field with n8n's defaults (``fieldType`` text; files allow several unless ``multipleFiles`` is false)."""
    result = dict(raw)
    result.setdefault("fieldType", "text")
    if result["fieldType"] == "file":
        result.setdefault("multipleFiles", True)
    return result


def parameter_fields(value: Any, node_name: str) -> list[dict[str, Any]]:
    """The fields of a ``formFields`` parameter (``{values: [...]}``), checked."""
    values = value.get("values") if isinstance(value, Mapping) else value
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(v, Mapping) for v in values):
        raise NodeOperationError(
            node_name,
            "The form fields are not a list of fields",
            description="Set 'Form Elements' to a list of fields, each with at least a 'fieldLabel'.",
        )
    fields = [normalize_field(v) for v in values]
    for index, entry in enumerate(fields):
        if entry["fieldType"] not in FIELD_TYPES:
            raise NodeOperationError(
                node_name,
                f"Form field {index + 1} has an unknown type {entry['fieldType']!r}",
                description=f"Use one of: {', '.join(FIELD_TYPES)}.",
            )
    return fields


def json_fields(text: Any, node_name: str) -> list[dict[str, Any]]:
    """n8n's ``tryToParseJsonToFormFields``: fields defined as a JSON array (the Form node's ``Using JSON``)."""
    try:
        parsed = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError:
        parsed = None
    if not isinstance(parsed, list):
        message = "Value is not valid JSON"
        raise NodeOperationError(node_name, message, description=message)
    fields: list[dict[str, Any]] = []
    for index, entry in enumerate(parsed):
        if not isinstance(entry, Mapping):
            message = f"Field {index + 1} is not an object"
            raise NodeOperationError(node_name, message, description=message)
        converted = dict(entry)
        options = converted.get("fieldOptions")
        if isinstance(options, Mapping) and isinstance(options.get("values"), list):
            pass
        elif isinstance(options, list):  # n8n accepts ["a", "b"] and [{"option": "a"}]
            converted["fieldOptions"] = {"values": [o if isinstance(o, Mapping) else {"option": o} for o in options]}
        fields.append(normalize_field(converted))
    return fields


def field_identifier(entry: Mapping[str, Any], version: float) -> str:
    """n8n's ``getFieldIdentifier``: ``fieldName`` from version 2.4, else the label (or the name)."""
    if version >= 2.4 and entry.get("fieldName"):
        return str(entry["fieldName"])
    label = entry.get("fieldLabel")
    if label is not None:
        return str(label)
    return str(entry.get("fieldName") or "")


def _convert(entry: Mapping[str, Any], value: Any, node_name: str) -> Any:
    kind = entry.get("fieldType")
    if kind == "number":
        number = js_to_number(value)
        return None if isinstance(number, float) and math.isnan(number) else number
    if kind in ("text", "email"):
        return str(value).strip()
    if (entry.get("multiselect") or kind in ("checkbox", "radio")) and isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise NodeOperationError(
                node_name,
                f"The value of {entry.get('fieldLabel')!r} is not a JSON list of options",
                description="Submit the field as the form page does: a JSON array of the chosen options.",
            ) from None
        if kind == "radio" and isinstance(value, list):
            value = value[0] if value else None
    if kind == "file" and entry.get("multipleFiles") and not isinstance(value, list):
        value = [value]
    return value


def submission_json(
    fields: list[dict[str, Any]], body: Mapping[str, Any], version: float, node_name: str = "n8n Form"
) -> dict[str, Any]:
    """n8n's ``addFormResponseDataToReturnItem``: the submitted values by field identifier."""
    result: dict[str, Any] = {}
    for index, entry in enumerate(fields):
        name = field_identifier(entry, version)
        value = body.get(f"field-{index}")
        if value is None:
            result[name] = None
            continue
        if entry.get("fieldType") == "html":
            if entry.get("elementName"):
                result[str(entry["elementName"])] = value
            continue
        result[name] = _convert(entry, value, node_name)
    return result


async def form_return_item(
    ctx: ExecuteContext, fields: list[dict[str, Any]], submission: Submission, *, use_workflow_timezone: bool
) -> Item:
    """n8n's ``prepareFormReturnItem``: values, files as binary (via the node's binary helpers), ``submittedAt``,
    ``formMode`` (and ``headers`` with ``options.showHeaders``; ``formQueryParameters`` for a trigger)."""
    body = dict(submission.body)
    binary: dict[str, Any] = {}
    by_field: dict[str, list[UploadedFormFile]] = {}
    for upload in submission.files:
        by_field.setdefault(upload.field, []).append(upload)
    version = float(ctx.node.typeVersion)
    for key, uploads in by_field.items():
        meta = [{"filename": u.filename, "mimetype": u.mime_type, "size": len(u.data)} for u in uploads]
        multi = len(uploads) > 1
        body[key] = meta if multi else meta[0]
        index = int(key[6:]) if re.fullmatch(r"field-\d+", key) else None
        label = field_identifier(fields[index], version) if index is not None and index < len(fields) else key
        for count, upload in enumerate(uploads):
            entry = await ctx.prepare_binary_data(upload.data, upload.filename or None, upload.mime_type)
            name = re.sub(r"\W", "_", label, flags=re.ASCII) + (f"_{count}" if multi else "")
            binary[name] = entry
    item: Item = {"json": submission_json(fields, body, version, ctx.node.name)}
    item["json"]["submittedAt"] = submitted_at(ctx, use_workflow_timezone)
    item["json"]["formMode"] = submission.mode
    if ctx.get_node_parameter("options.showHeaders", 0, False):
        item["json"]["headers"] = submission.headers
    if binary:
        item["binary"] = binary
    return item


def submitted_at(ctx: ExecuteContext, use_workflow_timezone: bool) -> str:
    """Luxon's ``DateTime.now().setZone(zone).toISO()``: milliseconds, and ``Z`` for UTC."""
    from weft.expressions.session import DEFAULT_TIMEZONE

    zone: Any = UTC
    if use_workflow_timezone:
        name = ctx.workflow.settings.timezone
        if not name or name == "DEFAULT":
            name = DEFAULT_TIMEZONE
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            zone = UTC
    now = datetime.now(zone)
    text = now.isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z") if zone is UTC else text


__all__ = [
    "FIELD_TYPES",
    "SUBMISSION_KEY",
    "Submission",
    "UploadedFormFile",
    "field_identifier",
    "form_return_item",
    "json_fields",
    "normalize_field",
    "parameter_fields",
    "submission_json",
    "submitted_at",
]
