"""Ports of the Google Ads node's functions (``nodes/Google/Ads/CampaignDescription.ts``)."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.postreceive import Items


def _spread(value: Any) -> dict[str, Any]:
    """``{...value}`` of a field of a search row (nothing for a missing or non-object one)."""
    return dict(value) if isinstance(value, dict) else {}


@port("postReceive", "processCampaignSearchResponse", "34d617514af834c5")
async def campaign_search_response(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """Each row of ``googleAds:search`` as one item: its ``campaign``, ``metrics`` and ``campaignBudget`` fields
    spread into one object (later ones win)."""
    body = response.get("body")
    rows = body.get("results") if isinstance(body, dict) else None
    out: Items = []
    for row in rows if isinstance(rows, list) else []:
        row = row if isinstance(row, dict) else {}
        merged = {**_spread(row.get("campaign")), **_spread(row.get("metrics")), **_spread(row.get("campaignBudget"))}
        out.append({"json": merged})
    return out
