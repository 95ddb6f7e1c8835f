"""When HTTP Request (v3+) shows each top-level parameter: n8n's ``displayOptions``, from its ``export:nodes``.

n8n builds a tool's schema from the parameters the node shows (``getNodeParameters`` drops the others), so a
``$fromAI()`` left in a hidden parameter (a JSON body after switching to fields) is not offered to the model
(recorded: case a133). The same in n8n 2.8.4 and 2.41.1.
"""

from __future__ import annotations

from typing import Any

_BODY = {"sendBody": [True]}
_OPTIMIZE = {"optimizeResponse": [True], "@tool": [True]}

#: ``{parameter: [displayOptions, …]}`` (a parameter n8n defines twice is shown when either is).
PARAMETER_DISPLAY: dict[str, list[dict[str, dict[str, list[Any]]]]] = {
    "nodeCredentialType": [{"show": {"authentication": ["predefinedCredentialType"]}}],
    "genericAuthType": [{"show": {"authentication": ["genericCredentialType"]}}],
    "sslCertificate": [{"show": {"provideSslCertificates": [True]}}],
    "specifyQuery": [{"show": {"sendQuery": [True]}}],
    "queryParameters": [{"show": {"sendQuery": [True], "specifyQuery": ["keypair"]}}],
    "jsonQuery": [{"show": {"sendQuery": [True], "specifyQuery": ["json"]}}],
    "specifyHeaders": [{"show": {"sendHeaders": [True]}}],
    "headerParameters": [{"show": {"sendHeaders": [True], "specifyHeaders": ["keypair"]}}],
    "jsonHeaders": [{"show": {"sendHeaders": [True], "specifyHeaders": ["json"]}}],
    "contentType": [{"show": _BODY}],
    "specifyBody": [
        {"show": {**_BODY, "contentType": ["json"]}},
        {"show": {**_BODY, "contentType": ["form-urlencoded"]}},
    ],
    "bodyParameters": [
        {"show": {**_BODY, "contentType": ["json"], "specifyBody": ["keypair"]}},
        {"show": {**_BODY, "contentType": ["multipart-form-data"]}},
        {"show": {**_BODY, "contentType": ["form-urlencoded"], "specifyBody": ["keypair"]}},
    ],
    "jsonBody": [{"show": {**_BODY, "contentType": ["json"], "specifyBody": ["json"]}}],
    "body": [{"show": {**_BODY, "specifyBody": ["string"]}}, {"show": {**_BODY, "contentType": ["raw"]}}],
    "inputDataFieldName": [{"show": {**_BODY, "contentType": ["binaryData"]}}],
    "rawContentType": [{"show": {**_BODY, "contentType": ["raw"]}}],
    "optimizeResponse": [{"show": {"@tool": [True]}}],
    "responseType": [{"show": _OPTIMIZE}],
    "dataField": [{"show": {**_OPTIMIZE, "responseType": ["json"]}}],
    "fieldsToInclude": [{"show": {**_OPTIMIZE, "responseType": ["json"]}}],
    "fields": [{"show": {**_OPTIMIZE, "responseType": ["json"]}, "hide": {"fieldsToInclude": ["all"]}}],
    "cssSelector": [{"show": {**_OPTIMIZE, "responseType": ["html"]}}],
    "onlyContent": [{"show": {**_OPTIMIZE, "responseType": ["html"]}}],
    "elementsToOmit": [{"show": {**_OPTIMIZE, "responseType": ["html"], "onlyContent": [True]}}],
    "truncateResponse": [{"show": {**_OPTIMIZE, "responseType": ["text", "html"]}}],
    "maxLength": [{"show": {**_OPTIMIZE, "responseType": ["text", "html"], "truncateResponse": [True]}}],
}

#: The defaults the conditions read when a parameter is absent.
DISPLAY_DEFAULTS: dict[str, Any] = {
    "authentication": "none",
    "provideSslCertificates": False,
    "sendQuery": False,
    "specifyQuery": "keypair",
    "sendHeaders": False,
    "specifyHeaders": "keypair",
    "sendBody": False,
    "contentType": "json",
    "specifyBody": "keypair",
    "optimizeResponse": False,
    "responseType": "json",
    "fieldsToInclude": "all",
    "onlyContent": False,
    "truncateResponse": False,
}

__all__ = ["DISPLAY_DEFAULTS", "PARAMETER_DISPLAY"]
