"""The item-building half of Edit Fields (Set): n8n's ``Set/v2/helpers/utils.ts``.

Built items never share a changed container with their input item: the json is copied shallowly and every
dotted write copies the containers along its path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from weft.nodes.json_repair import repair_json
from weft.nodes.values import (
    get_path,
    has_path,
    is_number,
    js_json,
    js_string,
    set_path,
    split_fields,
    unset_path,
    validate_field_type,
    value_description,
)
from weft.workflow import Item


class SetFieldError(Exception):
    """An assignment or the JSON output could not be turned into a field (becomes a NodeOperationError)."""

    def __init__(self, message: str, description: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.description = description


@dataclass(frozen=True, slots=True)
class ComposeOptions:
    """How the output item is assembled (``include`` and the node's ``options``)."""

    include: str = "none"
    include_fields: str = ""
    exclude_fields: str = ""
    dot_notation: bool = True
    include_binary: bool = False


def compose_options(
    version: float, include: str, options: Mapping[str, Any], include_fields: Any, exclude_fields: Any
) -> ComposeOptions:
    if version >= 3.4:
        include_binary = not options.get("stripBinary") and include != "none"
    else:
        include_binary = bool(options.get("includeBinary"))
    return ComposeOptions(
        include=include,
        include_fields=include_fields or "",
        exclude_fields=exclude_fields or "",
        dot_notation=options.get("dotNotation") is not False,
        include_binary=include_binary,
    )


def _sanitize_key(data: Mapping[str, Any], key: str) -> str:
    """n8n ``sanitizeDataPathKey``: ``["a.b"]`` names the key ``a.b`` when dot notation is off."""
    if key in data:
        return key
    if (key.startswith("['") and key.endswith("']")) or (key.startswith('["') and key.endswith('"]')):
        return key[2:-2]
    return key


def _set(data: dict[str, Any], key: str, value: Any, dot_notation: bool) -> None:
    if dot_notation:
        set_path(data, key, value)
    else:
        data[_sanitize_key(data, key)] = value


def compose_return_item(item_index: int, item: Item, new_fields: Mapping[str, Any], options: ComposeOptions) -> Item:
    """n8n ``composeReturnItem``: the input fields kept by ``include``, then the new fields written over them."""
    json = _kept_fields(item["json"], options)
    new_item: dict[str, Any] = {"json": json, "pairedItem": {"item": item_index}}
    if options.include_binary and item.get("binary") is not None:
        new_item["binary"] = dict(item["binary"])
    for key, value in new_fields.items():
        _set(json, key, value, options.dot_notation)
    return new_item  # type: ignore[return-value]


def _kept_fields(source: dict[str, Any], options: ComposeOptions) -> dict[str, Any]:
    """A copy of the input fields that ``include`` keeps."""
    dot = options.dot_notation
    if options.include == "all":
        return dict(source)
    if options.include == "none":
        return {}
    if options.include == "selected":
        kept: dict[str, Any] = {}
        for key in split_fields(options.include_fields):
            lookup = key if dot else _sanitize_key(source, key)
            if not has_path(source, lookup, dot_notation=dot):
                continue  # lodash sets `undefined`, which JSON drops
            target = key.split(".")[-1] if dot and "." in key else key
            _set(kept, target, get_path(source, lookup, dot_notation=dot), dot)
        return kept
    if options.include == "except":
        kept = dict(source)
        for key in split_fields(options.exclude_fields):
            if dot:
                unset_path(kept, key)
            else:
                kept.pop(_sanitize_key(kept, key), None)
        return kept
    raise SetFieldError(f'The include option "{options.include}" is not known!')


def validate_entry(
    name: str, kind: str, value: Any, item_index: int, ignore_errors: bool, version: float
) -> tuple[str, Any]:
    """n8n ``validateEntry``: the value converted to the assignment's type, or n8n's type error."""
    if version >= 3.2 and value is None:
        return name, None
    # fast paths: the value already has the assignment's type
    if (kind == "string" and isinstance(value, str)) or (kind == "number" and is_number(value)):
        return name, value
    description = (
        f'To fix the error try to change the type for the field "{name}" or activate the option '
        "“Ignore Type Conversion Errors” to apply a less strict type validation"
    )
    if kind == "string":
        if version > 3 and value is None:
            if ignore_errors:
                return name, None
            raise SetFieldError(
                f"'{name}' expects a {kind} but we got {value_description(value)} [item {item_index}]", description
            )
        value = js_json(value) if isinstance(value, dict | list) else js_string(value)
    valid, new_value, message = validate_field_type(name, value, kind)
    if not valid:
        if ignore_errors:
            return name, value
        raise SetFieldError(f"{message} [item {item_index}]", description)
    return name, new_value


_RESOLVABLE = re.compile(r"\{\{[\s\S]*?\}\}")


def find_resolvables(template: str) -> list[str]:
    """n8n ``getResolvables``: the ``{{ … }}`` segments of a raw template."""
    return _RESOLVABLE.findall(template)


def stringify_resolved(value: Any) -> str:
    """How ``resolveRawData`` writes a resolved value into the JSON text."""
    if isinstance(value, dict | list):
        return js_json(value)
    return js_string(value)


def parse_json_parameter(data: Any, item_index: int, entry_name: str | None = None) -> dict[str, Any]:
    """n8n ``parseJsonParameter``: the JSON Output (or an object field) as an object, or n8n's error."""
    location = f"entry \"{entry_name}\" inside 'Fields to Set'" if entry_name else "'JSON Output'"
    result: Any = data
    if isinstance(data, str):
        try:
            result = json.loads(data)
        except ValueError:
            try:
                result = json.loads(repair_json(data))
            except ValueError:
                raise SetFieldError(
                    f"The {location} in item {item_index} contains invalid JSON", description=data
                ) from None
    if not isinstance(result, dict):
        raise SetFieldError(f"The {location} in item {item_index} does not contain a valid JSON object")
    return result
