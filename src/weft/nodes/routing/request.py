"""Building one item's request from the description (n8n's ``RoutingNode.getRequestOptionsFromParameters`` and
``mergeOptions``): ``requestDefaults``, then each shown property's ``routing``: ``request`` (options such as
``method``, ``url``, ``qs``), ``send`` (the value into the body or query at ``property``, through ``value``;
``preSend`` functions; ``paginate``), ``output`` (``postReceive`` actions, ``maxResults``) and ``operations``
(pagination); an ``options`` property routes through its chosen option, a ``collection`` through its set
options, a ``fixedCollection`` through each entry (``$index``, ``$parent``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.nodes.routing.display import display_parameter
from weft.nodes.routing.jsvalues import strict_equal, text, truthy
from weft.nodes.routing.paths import UNDEFINED, get_path, set_path
from weft.nodes.routing.scope import Keys, RoutingScope

Property = Mapping[str, Any]


@dataclass
class PostReceive:
    """The ``postReceive`` actions of one property, with the property's value (their ``$value``)."""

    parameter_value: Any
    actions: list[Any]


@dataclass
class RequestData:
    """n8n's ``IRequestOptionsFromParameters``: the request and what runs around it."""

    options: dict[str, Any] = field(default_factory=lambda: {"qs": {}, "body": {}, "headers": {}})
    pre_send: list[Any] = field(default_factory=list)
    post_receive: list[PostReceive] = field(default_factory=list)
    paginate: bool | None = None
    max_results: Any = None
    operations: dict[str, Any] = field(default_factory=dict)

    def merge(self, other: RequestData | None) -> None:
        """n8n's ``mergeOptions``."""
        if other is None:
            return
        self.paginate = self.paginate if self.paginate is not None else other.paginate
        self.max_results = other.max_results if other.max_results else self.max_results
        merge_into(self.options, other.options)
        self.pre_send.extend(other.pre_send)
        self.post_receive.extend(other.post_receive)
        self.operations.update(other.operations)


def merge_into(target: dict[str, Any], source: Mapping[str, Any]) -> None:
    """lodash ``merge``: plain objects and arrays merged key by key, ``undefined`` skipped."""
    for key, value in source.items():
        if value is UNDEFINED:
            continue
        current = target.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            merge_into(current, value)
        elif isinstance(value, list) and isinstance(current, list):
            merged = {str(i): v for i, v in enumerate(current)}
            merge_into(merged, {str(i): v for i, v in enumerate(value)})
            target[key] = [merged[str(i)] for i in range(len(merged))]
        else:
            target[key] = copy.deepcopy(value)


def build_request(scope: RoutingScope, item_index: int, keys: Keys) -> RequestData:
    """The request of item ``item_index``: ``requestDefaults`` and every property's routing, merged in order."""
    data = RequestData(operations=dict(scope.description.get("requestOperations") or {}))
    for key, value in (scope.description.get("requestDefaults") or {}).items():
        data.options[key] = scope.value(value, item_index, keys)
    for prop in scope.properties:
        value = scope.value(copy.deepcopy(get_path(scope.parameters, str(prop.get("name")))), item_index, keys)
        value = [] if value is UNDEFINED else value
        data.merge(property_request(scope, prop, item_index, "", {**keys, "$value": value}))
    return data


def resolve_base_url(scope: RoutingScope, item_index: int, keys: Keys) -> Any:
    """n8n 2.41's ``resolveBaseUrl``: the ``baseURL`` with no parameter shaping it (``$parameter`` empty): whether
    the node, not the user, owns the endpoint (for the credential's domain restriction)."""
    scratch = RequestData()
    defaults = scope.description.get("requestDefaults") or {}
    if "baseURL" in defaults:
        scratch.options["baseURL"] = scope.value(defaults["baseURL"], item_index, keys)
    for prop in scope.properties:
        value = scope.value(copy.deepcopy(get_path(scope.parameters, str(prop.get("name")))), item_index, keys)
        value = [] if value is UNDEFINED else value
        scratch.merge(property_request(scope, prop, item_index, "", {**keys, "$value": value}, base_url_only=True))
    return scratch.options.get("baseURL")


def property_request(
    scope: RoutingScope, prop: Property, item_index: int, path: str, keys: Keys, *, base_url_only: bool = False
) -> RequestData | None:
    """n8n's ``getRequestOptionsFromParameters`` for one property (and what it contains)."""
    if not display_parameter(scope.parameters, prop, scope.version, scope.type_name, scope.parameters):
        return None
    data = RequestData()
    base = f"{path}." if path else ""
    routing = prop.get("routing")
    if isinstance(routing, Mapping):
        value: Any = UNDEFINED
        if "type" in prop:
            extract = "extractValue" in prop or prop.get("type") == "resourceLocator"
            value = scope.parameter(base + str(prop.get("name")), item_index, UNDEFINED, extract_value=extract)
        _apply_routing(scope, routing, item_index, {**keys, "$value": value}, value, data, base_url_only)
    if "options" not in prop:
        return data
    kind = prop.get("type")
    if kind == "options":
        _route_chosen_option(scope, prop, item_index, base, keys, data, base_url_only)
    elif kind == "collection":
        _route_collection(scope, prop, item_index, base, keys, data, base_url_only)
    elif kind == "fixedCollection":
        _route_fixed_collection(scope, prop, item_index, base, keys, data, base_url_only)
    return data


def _apply_routing(
    scope: RoutingScope, routing: Mapping[str, Any], index: int, keys: Keys, value: Any, data: RequestData, only: bool
) -> None:
    if not only and routing.get("operations"):
        data.operations = dict(routing["operations"])
    for key, option in (routing.get("request") or {}).items():
        if not only or key == "baseURL":
            data.options[key] = scope.value(option, index, keys)
    if only:
        return
    send = routing.get("send")
    if isinstance(send, Mapping):
        _apply_send(scope, send, index, keys, value, data)
    output = routing.get("output")
    if isinstance(output, Mapping):
        _apply_output(scope, output, index, keys, value, data)


def _apply_send(
    scope: RoutingScope, send: Mapping[str, Any], index: int, keys: Keys, value: Any, data: RequestData
) -> None:
    name = send.get("property")
    if name is not None:
        name = _text(scope.value(name, index, keys))
        sent = scope.value(send["value"], index, {**keys, "$value": value}) if send.get("value") else value
        target = data.options["body"] if send.get("type") == "body" else data.options["qs"]
        if send.get("propertyInDotNotation") is False:
            target[name] = sent
        else:
            set_path(target, name, sent)
    if "paginate" in send:
        paginate = send["paginate"]
        if isinstance(paginate, str) and paginate.startswith("="):
            paginate = scope.value(paginate, index, keys)
        data.paginate = truthy(paginate)
    if send.get("preSend"):
        data.pre_send.extend(send["preSend"])


def _apply_output(
    scope: RoutingScope, output: Mapping[str, Any], index: int, keys: Keys, value: Any, data: RequestData
) -> None:
    if "maxResults" in output:
        limit = output["maxResults"]
        data.max_results = scope.value(limit, index, keys) if isinstance(limit, str) and limit[:1] == "=" else limit
    actions = []
    for action in output.get("postReceive") or []:
        if not isinstance(action, Mapping) or "$function" in action:
            actions.append(action)  # a function (its marker, or null where the export had no name for it)
            continue
        enabled = action.get("enabled")
        if isinstance(enabled, str) and enabled.startswith("="):
            if truthy(scope.value(enabled, index, keys)):
                actions.append(action)
        elif enabled is not False:
            actions.append(action)
    if actions:
        data.post_receive.append(PostReceive(parameter_value=value, actions=actions))


def _route_chosen_option(
    scope: RoutingScope, prop: Property, index: int, base: str, keys: Keys, data: RequestData, only: bool
) -> None:
    chosen = get_path(scope.parameters, base + str(prop.get("name")))
    for option in prop.get("options") or []:
        if isinstance(option, Mapping) and strict_equal(option.get("value", UNDEFINED), chosen):
            inner = {**keys, "$value": chosen, "$version": scope.version}
            data.merge(property_request(scope, option, index, base + str(prop.get("name")), inner, base_url_only=only))
            return


def _route_collection(
    scope: RoutingScope, prop: Property, index: int, base: str, keys: Keys, data: RequestData, only: bool
) -> None:
    value = get_path(scope.parameters, base + str(prop.get("name")))
    present = set(value) if isinstance(value, dict) else set()
    for option in prop.get("options") or []:
        if isinstance(option, Mapping) and option.get("name") in present and option.get("type") is not None:
            inner = {**keys, "$version": scope.version}
            data.merge(property_request(scope, option, index, base + str(prop.get("name")), inner, base_url_only=only))


def _route_fixed_collection(
    scope: RoutingScope, prop: Property, index: int, base: str, keys: Keys, data: RequestData, only: bool
) -> None:
    base = f"{base}{prop.get('name')}."
    multiple = bool((prop.get("typeOptions") or {}).get("multipleValues"))
    for group in prop.get("options") or []:
        value = get_path(scope.parameters, base + str(group.get("name")))
        if value is UNDEFINED:
            continue
        entries = scope.value(copy.deepcopy(value if isinstance(value, list) else [value]), index, keys)
        loop_base = base + str(group.get("name"))
        for position, entry in enumerate(entries):
            where = f"{loop_base}[{position}]" if multiple else loop_base
            inner = {**keys, "$index": position, "$parent": entry}
            for field_prop in group.get("values") or []:
                data.merge(property_request(scope, field_prop, index, where, inner, base_url_only=only))


def _text(value: Any) -> str:
    return "" if value is None or value is UNDEFINED else text(value)


__all__ = ["PostReceive", "RequestData", "build_request", "merge_into", "property_request", "resolve_base_url"]
