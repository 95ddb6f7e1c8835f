"""Baserow's ``field_<id>`` ↔ field name mapping and the get-many query (order, filters, search)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from weft.nodes.values import js_string


class FieldMapper:
    """n8n's ``TableFieldMapper`` over the answer of ``GET /api/database/fields/table/{id}/``."""

    def __init__(self, fields: Any) -> None:
        listed = fields if isinstance(fields, list) else []
        self.id_to_name = {f"field_{js_string(f.get('id'))}": f.get("name") for f in listed}
        self.name_to_id = {js_string(f.get("name")): f"field_{js_string(f.get('id'))}" for f in listed}

    def ids_to_names(self, row: Any) -> Any:
        if not isinstance(row, dict):
            return row
        out = {k: v for k, v in row.items() if k not in self.id_to_name}
        out.update({self.id_to_name[k]: v for k, v in row.items() if k in self.id_to_name})
        return out

    def names_to_ids(self, row: Mapping[str, Any]) -> dict[str, Any]:
        return {self.name_to_id.get(k, k): v for k, v in row.items()}


def filter_query(options: Mapping[str, Any]) -> dict[str, Any]:
    """The query of get many: ``order_by``, ``filter__field_<id>__<operator>``, ``filter_type``, ``search``."""
    qs: dict[str, Any] = {}
    order = (options.get("order") or {}).get("fields")
    if order:
        qs["order_by"] = ",".join(f"{js_string(o.get('direction', ''))}{js_string(o.get('field'))}" for o in order)
    for condition in (options.get("filters") or {}).get("fields") or []:
        field = js_string(condition.get("field"))
        if field.startswith("field_"):
            field = field[len("field_") :]
        operator = js_string(condition.get("operator"))
        value = filter_value(
            operator, js_string(condition.get("value", "")), js_string(condition.get("timezone", "UTC"))
        )
        qs[f"filter__field_{field}__{operator}"] = value
    if options.get("filterType"):
        qs["filter_type"] = options["filterType"]
    if options.get("search"):
        qs["search"] = options["search"]
    return qs


MULTI_STEP = frozenset(
    "date_is date_is_not date_is_before date_is_on_or_before date_is_after date_is_on_or_after date_is_within".split()
)
TIMEZONE_NUMBER = frozenset(
    "date_within_days date_within_weeks date_within_months date_equals_days_ago date_equals_months_ago "
    "date_equals_years_ago".split()
)
TIMEZONE_ONLY = frozenset(
    "date_equals_today date_before_today date_after_today date_equals_week date_equals_month date_equals_year".split()
)
RELATIVE = frozenset(
    "today yesterday tomorrow one_week_ago one_month_ago one_year_ago this_week this_month this_year next_week "
    "next_month next_year nr_days_ago nr_weeks_ago nr_months_ago nr_years_ago nr_days_from_now nr_weeks_from_now "
    "nr_months_from_now nr_years_from_now".split()
)


def filter_value(operator: str, value: str, timezone: str) -> str:
    """n8n's ``formatBaserowFilterValue``: date operators get Baserow's ``{timezone}?{value}?{mode}`` form."""
    trimmed = value.strip()
    if not trimmed:
        return timezone if operator in TIMEZONE_ONLY else trimmed
    if operator in MULTI_STEP:
        malformed = re.fullmatch(r"([^?]+)\?\?(\d{4}-\d{2}-\d{2})", trimmed)
        parts = trimmed.split("?")
        if malformed:
            return f"{malformed[1]}?{malformed[2]}?exact_date"
        if len(parts) == 3 and parts[2]:
            return trimmed
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", trimmed):
            return f"{timezone}?{trimmed}?exact_date"
        if trimmed in RELATIVE:
            return f"{timezone}??{trimmed}"
        if operator == "date_is_within" and re.fullmatch(r"\d+", trimmed):
            return f"{timezone}?{trimmed}?nr_days_from_now"
        return trimmed
    if operator in TIMEZONE_NUMBER and "?" not in trimmed:
        return f"{timezone}?{trimmed}"
    return trimmed
