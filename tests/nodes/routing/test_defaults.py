"""The parameters as n8n's workflow holds them (``getNodeParameters`` with defaults)."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.defaults import node_parameters_with_defaults

PROPERTIES: list[dict[str, Any]] = [
    {"name": "resource", "type": "options", "default": "user", "options": [{"value": "user"}, {"value": "team"}]},
    {"name": "operation", "type": "options", "default": "get", "displayOptions": {"show": {"resource": ["user"]}}},
    {"name": "operation", "type": "options", "default": "list", "displayOptions": {"show": {"resource": ["team"]}}},
    {"name": "simplify", "type": "boolean", "default": True, "displayOptions": {"show": {"operation": ["get"]}}},
    {"name": "old", "type": "string", "default": "x", "displayOptions": {"show": {"@version": [1]}}},
    {"name": "fields", "type": "collection", "default": {}, "options": [
        {"name": "city", "type": "string", "default": ""}, {"name": "age", "type": "number", "default": 3}]},
    {"name": "pairs", "type": "fixedCollection", "typeOptions": {"multipleValues": True}, "default": {}, "options": [
        {"name": "pair", "values": [{"name": "key", "type": "string", "default": "k"},
                                    {"name": "on", "type": "boolean", "default": False}]}]},
]  # fmt: skip


def test_shown_properties_get_their_defaults() -> None:
    filled = node_parameters_with_defaults(PROPERTIES, {}, 2, "t")
    assert filled == {"resource": "user", "operation": "get", "simplify": True, "fields": {}, "pairs": {}}


def test_a_duplicate_name_takes_the_default_of_the_one_shown() -> None:
    filled = node_parameters_with_defaults(PROPERTIES, {"resource": "team"}, 2, "t")
    assert filled["operation"] == "list" and "simplify" not in filled


def test_hidden_values_are_dropped_and_version_conditions_hold() -> None:
    filled = node_parameters_with_defaults(PROPERTIES, {"operation": "delete", "simplify": False}, 1, "t")
    assert "simplify" not in filled and filled["old"] == "x"


def test_collections_keep_what_is_set_and_fixed_collection_entries_get_defaults() -> None:
    values = {"fields": {"city": "Paris"}, "pairs": {"pair": [{"key": "a"}, {"on": True}]}}
    filled = node_parameters_with_defaults(PROPERTIES, values, 2, "t")
    assert filled["fields"] == {"city": "Paris"}
    assert filled["pairs"] == {"pair": [{"key": "a", "on": False}, {"key": "k", "on": True}]}
