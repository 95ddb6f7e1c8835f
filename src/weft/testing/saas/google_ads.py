"""A fake Google Ads API (``googleads.googleapis.com``, versions ``v20`` and ``v25``): ``googleAds:search`` over a
fixed set of campaigns (the GAQL ``where`` clauses the Google Ads node writes: a campaign id, a status, a date
range), ``customers:listAccessibleCustomers`` (the credential test). It checks the bearer token, the
``developer-token`` header and the ``login-customer-id``; a customer it does not know answers Google's 403
``PERMISSION_DENIED``, the customer ``9990000429`` a 429 ``RESOURCE_EXHAUSTED`` with ``Retry-After``. No state."""

from __future__ import annotations

import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "googleads.googleapis.com"
ACCESS_TOKEN = "google-ads-access-token"
DEVELOPER_TOKEN = "ads-developer-token"
MANAGER = "1234567890"
CUSTOMERS = ("1112223333",)
RATE_LIMITED = "9990000429"


def _error(status: int, code: str, message: str, **headers: str) -> ApiReply:
    return json_error(status, {"error": {"code": status, "message": message, "status": code}}, **headers)


def _campaign(number: int, name: str, status: str, channel: str, budget: int, impressions: int) -> dict[str, Any]:
    cid = f"2100000{number}"
    return {
        "campaign": {
            "resourceName": f"customers/{CUSTOMERS[0]}/campaigns/{cid}",
            "status": status,
            "advertisingChannelType": channel,
            "advertisingChannelSubType": "UNSPECIFIED" if channel == "SEARCH" else "DISPLAY_SMART_CAMPAIGN",
            "name": name,
            "id": cid,
            "optimizationScore": 0.5 + number / 10,
        },
        "metrics": {
            "ctr": 0.0125 * number,
            "averageCost": 150000.0 * number,
            "averageCpm": 2500000.0 * number,
            "conversions": float(number),
            "interactions": str(12 * number),
            "impressions": str(impressions),
            "interactionRate": 0.01 * number,
            "costMicros": str(1800000 * number),
            "costPerConversion": 1800000.0,
            "conversionsFromInteractionsRate": 0.083,
            "videoTrueviewViews": "0",
        },
        "campaignBudget": {
            "resourceName": f"customers/{CUSTOMERS[0]}/campaignBudgets/3100000{number}",
            "amountMicros": str(budget),
            "period": "DAILY",
        },
    }


CAMPAIGNS = [
    _campaign(1, "Spring sale", "ENABLED", "SEARCH", 5000000, 1200),
    _campaign(2, "Brand awareness", "PAUSED", "DISPLAY", 2500000, 800),
    _campaign(3, "Old promo", "REMOVED", "SEARCH", 1000000, 40),
]
_FIELD_MASK = (
    "campaign.id,campaign.name,campaignBudget.amountMicros,campaignBudget.period,campaign.status,"
    "campaign.optimizationScore,campaign.advertisingChannelType,campaign.advertisingChannelSubType,"
    "metrics.impressions,metrics.interactions,metrics.interactionRate,metrics.averageCost,metrics.costMicros,"
    "metrics.conversions,metrics.costPerConversion,metrics.conversionsFromInteractionsRate,"
    "metrics.videoTrueviewViews,metrics.averageCpm,metrics.ctr"
)


def _authorized(request: ApiRequest) -> None:
    require(
        request.headers.get("authorization") == f"Bearer {ACCESS_TOKEN}",
        _error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."),
    )
    require(
        request.headers.get("developer-token") == DEVELOPER_TOKEN,
        _error(401, "UNAUTHENTICATED", "The developer token is not valid."),
    )


def search(request: ApiRequest) -> ApiReply:
    _authorized(request)
    customer = request.params["customer"]
    require(customer != RATE_LIMITED, _error(429, "RESOURCE_EXHAUSTED", "Too many requests.", **{"Retry-After": "30"}))
    require(
        customer in CUSTOMERS and request.headers.get("login-customer-id") in (MANAGER, customer),
        _error(403, "PERMISSION_DENIED", "The caller does not have permission"),
    )
    body = request.body if isinstance(request.body, dict) else {}
    query = str(body.get("query") or "")
    require(
        query.lower().startswith("select ") and " from campaign " in query,
        _error(400, "INVALID_ARGUMENT", "Request contains an invalid argument."),
    )
    rows = CAMPAIGNS
    by_id = re.search(r"campaign\.id = (\S+)", query)
    if by_id:
        require(by_id.group(1).isdigit(), _error(400, "INVALID_ARGUMENT", "Request contains an invalid argument."))
        rows = [r for r in rows if r["campaign"]["id"] == by_id.group(1)]
    status = re.search(r"campaign\.status = '(\w+)'", query)
    if status:
        rows = [r for r in rows if r["campaign"]["status"] == status.group(1)]
    if "segments.date DURING" in query:
        rows = rows[:1]
    answer: dict[str, Any] = {"fieldMask": _FIELD_MASK, "queryResourceConsumption": "200"}
    if rows:
        answer["results"] = rows
    return ApiReply(body=answer)


def accessible(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"resourceNames": [f"customers/{c}" for c in CUSTOMERS]})


def install(server: FakeApiServer) -> None:
    server.route("POST", r"/v(?:20|25)/customers/(?P<customer>[^/]+)/googleAds:search", search, host=HOST)
    server.route("GET", r"/v(?:20|25)/customers:listAccessibleCustomers", accessible, host=HOST)
