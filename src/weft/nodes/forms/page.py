"""What a form page shows, as plain JSON: n8n's ``prepareFormData`` (a form) and the completion page's data.

The Form Trigger's page is built from its parameters when the form is opened; a Form node builds its page when it
runs (its expressions evaluated then) and keeps it with the waiting execution, so the page survives a restart.
The server renders these dicts with its templates, escaping every value; only ``html`` (sanitised HTML fields),
``formDescription`` and a completion ``message`` (both sanitised) are inserted as markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.nodes.forms.fields import field_identifier
from weft.nodes.forms.html import (
    description_metadata,
    handle_newlines,
    safe_redirect_url,
    sanitize_custom_css,
    sanitize_html,
)

#: Where the "Form automated with n8n" footer links to (n8n's ``getN8nWebsiteLink``).
N8N_WEBSITE_LINK = "https://n8n.io/?utm_source=n8n-internal&utm_medium=form-trigger"
DEFAULT_SUBMITTED_TEXT = "Your response has been recorded"


def form_page(
    *,
    title: str,
    description: str,
    fields: list[dict[str, Any]],
    version: float,
    query: Mapping[str, Any] | None = None,
    test_run: bool = False,
    use_response_data: bool = False,
    append_attribution: bool = True,
    button_label: str = "Submit",
    custom_css: str | None = None,
    submitted_text: str | None = None,
    redirect_url: str | None = None,
    auth_token: str | None = None,
) -> dict[str, Any]:
    """n8n's ``prepareFormData`` (with ``prepareFormFields``): the page of a form, its fields and options."""
    clean_description = handle_newlines(sanitize_html(description))
    data: dict[str, Any] = {
        "kind": "form",
        "testRun": test_run,
        "formTitle": title,
        "formDescription": clean_description,
        "formDescriptionMetadata": description_metadata(clean_description),
        "formSubmittedText": DEFAULT_SUBMITTED_TEXT if submitted_text is None else submitted_text,
        "n8nWebsiteLink": N8N_WEBSITE_LINK,
        "formFields": [_field(index, entry, query or {}, version) for index, entry in enumerate(fields)],
        "useResponseData": use_response_data,
        "appendAttribution": append_attribution,
        "buttonLabel": button_label,
        "dangerousCustomCss": sanitize_custom_css(custom_css),
        "authToken": auth_token or "",
    }
    safe = safe_redirect_url(redirect_url)
    if safe:
        data["redirectUrl"] = safe
    return data


def _field(index: int, entry: Mapping[str, Any], query: Mapping[str, Any], version: float) -> dict[str, Any]:
    kind = entry.get("fieldType") or "text"
    label = entry.get("fieldName") if kind == "hiddenField" else entry.get("fieldLabel")
    prefill = query.get(field_identifier(entry, version))
    default = prefill if prefill is not None else entry.get("defaultValue")
    view: dict[str, Any] = {
        "id": f"field-{index}",
        "errorId": f"error-field-{index}",
        "label": "" if label is None else str(label),
        "inputRequired": "form-required" if entry.get("requiredField") else "",
        "defaultValue": "" if default is None else default,
        "placeholder": str(entry.get("placeholder") or ""),
    }
    options = [str(o.get("option", "")) for o in ((entry.get("fieldOptions") or {}).get("values") or [])]
    if entry.get("multiselect") or kind in ("radio", "checkbox"):
        view["isMultiSelect"] = True
        view["multiSelectOptions"] = [{"id": f"option{i}_field-{index}", "label": o} for i, o in enumerate(options)]
        if kind == "radio":
            view["radioSelect"] = "radio"
        elif entry.get("limitSelection") == "exact":
            view["exactSelectedOptions"] = entry.get("numberOfSelections")
        elif entry.get("limitSelection") == "range":
            view["minSelectedOptions"] = entry.get("minSelections")
            view["maxSelectedOptions"] = entry.get("maxSelections")
    elif kind == "file":
        view.update(isFileInput=True, acceptFileTypes=str(entry.get("acceptFileTypes") or ""))
        view["multipleFiles"] = bool(entry.get("multipleFiles"))
    elif kind == "dropdown":
        view.update(isSelect=True, selectOptions=options)
    elif kind == "textarea":
        view["isTextarea"] = True
    elif kind == "html":
        view.update(isHtml=True, html=sanitize_html(str(entry.get("html") or "")))
    elif kind == "hiddenField":
        view.update(isHidden=True, hiddenName=str(entry.get("fieldName") or ""))
        view["hiddenValue"] = entry.get("fieldValue", "") if view["defaultValue"] == "" else view["defaultValue"]
    else:
        view.update(isInput=True, type=kind)
    return view


def completion_page(
    *,
    title: str,
    message: str,
    form_title: str,
    append_attribution: bool = True,
    response_text: str = "",
    redirect_url: str | None = None,
    custom_css: str | None = None,
    binary_fields: list[str] | None = None,
    binaries: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The data of n8n's ``form-trigger-completion`` page (``renderFormCompletion``)."""
    data: dict[str, Any] = {
        "kind": "completion",
        "title": title,
        "message": handle_newlines(sanitize_html(message)),
        "formTitle": form_title,
        "appendAttribution": append_attribution,
        "n8nWebsiteLink": N8N_WEBSITE_LINK if append_attribution else None,
        "responseText": response_text,
        "dangerousCustomCss": sanitize_custom_css(custom_css),
        "redirectUrl": safe_redirect_url(redirect_url),
        "binaryFields": binary_fields or [],
        "binaries": binaries or [],
    }
    return data


#: The page n8n shows for a finished form without an ending of its own.
FORM_SUBMITTED_PAGE = completion_page(
    title="Form Submitted", message=DEFAULT_SUBMITTED_TEXT, form_title="Form Submitted"
)

__all__ = ["DEFAULT_SUBMITTED_TEXT", "FORM_SUBMITTED_PAGE", "N8N_WEBSITE_LINK", "completion_page", "form_page"]
